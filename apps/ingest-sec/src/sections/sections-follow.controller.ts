import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type FilingData, type RecordEnvelope } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { SectionsService } from './sections.service';

export const SECTIONS_RUN_ID = Symbol('SECTIONS_RUN_ID');

/**
 * The Kafka edge of `sections.main --follow`: the newest 10-K of each issuer among a batch of
 * filing@1 records (live polling and backfill both publish there) is read. The effect is idempotent
 * (deterministic record ids), so a batch applied again after a failure republishes identical records.
 */
@Controller()
export class SectionsFollowController {
  constructor(
    @Inject(SectionsService) private readonly service: SectionsService,
    @Inject(SECTIONS_RUN_ID) private readonly runId: string,
  ) {}

  @EventPattern([TOPICS.filings.name])
  async onFilings(@Payload() batch: RecordBatch): Promise<void> {
    // The runner validated each record against the topic's schemas: filing@1 is the only one.
    const filings = SectionsService.commandsOf(batch.records.map(({ envelope }) => envelope as RecordEnvelope<FilingData>));
    if (filings.length > 0) await this.service.execute({ filings, runId: this.runId });
  }
}
