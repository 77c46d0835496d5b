import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { contentHash, webhookEventId, type DocumentTextData, type RecordEnvelope } from '@app/contracts';
import { createDataSource, projectDocumentTexts, transcriptsByUrls, TranscriptsRepository } from '@app/persistence';
import { toTranscriptDetail, type TranscriptDetailBody } from '@app/resources';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { writeWebhookEvents, type ProjectedRecord } from './webhook-events.writer';

/*
 * The document-text@1 record ingest-decks makes of the Citigroup Q4 2024 transcript (the committed
 * example, one part) and of the FRPH annual meeting deck: the transcripts row, the
 * transcript.published event in the same transaction, and nothing twice.
 */
const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
const CITI = JSON.parse(readFileSync(join(EXAMPLES, 'document-text@1.citi-4q2024-transcript.json'), 'utf8')) as RecordEnvelope<DocumentTextData>;
const DECK = JSON.parse(readFileSync(join(EXAMPLES, 'document-text@1.frph-2015-presentation.json'), 'utf8')) as RecordEnvelope<DocumentTextData>;
const TOPIC = 'ir.document-texts.v1';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('transcript_events');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_1', 'one', 'builder')`);
  await ds.query(
    `INSERT INTO webhook_endpoints (id, account_id, url, topics, enabled, deleted_at) VALUES
       ('we_transcripts', 'acct_1', 'https://example.com/t', ARRAY['transcript.published'], true, NULL),
       ('we_documents', 'acct_1', 'https://example.com/d', ARRAY['ir_document.created'], true, NULL)`,
  );
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const projected = (envelope: RecordEnvelope<DocumentTextData>, offset: number): ProjectedRecord => ({
  envelope,
  meta: { topic: TOPIC, partition: 0, offset: String(offset), timestamp: String(Date.parse('2026-11-24T10:00:00.000Z') + offset) },
});

/** What the projector does with one batch of the topic: rows, then events, one transaction. */
async function projectBatch(records: ProjectedRecord[]): Promise<{ events: number; deliveries: number }> {
  return ds.transaction(async (m) => {
    const outcome = await projectDocumentTexts(m, records.map((r) => r.envelope as RecordEnvelope<DocumentTextData>));
    if (outcome.inserted.length + outcome.updated.length === 0) return { events: 0, deliveries: 0, freshness: [] };
    return writeWebhookEvents(m, records, outcome);
  });
}

const eventsOf = async (key: string): Promise<Array<{ id: string; type: string; data: TranscriptDetailBody; source_record_id: string }>> =>
  ds.query(`SELECT id, type, data, source_record_id FROM webhook_events WHERE entity_key = $1 ORDER BY type`, [key]);

describe('transcripts: projection and transcript.published', () => {
  it('writes the transcript and its event (data as the API serves it) in the batch that brings its text', async () => {
    expect(await projectBatch([projected(CITI, 1)])).toEqual({ events: 1, deliveries: 1, freshness: [] });
    const [row] = await transcriptsByUrls(ds, [CITI.key]);
    expect(row).toMatchObject({ cik: '0000831001', ticker: 'C', callDate: '2025-01-15', company: 'Citi', turnCount: 59, contentHash: CITI.provenance.content_hash });
    const detail = toTranscriptDetail(row!);
    expect(detail.sections).toEqual({ presentation: 4, qa: 55 });
    expect(detail.participants).toHaveLength(13);
    // The document text rebuilt from document_pages is the one the offsets were made on.
    const text = CITI.data.pages.map((p) => p.text).join(CITI.data.page_separator);
    expect(row!.documentText).toBe(text);
    for (const turn of detail.turns) expect(turn.text).toBe(text.slice(turn.char_start, turn.char_end));
    expect(detail.turns[0]).toMatchObject({ speaker: 'Operator', section: 'presentation', page_index: 0, citation_url: `${CITI.key}#page=1` });
    expect(detail.turns[0]!.text).toMatch(/^Hello and welcome to Citi's Fourth Quarter 2024 Earnings Call\./);

    const events = await eventsOf(CITI.key);
    expect(events.map((e) => [e.id, e.type, e.source_record_id])).toEqual([[webhookEventId('transcript.published', CITI.key), 'transcript.published', CITI.id]]);
    expect(events[0]!.data).toEqual(JSON.parse(JSON.stringify(detail)));
    const deliveries = await ds.query<Array<{ endpoint_id: string }>>(`SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1`, [events[0]!.id]);
    expect(deliveries).toEqual([{ endpoint_id: 'we_transcripts' }]);
    // The document row is typed transcript, with no gate reason.
    const [doc] = await ds.query<Array<{ doc_type: string; doc_group: string; transcript_gate: string | null }>>(`SELECT doc_type, doc_group, transcript_gate FROM documents WHERE url = $1`, [CITI.key]);
    expect(doc).toEqual({ doc_type: 'transcript', doc_group: 'transcript', transcript_gate: null });
  });

  const transcriptRows = async (): Promise<Array<{ id: number; content_hash: string; record_id: string }>> =>
    ds.query(`SELECT id, content_hash, record_id FROM transcripts WHERE url = $1`, [CITI.key]);

  it('makes no second event on a replay, nor for a new version of the same PDF, which replaces the transcript under the same id', async () => {
    expect(await projectBatch([projected(CITI, 2)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    const [before] = await transcriptRows();
    const [event] = await eventsOf(CITI.key);
    expect(event!.data.id).toBe(before!.id);
    const hash = contentHash(new TextEncoder().encode('another version'));
    const next: RecordEnvelope<DocumentTextData> = {
      ...CITI,
      id: 'rec_citi_v2',
      observed_at: '2026-11-21T09:00:00.000Z',
      provenance: { ...CITI.provenance, content_hash: hash },
    };
    expect(await projectBatch([projected(next, 3)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    // The id the event gave out still names the transcript, now of the new version.
    expect(await transcriptRows()).toEqual([{ id: before!.id, content_hash: hash, record_id: 'rec_citi_v2' }]);
    expect((await new TranscriptsRepository(ds).findById(before!.id))?.contentHash).toBe(hash);
    expect(await eventsOf(CITI.key)).toHaveLength(1);
  });

  it('keeps the id across a new version whose parts land in different batches, and holds the row back in between', async () => {
    const [before] = await transcriptRows();
    const hash = contentHash(new TextEncoder().encode('a version in two parts'));
    const version = (part: number): RecordEnvelope<DocumentTextData> => ({
      ...CITI,
      id: `rec_citi_v2b_${part}`,
      observed_at: '2026-11-21T10:00:00.000Z',
      provenance: { ...CITI.provenance, content_hash: hash },
      data: {
        ...CITI.data,
        part: { index: part, count: 2 },
        pages: part === 0 ? CITI.data.pages.slice(0, 8) : CITI.data.pages.slice(8),
        transcript: part === 0 ? null : CITI.data.transcript,
      },
    });
    const repo = new TranscriptsRepository(ds);
    await projectBatch([projected(version(0), 10)]);
    // Its version's pages are gone: the row stays (same id) but is not served.
    expect((await transcriptRows())[0]?.id).toBe(before!.id);
    expect(await repo.findById(before!.id)).toBeNull();
    expect(await transcriptsByUrls(ds, [CITI.key])).toEqual([]);
    expect((await repo.list({}, { direction: 'desc', limit: 10 })).rows).toEqual([]);
    expect(await projectBatch([projected(version(1), 11)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await transcriptRows()).toEqual([{ id: before!.id, content_hash: hash, record_id: 'rec_citi_v2b_1' }]);
    const served = await repo.findById(before!.id);
    expect(served?.documentText).toBe(CITI.data.pages.map((p) => p.text).join(CITI.data.page_separator));
    expect(await eventsOf(CITI.key)).toHaveLength(1);
  });

  it('drops the transcript when a new version of the PDF is no transcript, and makes no event for a deck', async () => {
    const deckOfSameUrl: RecordEnvelope<DocumentTextData> = {
      ...DECK,
      key: CITI.key,
      id: 'rec_citi_v3',
      observed_at: '2026-11-22T09:00:00.000Z',
      data: { ...DECK.data, url: CITI.key, part: { index: 0, count: 1 } },
    };
    await projectBatch([projected(deckOfSameUrl, 4)]);
    expect(await ds.query(`SELECT 1 FROM transcripts WHERE url = $1`, [CITI.key])).toEqual([]);
    expect(await projectBatch([projected(DECK, 5)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(DECK.key)).toEqual([]);
  });

  it('keeps why a document that looks like a transcript was not served', async () => {
    const gated: RecordEnvelope<DocumentTextData> = {
      ...DECK,
      key: 'http://ir.example.com/q3-call-transcript.pdf',
      id: 'rec_gated',
      data: { ...DECK.data, url: 'http://ir.example.com/q3-call-transcript.pdf', part: { index: 0, count: 1 }, transcript_gate: 'no speaker turns found' },
    };
    await projectBatch([projected(gated, 6)]);
    const [doc] = await ds.query<Array<{ doc_type: string; transcript_gate: string | null }>>(`SELECT doc_type, transcript_gate FROM documents WHERE url = $1`, [gated.key]);
    expect(doc).toEqual({ doc_type: 'slide_deck', transcript_gate: 'no speaker turns found' });
    expect(await eventsOf(gated.key)).toEqual([]);
  });
  it('makes no event for an old transcript read again live (a crawl lists old links again; the decks follower restarted)', async () => {
    const url = 'http://ir.citigroup.example/transcripts/history-copy.pdf';
    const loaded: RecordEnvelope<DocumentTextData> = { ...CITI, key: url, id: 'rec_history_copy', origin: 'backfill', data: { ...CITI.data, url } };
    // The first crawl's record: history, a transcripts row and no event.
    expect(await projectBatch([projected(loaded, 7)])).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await ds.query(`SELECT 1 AS one FROM transcripts WHERE url = $1`, [url])).toEqual([{ one: 1 }]);
    // The same text again from a live record: nothing changed, nothing announced.
    const again = projected({ ...loaded, origin: 'live' }, 8);
    const written = await ds.transaction(async (m) => writeWebhookEvents(m, [again], await projectDocumentTexts(m, [again.envelope as RecordEnvelope<DocumentTextData>])));
    expect(written).toEqual({ events: 0, deliveries: 0, freshness: [] });
    expect(await eventsOf(url)).toEqual([]);
  });
});
