import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type FilingData, type RecordEnvelope } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { SegmentsService, type SegmentsFilingCommand } from './segments.service';

export const SEGMENTS_RUN_ID = Symbol('SEGMENTS_RUN_ID');

/**
 * The Kafka edge of `segments.main --follow`: every 10-Q / 10-K among a batch of filing@1 records
 * is read, in offset order. The effect is idempotent (deterministic record ids), so a batch applied
 * again after a failure republishes identical records.
 */
@Controller()
export class SegmentsFollowController {
  constructor(
    @Inject(SegmentsService) private readonly service: SegmentsService,
    @Inject(SEGMENTS_RUN_ID) private readonly runId: string,
  ) {}

  @EventPattern([TOPICS.filings.name])
  async onFilings(@Payload() batch: RecordBatch): Promise<void> {
    // The runner validated each record against the topic's schemas: filing@1 is the only one.
    const filings = batch.records
      .map(({ envelope }) => SegmentsService.commandOf(envelope as RecordEnvelope<FilingData>))
      .filter((command): command is SegmentsFilingCommand => command !== null);
    if (filings.length > 0) await this.service.execute({ filings, runId: this.runId });
  }
}
