import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type FilingData, type RecordEnvelope } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { ThirteenFService } from './thirteenf.service';

export const THIRTEENF_RUN_ID = Symbol('THIRTEENF_RUN_ID');

/**
 * The Kafka edge of `13f --follow`: reads each 13F among the filing@1 records, in offset order.
 * The effect is idempotent (deterministic record ids), so a batch applied again after a failure
 * republishes identical records. A submission that cannot be read throws PermanentError, which
 * isolates its filing record to the dead-letter topic with the reason.
 */
@Controller()
export class ThirteenFFollowController {
  constructor(
    @Inject(ThirteenFService) private readonly service: ThirteenFService,
    @Inject(THIRTEENF_RUN_ID) private readonly runId: string,
  ) {}

  @EventPattern([TOPICS.filings.name])
  async onFilings(@Payload() batch: RecordBatch): Promise<void> {
    // The runner validated each record against the topic's schemas: filing@1 is the only one.
    for (const { envelope } of batch.records) await this.service.handleFilingRecord(envelope as RecordEnvelope<FilingData>, this.runId);
  }
}
