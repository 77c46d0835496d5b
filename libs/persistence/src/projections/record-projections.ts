import type { DataSource, EntityManager } from 'typeorm';
import type { z } from 'zod';
import { TOPICS, topicKeysConsumedBy, type RecordEnvelope, type TopicKeyConsumedBy } from '@app/contracts';
import type { BatchOutcome } from './batch-outcome';
import { projectCompanies } from '../companies/company.projection';
import { projectCompanyDescriptions } from '../companies/company-description.projection';
import { projectDocumentTexts } from '../documents/document-text.projection';
import { projectFilings } from '../filings/filing.projection';
import { projectForm4Filings } from '../form4/form4.projection';
import { projectFundHoldings } from '../funds/fund-holdings.projection';
import { projectIssuerDocuments } from '../documents/ir-document.projection';
import { projectIrSites } from '../ir-sites/ir-site.projection';
import { projectIssuerRosters } from '../roster/ir-roster.projection';
import { projectSegments } from '../segments/segment.projection';
import { projectTenkSections } from '../tenk-sections/tenk-section.projection';
import { projectThirteenFHoldings } from '../institutional/thirteenf-holdings.projection';
import { projectThirteenFSecurities } from '../institutional/thirteenf-securities.projection';
import { projectXbrlFacts } from '../facts/xbrl-facts.projection';

/**
 * A batch projection; its records were validated against its schema (the map below is keyed by
 * schema). `producedAt[i]` is the Kafka timestamp of `envelopes[i]` when the caller has it (only
 * the filings projection uses it, for freshness).
 */
export type BatchProjection = (m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope>, producedAt?: ReadonlyArray<Date | null>) => Promise<BatchOutcome>;

/** A record envelope of one of a topic's schemas. */
type EnvelopeOf<S extends Readonly<Record<string, z.ZodType>>> = z.infer<S[keyof S]>;

/**
 * A topic's projection as a BatchProjection. The consumer validated every record against one of the
 * topic's schemas before it gets here, so widening the projection's parameter is sound: the one cast.
 */
function projectionOf<S extends Readonly<Record<string, z.ZodType>>>(
  _topic: { schemas: S },
  project: (m: EntityManager, envelopes: ReadonlyArray<EnvelopeOf<S>>, producedAt?: ReadonlyArray<Date | null>) => Promise<BatchOutcome>,
): BatchProjection {
  return (m, envelopes, producedAt) => project(m, envelopes as ReadonlyArray<EnvelopeOf<S>>, producedAt);
}

/**
 * The projection of each topic the projector consumes, by registry key. The registry's `consumers`
 * say which topics those are: a topic newly consumed by 'projector' does not compile until it has one here.
 */
export const TOPIC_PROJECTIONS: Readonly<Record<TopicKeyConsumedBy<'projector'>, BatchProjection>> = {
  companies: projectionOf(TOPICS.companies, projectCompanies),
  filings: projectionOf(TOPICS.filings, projectFilings),
  fundHoldings: projectionOf(TOPICS.fundHoldings, projectFundHoldings),
  segments: projectionOf(TOPICS.segments, projectSegments),
  issuerRoster: projectionOf(TOPICS.issuerRoster, projectIssuerRosters),
  issuerDocuments: projectionOf(TOPICS.issuerDocuments, projectIssuerDocuments),
  irSites: projectionOf(TOPICS.irSites, projectIrSites),
  companyDescriptions: projectionOf(TOPICS.companyDescriptions, projectCompanyDescriptions),
  documentTexts: projectionOf(TOPICS.documentTexts, projectDocumentTexts),
  form4: projectionOf(TOPICS.form4, projectForm4Filings),
  tenkSections: projectionOf(TOPICS.tenkSections, projectTenkSections),
  thirteenFHoldings: projectionOf(TOPICS.thirteenFHoldings, projectThirteenFHoldings),
  thirteenFSecurities: projectionOf(TOPICS.thirteenFSecurities, projectThirteenFSecurities),
  xbrlFacts: projectionOf(TOPICS.xbrlFacts, projectXbrlFacts),
};

/** The batch projection of each record schema (the projector's routing table), derived from the registry. */
export const BATCH_PROJECTIONS: Readonly<Record<string, BatchProjection>> = Object.fromEntries(
  topicKeysConsumedBy('projector').flatMap((k) => Object.keys(TOPICS[k].schemas).map((schema) => [schema, TOPIC_PROJECTIONS[k]])),
);

/**
 * Projects records of any schemas in one transaction, schema by schema in order of first
 * appearance, as the projector does with a batch (without the webhook events): for tests, seeds
 * and benches that start from records.
 */
export async function projectRecords(ds: DataSource, envelopes: ReadonlyArray<RecordEnvelope>): Promise<BatchOutcome> {
  const bySchema = new Map<string, RecordEnvelope[]>();
  for (const e of envelopes) {
    if (!BATCH_PROJECTIONS[e.schema]) throw new Error(`no projection for schema ${e.schema}`);
    const group = bySchema.get(e.schema);
    if (group) group.push(e);
    else bySchema.set(e.schema, [e]);
  }
  return ds.transaction(async (m) => {
    const total: BatchOutcome = { inserted: [], updated: [], unchanged: 0 };
    for (const [schema, group] of bySchema) {
      const outcome = await BATCH_PROJECTIONS[schema]!(m, group);
      total.inserted.push(...outcome.inserted);
      total.updated.push(...outcome.updated);
      total.unchanged += outcome.unchanged;
    }
    return total;
  });
}
