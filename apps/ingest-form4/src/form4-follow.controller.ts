import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type FilingData } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { Form4IngestService } from './form4-ingest.service';

export const FORM4_RUN_ID = Symbol('FORM4_RUN_ID');

export interface Form4FollowCounts {
  /** form4@1 records published. */
  published: number;
  /** Filing records that were not a Form 4 of a covered issuer (or whose issuer is not covered). */
  ignored: number;
}

/**
 * The Kafka edge of `--follow`: reads each Form 4 / 4/A of a covered issuer among the filing@1
 * records, in offset order. The effect is idempotent (deterministic record ids), so a batch applied
 * again after a failure republishes identical records. A filing that cannot be read throws
 * PermanentError, which isolates it to the dead-letter topic with the reason.
 */
@Controller()
export class Form4FollowController {
  readonly counts: Form4FollowCounts = { published: 0, ignored: 0 };

  constructor(
    @Inject(Form4IngestService) private readonly service: Form4IngestService,
    @Inject(FORM4_RUN_ID) private readonly runId: string,
  ) {}

  @EventPattern([TOPICS.filings.name])
  async onFilings(@Payload() batch: RecordBatch): Promise<void> {
    // Counted when the whole batch succeeded: a failed batch is applied again (or split), not twice counted.
    const counts: Form4FollowCounts = { published: 0, ignored: 0 };
    for (const { envelope } of batch.records) {
      // The runner validated the record against the topic's schemas: filing@1 is the only one.
      const outcome = await this.service.handleFilingRecord(envelope.data as FilingData, envelope.origin, this.runId);
      if (outcome?.status === 'published') counts.published += 1;
      else counts.ignored += 1;
    }
    this.counts.published += counts.published;
    this.counts.ignored += counts.ignored;
  }
}
