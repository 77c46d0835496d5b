import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { contentHash, recordId, stableStringify, webhookEventId, type DocumentTextData, type FilingData, type IssuerDocumentData, type RecordEnvelope, type ThirteenFHoldingsData } from '@app/contracts';
import { createDataSource, FilingsRepository, projectDocumentTexts, projectFilings, projectIssuerDocuments, projectThirteenFHoldings } from '@app/persistence';
import { toFiling } from '@app/resources';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { writeWebhookEvents, type ProjectedRecord } from './webhook-events.writer';

const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
const example = JSON.parse(readFileSync(join(EXAMPLES, 'filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;
const TOPIC = 'edgar.filings.v1';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('wh_writer');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_1', 'one', 'builder')`);
  await ds.query(
    `INSERT INTO webhook_endpoints (id, account_id, url, topics, enabled, deleted_at) VALUES
       ('we_sub', 'acct_1', 'https://example.com/a', ARRAY['filing.created', 'form4.filed'], true, NULL),
       ('we_deleted', 'acct_1', 'https://example.com/b', ARRAY['filing.created'], false, now()),
       ('we_disabled', 'acct_1', 'https://example.com/c', ARRAY['filing.created'], false, NULL),
       ('we_other', 'acct_1', 'https://example.com/d', ARRAY['form4.filed', 'ir_document.created'], true, NULL),
       ('we_13f', 'acct_1', 'https://example.com/e', ARRAY['13f.filed'], true, NULL)`,
  );
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

/** A filing record of `accession` at `offset`, produced at `timestamp` (ms). */
function record(accession: string, offset: number, timestamp: number, id = `rec_${accession}_${offset}`): ProjectedRecord {
  const envelope: RecordEnvelope<FilingData> = {
    ...example,
    key: accession,
    id,
    provenance: { ...example.provenance, accession },
    data: { ...example.data, accession, size: (example.data.size ?? 0) + offset },
  };
  return { envelope, meta: { topic: TOPIC, partition: 0, offset: String(offset), timestamp: String(timestamp) } };
}

/** The same record as a backfill published it (history). */
function backfilled(r: ProjectedRecord): ProjectedRecord {
  return { ...r, envelope: { ...r.envelope, origin: 'backfill' } };
}

/** What the projector does with one batch: the rows, then the events of the changed keys, in one transaction. */
async function projectBatch(records: ProjectedRecord[]): Promise<{ events: number; deliveries: number }> {
  return ds.transaction(async (m) => {
    const outcome = await projectFilings(m, records.map((r) => r.envelope as RecordEnvelope<FilingData>));
    return writeWebhookEvents(m, records, outcome);
  });
}

interface EventRow {
  id: string;
  type: string;
  entity_key: string;
  data: unknown;
  source_topic: string;
  source_record_id: string;
  source_produced_at: Date;
}

const eventsOf = async (key: string): Promise<EventRow[]> =>
  ds.query<EventRow[]>(`SELECT id, type, entity_key, data, source_topic, source_record_id, source_produced_at FROM webhook_events WHERE entity_key = $1`, [key]);
const deliveriesOf = async (eventId: string): Promise<Array<{ endpoint_id: string; status: string; due: boolean }>> =>
  ds.query(`SELECT endpoint_id, status, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id`, [eventId]);

describe('writeWebhookEvents', () => {
  it('makes one filing.created event per new filing, with the data the API serves, and one delivery per subscribed enabled endpoint', async () => {
    const accession = '0000950170-25-900001';
    const produced = Date.parse('2026-11-24T10:00:00.000Z');
    // Two records of the key in the batch: the last one is the event's source.
    const batch = [record(accession, 4, produced - 1000), record(accession, 5, produced)];
    expect(await projectBatch(batch)).toEqual({ events: 1, deliveries: 1, freshness: [] });

    const row = await new FilingsRepository(ds).findByAccession(accession);
    const events = await eventsOf(accession);
    expect(events).toEqual([
      {
        id: webhookEventId('filing.created', accession),
        type: 'filing.created',
        entity_key: accession,
        data: JSON.parse(JSON.stringify(toFiling(row!))) as unknown,
        source_topic: TOPIC,
        source_record_id: batch[1]!.envelope.id,
        source_produced_at: new Date(produced),
      },
    ]);
    expect((events[0]!.data as { size: number }).size).toBe((batch[1]!.envelope.data as FilingData).size);
    // None for the deleted, the disabled, or the endpoint subscribed to other types.
    expect(await deliveriesOf(events[0]!.id)).toEqual([{ endpoint_id: 'we_sub', status: 'pending', due: true }]);
  });

  it('makes nothing more when the batch comes again (replay), nor for an update of an announced filing', async () => {
    const accession = '0000950170-25-900002';
    const batch = [record(accession, 7, Date.now())];
    expect(await projectBatch(batch)).toEqual({ events: 1, deliveries: 1, freshness: [] });
    // The same records again: the rows are unchanged, nothing is written.
    expect(await projectBatch(batch)).toEqual({ events: 0, deliveries: 0, freshness: [] });
    // A changed row of the same filing: its event exists already (same id), nothing new.
    const changed = [record(accession, 8, Date.now(), 'rec_changed')];
    expect(await projectBatch(changed)).toEqual({ events: 0, deliveries: 0, freshness: [] });
    const events = await eventsOf(accession);
    expect(events.map((e) => e.source_record_id)).toEqual([batch[0]!.envelope.id]);
    expect(await deliveriesOf(events[0]!.id)).toHaveLength(1);
  });

  it('makes no event for a backfilled record, a key whose row is missing, or a schema that makes none', async () => {
    const accession = '0000950170-25-900003';
    const batch = [backfilled(record(accession, 1, Date.now()))];
    await ds.transaction(async (m) => {
      const outcome = await projectFilings(m, batch.map((r) => r.envelope as RecordEnvelope<FilingData>));
      expect(outcome.inserted).toEqual([accession]);
      // History is not news: a new row, no event.
      expect(await writeWebhookEvents(m, batch, outcome)).toEqual({ events: 0, deliveries: 0, freshness: [] });
      // Changed, but no row (nothing to announce).
      const missing = '0000950170-25-999999';
      expect(await writeWebhookEvents(m, [record(missing, 1, Date.now())], { inserted: [missing], updated: [], unchanged: 0 })).toEqual({ events: 0, deliveries: 0, freshness: [] });
      // A company record makes no event.
      const company = { ...batch[0]!, envelope: { ...batch[0]!.envelope, origin: 'live' as const, schema: 'company@1' } };
      expect(await writeWebhookEvents(m, [company], outcome)).toEqual({ events: 0, deliveries: 0, freshness: [] });
    });
    expect(await eventsOf(accession)).toEqual([]);
  });

  it('announces once a filing a backfill loaded first and live discovery then finds unchanged', async () => {
    const accession = '0000950170-25-900005';
    const produced = Date.now();
    expect(await projectBatch([backfilled(record(accession, 1, produced))])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    // The live poller finds the same filing: the row does not change, the entity is still announced, from the live record.
    const live = record(accession, 1, produced, 'rec_live_sighting');
    expect(await projectBatch([live])).toEqual({ events: 1, deliveries: 1, freshness: [] });
    const events = await eventsOf(accession);
    expect(events.map((e) => e.source_record_id)).toEqual(['rec_live_sighting']);
    expect(events[0]!.data).toEqual(JSON.parse(JSON.stringify(toFiling((await new FilingsRepository(ds).findByAccession(accession))!))));
    // Seen live again (a rewound group): announced already, nothing more.
    expect(await projectBatch([live])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(accession)).toHaveLength(1);
  });

  it("writes in the caller's transaction: rolled back with it", async () => {
    const accession = '0000950170-25-900004';
    await expect(
      ds.transaction(async (m) => {
        const outcome = await projectFilings(m, [record(accession, 1, Date.now()).envelope as RecordEnvelope<FilingData>]);
        expect(await writeWebhookEvents(m, [record(accession, 1, Date.now())], outcome)).toEqual({ events: 1, deliveries: 1, freshness: [] });
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    expect(await eventsOf(accession)).toEqual([]);
    expect(await new FilingsRepository(ds).findByAccession(accession)).toBeNull();
  });
});

describe('13f.filed', () => {
  /** ACTIAM's 13F-HR (the example record) cut in two chunks: rows 0-2 and 3-4. */
  const actiam = JSON.parse(readFileSync(join(EXAMPLES, '13f-holdings@1.actiam-2020q4.json'), 'utf8')) as RecordEnvelope<ThirteenFHoldingsData>;
  const chunk = (index: number, offset: number): ProjectedRecord => ({
    envelope: {
      ...actiam,
      data: { ...actiam.data, chunk: { index, count: 2, holdings_total: 5 }, holdings: index === 0 ? actiam.data.holdings.slice(0, 3) : actiam.data.holdings.slice(3) },
    },
    meta: { topic: 'edgar.13f-holdings.v1', partition: 0, offset: String(offset), timestamp: String(Date.parse('2026-11-24T10:00:00.000Z')) },
  });
  const projectChunks = (records: ProjectedRecord[]) =>
    ds.transaction(async (m) => writeWebhookEvents(m, records, await projectThirteenFHoldings(m, records.map((r) => r.envelope as RecordEnvelope<ThirteenFHoldingsData>))));

  it('announces a filing once, when its last chunk completes it, with the filing summary', async () => {
    expect(await projectChunks([chunk(0, 1)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(actiam.key)).toEqual([]);
    expect(await projectChunks([chunk(1, 2)])).toEqual({ events: 1, deliveries: 1, freshness: [] });
    const [event] = await eventsOf(actiam.key);
    expect(event).toMatchObject({ id: webhookEventId('13f.filed', actiam.key), type: '13f.filed', source_topic: 'edgar.13f-holdings.v1' });
    expect(event!.data).toEqual({
      accession: '0001619124-21-000002',
      form: '13F-HR',
      manager: { cik: '0001619124', name: 'ACTIAM N.V.' },
      quarter: '2020Q4',
      period: '2020-12-31',
      report_type: 'holdings',
      amendment: null,
      holdings_count: 5,
      value_usd_total: 732158000,
      value_unit: 'thousands',
      unit_flag: null,
      filed_date: '2021-02-12',
      superseded_by: null,
      provenance: actiam.provenance,
    });
    expect(await deliveriesOf(event!.id)).toEqual([{ endpoint_id: 'we_13f', status: 'pending', due: true }]);
    // Redelivered chunks (and the whole filing again) announce nothing more.
    expect(await projectChunks([chunk(0, 3), chunk(1, 4)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(actiam.key)).toHaveLength(1);
  });
});

describe('ir_document.created', () => {
  /** FRPH's September 2017 presentation as ingest-ir publishes it (the example record), and the 2015 annual meeting deck's text. */
  const link = JSON.parse(readFileSync(join(EXAMPLES, 'ir-document@1.frph-presentation.json'), 'utf8')) as RecordEnvelope<IssuerDocumentData>;
  const deckText = JSON.parse(readFileSync(join(EXAMPLES, 'document-text@1.frph-2015-presentation.json'), 'utf8')) as RecordEnvelope<DocumentTextData>;
  const TOPIC_LINKS = 'ir.documents.v1';
  const projected = (envelope: RecordEnvelope<IssuerDocumentData>, offset: number): ProjectedRecord => ({
    envelope,
    meta: { topic: TOPIC_LINKS, partition: 0, offset: String(offset), timestamp: String(Date.parse('2026-11-24T10:00:00.000Z') + offset) },
  });
  const projectLinks = (records: ProjectedRecord[]) =>
    ds.transaction(async (m) => writeWebhookEvents(m, records, await projectIssuerDocuments(m, records.map((r) => r.envelope as RecordEnvelope<IssuerDocumentData>))));
  /** The link as a later crawl of its changed page lists it: the same document, citing the page's new hash. */
  const listedAgain = (e: RecordEnvelope<IssuerDocumentData>, pageHash: string, observedAt: string): RecordEnvelope<IssuerDocumentData> => {
    const data = { ...e.data, citation: { ...e.data.citation!, content_hash: pageHash } };
    return { ...e, id: recordId(e.key, contentHash(stableStringify(data))), observed_at: observedAt, origin: 'live', provenance: { ...e.provenance, content_hash: pageHash }, data };
  };

  it("announces none of the links a site's first crawl found when a later crawl lists them again, changed", async () => {
    expect(await projectLinks([projected({ ...link, origin: 'backfill' }, 1)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    const again = listedAgain(link, `sha256:${'1'.repeat(64)}`, '2026-11-24T09:00:00.000Z');
    const written = await ds.transaction(async (m) => {
      const outcome = await projectIssuerDocuments(m, [again]);
      // The row changed (the citation's hash) ...
      expect(outcome).toEqual({ inserted: [], updated: [link.key], unchanged: 0 });
      return writeWebhookEvents(m, [projected(again, 2)], outcome);
    });
    // ... but the document is history: no event.
    expect(written).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(link.key)).toEqual([]);
  });

  it("announces none of a site's first-crawl links when its recrawl lands in the same batch", async () => {
    const url = `${link.key}?first-crawl-and-recrawl`;
    const first = { ...link, key: url, origin: 'backfill' as const, data: { ...link.data, url } };
    const again = listedAgain(first, `sha256:${'3'.repeat(64)}`, '2026-11-24T09:00:00.000Z');
    const written = await ds.transaction(async (m) => {
      const outcome = await projectIssuerDocuments(m, [first, again]);
      // The backfill record made the link (inserted), the live one changed it: history still.
      expect(outcome.inserted).toEqual([url]);
      return writeWebhookEvents(m, [projected(first, 5), projected(again, 6)], outcome);
    });
    expect(written).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(url)).toEqual([]);
  });

  it('announces a live link whose document only its text had made (the text was projected first), once', async () => {
    const url = deckText.key;
    await ds.transaction((m) => projectDocumentTexts(m, [deckText]));
    const first = listedAgain({ ...link, key: url, data: { ...link.data, url } }, link.data.citation!.content_hash, '2026-11-24T09:00:00.000Z');
    expect(await projectLinks([projected(first, 3)])).toEqual({ events: 1, deliveries: 1, freshness: [] });
    expect((await eventsOf(url)).map((e) => [e.id, e.type, e.source_record_id])).toEqual([[webhookEventId('ir_document.created', url), 'ir_document.created', first.id]]);
    // Listed again on a changed page: an update, nothing more.
    expect(await projectLinks([projected(listedAgain(first, `sha256:${'2'.repeat(64)}`, '2026-11-25T09:00:00.000Z'), 4)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(url)).toHaveLength(1);
  });
});
