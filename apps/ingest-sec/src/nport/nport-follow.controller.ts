import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type FilingData } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { NportIngestService } from './nport-ingest.service';

export const NPORT_RUN_ID = Symbol('NPORT_RUN_ID');

/**
 * The Kafka edge of `nport --follow`: reads each NPORT-P and NPORT-P/A among the filing@1 records,
 * in offset order, whoever filed it. The effect is idempotent (deterministic record ids), so a batch
 * applied again after a failure republishes identical records. A filing that cannot be read throws
 * PermanentError, which isolates it to the dead-letter topic with the reason.
 */
@Controller()
export class NportFollowController {
  constructor(
    @Inject(NportIngestService) private readonly service: NportIngestService,
    @Inject(NPORT_RUN_ID) private readonly runId: string,
  ) {}

  @EventPattern([TOPICS.filings.name])
  async onFilings(@Payload() batch: RecordBatch): Promise<void> {
    // The runner validated each record against the topic's schemas: filing@1 is the only one.
    for (const { envelope } of batch.records) await this.service.handleFilingRecord(envelope.data as FilingData, envelope.origin, this.runId);
  }
}
