import type { z } from 'zod';
import { companyRecordV1 } from './company.schema';
import { segmentRecordV1 } from './segment.schema';
import { fundHoldingsRecordV1 } from './fund-holdings.schema';
import { filingRecordV1 } from './filing.schema';
import { companyDescriptionRecordV1, documentTextRecordV1, issuerDocumentRecordV1, issuerRosterRecordV1 } from './issuer-pages.schema';
import { form4RecordV1, type Form4Data } from './form4.schema';
import { tenkSectionRecordV1, type TenkSectionData } from './tenk-section.schema';
import { irSiteRecordV1 } from './ir-site.schema';
import { thirteenFHoldingsRecordV1, thirteenFSecuritiesRecordV1, type ThirteenFHoldingsData } from './thirteenf.schema';
import { xbrlFactsRecordV1, type XbrlFactsData } from './xbrl-facts.schema';
import type { RecordEnvelope } from './envelope.schema';
import { webhookEventRecordV1 } from './webhook-event.schema';

/**
 * The topic registry: every topic with its key, producers, consumers, schema versions and
 * dead-letter topic. Producers and consumers take topics from here, never from string literals.
 */
export interface TopicDefinition {
  name: string;
  dlq: string;
  key: string;
  producers: readonly string[];
  consumers: readonly string[];
  compacted: boolean;
  partitions: number;
  /**
   * What chooses a record's partition, when not its key: records that share it stay in one
   * partition, in order (the producer sends it as the `partition-key` header and hashes it as
   * Kafka hashes keys). Compaction still goes by the key.
   */
  partitionBy?: (record: RecordEnvelope) => string;
  /** schema id (`<type>@<version>`) -> envelope schema; consumers accept every listed version. */
  schemas: Readonly<Record<string, z.ZodType>>;
}

/** Keeps the literal consumers and schemas in the type: the projector's topics and projections are derived from them. */
function topic<const C extends readonly string[], S extends Readonly<Record<string, z.ZodType>>>(
  def: Omit<TopicDefinition, 'dlq' | 'consumers' | 'schemas'> & { consumers: C; schemas: S },
): Omit<TopicDefinition, 'consumers' | 'schemas'> & { consumers: C; schemas: S } {
  return { ...def, dlq: `${def.name}.dlq` };
}

export const TOPICS = {
  companies: topic({
    name: 'edgar.companies.v1',
    key: 'symbol <TICKER>:<MARKET>',
    producers: ['ingest-sec'],
    consumers: ['projector', 'ingest-ir'],
    compacted: true,
    partitions: 3,
    schemas: { 'company@1': companyRecordV1 },
  }),
  filings: topic({
    name: 'edgar.filings.v1',
    key: 'accession number (0000950170-25-100235)',
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: false,
    partitions: 3,
    schemas: { 'filing@1': filingRecordV1 },
  }),
  fundHoldings: topic({
    name: 'edgar.fund-holdings.v1',
    // One filing is split into records of at most FUND_HOLDINGS_PER_RECORD holdings (Kafka's 1 MB
    // message limit); all chunks of a fund share its key, so they stay ordered in one partition.
    key: 'fund key: series id (S000013795) or CIK<10 digits> for a registrant without series',
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: false,
    partitions: 3,
    schemas: { 'fund-holdings@1': fundHoldingsRecordV1 },
  }),
  segments: topic({
    name: 'edgar.segments.v1',
    key: '<accession>|<concept>|<axis>=<member>|<start date or empty>..<end date>: one fact of one filing',
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'segment@1': segmentRecordV1 },
  }),
  issuerRoster: topic({
    name: 'ir.roster.v1',
    key: '<cik>|<category>: the whole roster of one category of one issuer, as its IR site shows it',
    producers: ['ingest-ir'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'ir-roster@1': issuerRosterRecordV1 },
  }),
  issuerDocuments: topic({
    name: 'ir.documents.v1',
    key: 'absolute URL of the document',
    producers: ['ingest-ir'],
    consumers: ['projector', 'ingest-decks'],
    compacted: true,
    partitions: 3,
    schemas: { 'ir-document@1': issuerDocumentRecordV1 },
  }),
  irSites: topic({
    name: 'ir.sites.v1',
    // One record per issuer: the latest outcome of finding and crawling its IR site replaces the last.
    key: 'cik (10 digits)',
    producers: ['ingest-ir'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'ir-site@1': irSiteRecordV1 },
  }),
  companyDescriptions: topic({
    name: 'ir.descriptions.v1',
    key: 'cik (10 digits)',
    producers: ['ingest-ir'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'company-description@1': companyDescriptionRecordV1 },
  }),
  documentTexts: topic({
    name: 'ir.document-texts.v1',
    // A long document is split into parts of whole pages; all parts share the key, so they stay
    // ordered in one partition (not compacted: every part of the latest version must remain).
    key: 'absolute URL of the document (the key of its ir.documents.v1 record; for a filing exhibit, its Archives URL)',
    producers: ['ingest-decks', 'ingest-sec'],
    consumers: ['projector'],
    compacted: false,
    partitions: 3,
    schemas: { 'document-text@1': documentTextRecordV1 },
  }),
  form4: topic({
    name: 'edgar.form4.v1',
    // One record per filing (at most FORM4_MAX_ROWS rows, under Kafka's 1 MB message limit).
    key: 'accession number',
    // By issuer: the projection recomputes amendments and roster entries across an issuer's filings
    // under a per-issuer lock, so an issuer's filings in two partitions would wait on each other.
    partitionBy: (record) => (record.data as Form4Data).issuer.cik,
    producers: ['ingest-form4'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'form4@1': form4RecordV1 },
  }),
  tenkSections: topic({
    name: 'edgar.tenk-sections.v1',
    // One record per item of a 10-K (each under Kafka's 1 MB message limit: a section longer than
    // the extractor's bound is failed, without text). Compacted by key; every filing's records stay.
    key: '<accession>|<item>',
    // By issuer: the projection keeps the newest 10-K's sections and description per issuer.
    partitionBy: (record) => (record.data as TenkSectionData).cik,
    producers: ['ingest-sec'],
    consumers: ['projector', 'ingest-ir'],
    compacted: true,
    partitions: 3,
    schemas: { 'tenk-section@1': tenkSectionRecordV1 },
  }),
  thirteenFHoldings: topic({
    name: 'edgar.13f-holdings.v1',
    // One 13F filing is split into records of at most THIRTEENF_HOLDINGS_PER_RECORD holdings; all
    // chunks share the key. Not compacted: every chunk of every filing must remain.
    key: 'accession number',
    // By manager: a restatement replaces the quarter of that manager, so its filings stay in order.
    partitionBy: (record) => (record.data as ThirteenFHoldingsData).manager.cik,
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: false,
    partitions: 3,
    schemas: { '13f-holdings@1': thirteenFHoldingsRecordV1 },
  }),
  thirteenFSecurities: topic({
    name: 'edgar.13f-securities.v1',
    key: '<quarter>|<chunk index>: one chunk of the Official List of Section 13(f) Securities',
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { '13f-securities@1': thirteenFSecuritiesRecordV1 },
  }),
  xbrlFacts: topic({
    name: 'edgar.xbrl-facts.v1',
    // One record per concept and source (see xbrlFactsKey): a concept's history stays under Kafka's
    // 1 MB message limit. Compacted: the latest company-facts record of a concept replaces the last.
    key: '<cik>|<concept> (company facts) or <accession>|<concept> (a filing\'s inline XBRL)',
    // By filer: both sources write the same fact rows, so a company's records stay in one partition, in order.
    partitionBy: (record) => (record.data as XbrlFactsData).cik,
    producers: ['ingest-sec'],
    consumers: ['projector'],
    compacted: true,
    partitions: 3,
    schemas: { 'xbrl-facts@1': xbrlFactsRecordV1 },
  }),
  webhookEvents: topic({
    name: 'webhooks.events.v1',
    // The event log: the live projector's relay publishes every webhook event it made (the outbox
    // webhook_event_log_pending), and a replay into a fresh database (PROJECTOR_EVENTS=log) inserts
    // them verbatim. Compacted: an event is immutable, one record per id. The live projector never
    // reads it (its consumer is the replay's projector), so it is not among the 'projector' topics.
    key: 'event id (evt_ + 32 hex)',
    producers: ['projector'],
    consumers: ['projector-replay'],
    compacted: true,
    partitions: 3,
    schemas: { 'webhook-event@1': webhookEventRecordV1 },
  }),
} as const satisfies Record<string, TopicDefinition>;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS]['name'];
export const ALL_TOPICS: readonly TopicDefinition[] = Object.values(TOPICS);

/** The registry keys of the topics an app consumes (its name in their `consumers`). */
export type TopicKeyConsumedBy<App extends string> = {
  [K in keyof typeof TOPICS]: App extends (typeof TOPICS)[K]['consumers'][number] ? K : never;
}[keyof typeof TOPICS];

/** The registry keys of the topics an app consumes, in registry order. */
export function topicKeysConsumedBy<App extends string>(app: App): Array<TopicKeyConsumedBy<App>> {
  return (Object.keys(TOPICS) as Array<keyof typeof TOPICS>).filter(
    (k): k is TopicKeyConsumedBy<App> => (TOPICS[k].consumers as readonly string[]).includes(app),
  );
}

/**
 * The same topic under a namespace prefix (`<ns>.<name>`), so test runs and environments sharing
 * one broker never read each other's records. An empty namespace returns the topic unchanged.
 */
export function namespacedTopic(def: TopicDefinition, namespace: string): TopicDefinition {
  if (!namespace) return def;
  const name = `${namespace}.${def.name}`;
  return { ...def, name, dlq: `${name}.dlq` };
}
