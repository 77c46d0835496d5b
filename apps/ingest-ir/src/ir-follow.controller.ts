import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type CompanyData, type RecordEnvelope, type TenkSectionData } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { IrSitesFollower } from './ir-follow.service';
import { irCompanyOf, tenkIrWebsiteOf, type IrCompany } from './ir-site.mapper';

/**
 * The Kafka edge of `ingest-ir --follow`: company@1 records whose submissions detail is known, and
 * the IR websites 10-Ks name (tenk-section@1 of Item 1), go to the follower, which crawls before the batch is committed (a crash re-reads the batch; the crawl
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

  @EventPattern([TOPICS.tenkSections.name])
  async onTenkSections(@Payload() batch: RecordBatch): Promise<void> {
    // Item 1 records only: the IR website its "Available Information" names, if any.
    const mentions = batch.records.flatMap(({ envelope }) => {
      const record = envelope as RecordEnvelope<TenkSectionData>;
      const mention = tenkIrWebsiteOf(record);
      return mention ? [{ cik: record.data.cik, mention }] : [];
    });
    if (mentions.length > 0) await this.follower.onTenkMentions(mentions);
  }
}
