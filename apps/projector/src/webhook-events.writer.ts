import type { EntityManager } from 'typeorm';
import { webhookEventsOf, type RecordEnvelope } from '@app/contracts';
import { messageProducedAt, type MessageMeta } from '@app/messaging';
import {
  documentsByUrls,
  filingsByAccessions,
  form4FilingsByAccessions,
  insiderTransactionsByAccessions,
  thirteenFFilingsByAccessions,
  transcriptsByUrls,
  WebhookEventsRepository,
  type BatchOutcome,
  type InsertedEvents,
  type InsiderTransactionRecord,
  type NewWebhookEvent,
} from '@app/persistence';
import { toDocumentDetail, toFiling, toForm4Filing, toThirteenFFiling, toTranscriptDetail } from '@app/resources';

export interface ProjectedRecord {
  envelope: RecordEnvelope;
  meta: MessageMeta;
}

type EventType = ReturnType<typeof webhookEventsOf>[number]['type'];

/**
 * Events whose live records only ever name new entities (the live poller's filings and what the
 * followers read of them): one found unchanged was loaded by a backfill first and is still news. A
 * crawl lists a site's old documents again on every change, and the decks follower reads them
 * again after a restart: unchanged, those are history.
 */
const ANNOUNCED_WHEN_FOUND_UNCHANGED: ReadonlySet<EventType> = new Set(['filing.created', 'form4.filed', '13f.filed']);

/** What an event is made from: its id and type, and the last record of its key in the batch. */
interface Pending {
  id: string;
  type: EventType;
  /** The source announces only what its record made new (WebhookEventSource.onlyWhenNew). */
  onlyWhenNew: boolean;
  key: string;
  record: ProjectedRecord;
}

/**
 * In the caller's transaction: one event per entity a live record names (history is not news:
 * backfilled records make none), for each schema that makes an event (webhookEventsOf from
 * @app/contracts), with data exactly as the API serves the resource, and its deliveries. A live
 * record makes its event when its row is new or changed (a source marked onlyWhenNew, the IR link:
 * when a live record made it new), and also, for filings, Form 4s and 13Fs, when it changed nothing
 * but the entity has no event yet (a backfill wrote the row first: live discovery still announces it).
 * Resources are read by their slices' write-side reads on the transaction's manager (so they see
 * the rows just written), one query per resource kind. The events go in with one statement, which
 * inserts nothing for an event id that exists (a replay, or an update of an entity already
 * announced). A key whose row is not there (nothing to announce) makes no event: a document text
 * without a transcript that passed the gate has no transcripts row, so makes no transcript.published.
 */
export async function writeWebhookEvents(
  m: EntityManager,
  records: ReadonlyArray<ProjectedRecord>,
  outcome: BatchOutcome,
): Promise<InsertedEvents> {
  // Last live record of each key wins (records come in offset order): its topic, id and timestamp are the event's source.
  const byKey = new Map<string, Pending>();
  for (const record of records) {
    const { envelope } = record;
    // Absent on records made before origin existed: those read as live, as the schema's default says.
    if (envelope.origin === 'backfill') continue;
    for (const event of webhookEventsOf(envelope)) byKey.set(`${event.type}\n${envelope.key}`, { ...event, key: envelope.key, record });
  }
  if (byKey.size === 0) return { events: 0, deliveries: 0, freshness: [] };
  const changedKeys = new Set([...outcome.inserted, ...outcome.updated]);
  const madeNewLive = [...byKey.values()].some((p) => p.onlyWhenNew) ? keysMadeNewLive(records, outcome) : new Set<string>();
  const repository = new WebhookEventsRepository(m);
  // An unchanged entity makes its event only when its source lists nothing but new entities and it has none yet: one lookup.
  const unchanged = [...byKey.values()].filter((p) => !changedKeys.has(p.key) && ANNOUNCED_WHEN_FOUND_UNCHANGED.has(p.type));
  const announced = await repository.existingIds(unchanged.map((p) => p.id));
  const isNews = (p: Pending): boolean => (p.onlyWhenNew ? madeNewLive.has(p.key) : changedKeys.has(p.key));
  const pending = [...byKey.values()].filter((p) => isNews(p) || (ANNOUNCED_WHEN_FOUND_UNCHANGED.has(p.type) && !announced.has(p.id)));
  if (pending.length === 0) return { events: 0, deliveries: 0, freshness: [] };
  const keysOf = (type: EventType): string[] => pending.filter((p) => p.type === type).map((p) => p.key);
  const data = await resources(m, {
    filings: keysOf('filing.created'),
    form4: keysOf('form4.filed'),
    documents: keysOf('ir_document.created'),
    transcripts: keysOf('transcript.published'),
    thirteenF: keysOf('13f.filed'),
  });

  const events: NewWebhookEvent[] = [];
  for (const p of pending) {
    const resource = data[p.type].get(p.key);
    if (resource === undefined) continue;
    events.push({
      id: p.id,
      type: p.type,
      entityKey: p.key,
      data: resource,
      sourceTopic: p.record.meta.topic,
      sourceRecordId: p.record.envelope.id,
      sourceProducedAt: messageProducedAt(p.record.meta),
    });
  }
  return repository.insertEvents(events);
}

/** The API's resources by entity key, read in bulk on the transaction's manager. */
async function resources(
  m: EntityManager,
  keys: { filings: string[]; form4: string[]; documents: string[]; transcripts: string[]; thirteenF: string[] },
): Promise<Record<EventType, Map<string, unknown>>> {
  // One after the other: they share the transaction's one connection.
  const filings = await filingsByAccessions(m, keys.filings);
  const form4Filings = await form4FilingsByAccessions(m, keys.form4);
  const form4Rows = form4Filings.length ? await insiderTransactionsByAccessions(m, keys.form4) : [];
  const documents = await documentsByUrls(m, keys.documents);
  const transcripts = await transcriptsByUrls(m, keys.transcripts);
  // Complete filings only: a chunk that leaves its filing incomplete announces nothing yet.
  const thirteenF = await thirteenFFilingsByAccessions(m, keys.thirteenF);
  const rowsByAccession = new Map<string, InsiderTransactionRecord[]>();
  for (const row of form4Rows) {
    const rows = rowsByAccession.get(row.accession);
    if (rows) rows.push(row);
    else rowsByAccession.set(row.accession, [row]);
  }
  return {
    // An 8-K is announced once its items are known (the 8-K worker reads them from the submission),
    // so filing.created always carries them: while null, the filing makes no event yet.
    'filing.created': new Map(filings.filter((f) => f.items !== null).map((f) => [f.accession, toFiling(f)])),
    'form4.filed': new Map(form4Filings.map((f) => [f.accession, toForm4Filing(f, rowsByAccession.get(f.accession) ?? [])])),
    'ir_document.created': new Map(documents.map((d) => [d.url, toDocumentDetail(d)])),
    'transcript.published': new Map(transcripts.map((t) => [t.url, toTranscriptDetail(t)])),
    '13f.filed': new Map(thirteenF.map((f) => [f.accession, toThirteenFFiling(f)])),
  };
}

/**
 * The keys a live record made new: inserted, and the first record of the key in the batch is live
 * (a site's first crawl and its recrawl can land in one batch: then the backfill record made the link).
 */
function keysMadeNewLive(records: ReadonlyArray<ProjectedRecord>, outcome: BatchOutcome): Set<string> {
  const inserted = new Set(outcome.inserted);
  const firstOfKey = new Map<string, ProjectedRecord>();
  for (const record of records) if (!firstOfKey.has(record.envelope.key)) firstOfKey.set(record.envelope.key, record);
  return new Set([...firstOfKey].filter(([key, first]) => inserted.has(key) && first.envelope.origin !== 'backfill').map(([key]) => key));
}
