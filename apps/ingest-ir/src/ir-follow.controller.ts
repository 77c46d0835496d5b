import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type CompanyData, type RecordEnvelope } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { IrSitesFollower } from './ir-follow.service';
import { irCompanyOf, type IrCompany } from './ir-site.mapper';

/**
 * The Kafka edge of `ingest-ir --follow`: company@1 records whose submissions detail is known go to
 * the follower, which crawls before the batch is committed (a crash re-reads the batch; the crawl
 * state makes the repeat cheap and the records are idempotent).
 */
@Controller()
export class IrFollowController {
  constructor(@Inject(IrSitesFollower) private readonly follower: IrSitesFollower) {}

  @EventPattern([TOPICS.companies.name])
  async onCompanies(@Payload() batch: RecordBatch): Promise<void> {
    // The runner validated each record against the topic's schemas: company@1 is the only one.
    const companies = batch.records
      .map(({ envelope }) => irCompanyOf(envelope as RecordEnvelope<CompanyData>))
      .filter((c): c is IrCompany => c !== null);
    if (companies.length > 0) await this.follower.onCompanies(companies);
  }
}
