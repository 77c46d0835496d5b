import { createHash } from 'node:crypto';
import type { RecordEnvelope } from './envelope.schema';
import type { DocumentTextData } from './issuer-pages.schema';
import { TOPICS, type TopicDefinition } from './topics';

/**
 * The webhook event sources: which record topic makes which event, and the entity an event is
 * about. One event per source entity: the id is derived from the event type and the entity's
 * natural key only (never from the record id or content hash), so re-ingesting or replaying a
 * topic yields the same event id and never a second event.
 */
export interface WebhookEventSource {
  type: 'filing.created' | 'form4.filed' | 'ir_document.created' | 'transcript.published' | '13f.filed';
  topic: TopicDefinition;
  /** The record schema that makes the event. */
  schema: string;
  /** What identifies the entity: the record key (accession, document URL). */
  entity: string;
  /** Only records whose data passes make the event (absent: every record of the schema). */
  when?: (data: unknown) => boolean;
  /**
   * The record announces only an entity it made new (the projection's `inserted`), never a change
   * of one: an IR link listed again by a crawl of a changed page cites the page's new hash, which
   * changes its row but is no news.
   */
  onlyWhenNew?: true;
}

export const WEBHOOK_EVENT_SOURCES: readonly WebhookEventSource[] = [
  { type: 'filing.created', topic: TOPICS.filings, schema: 'filing@1', entity: 'accession number' },
  { type: 'form4.filed', topic: TOPICS.form4, schema: 'form4@1', entity: 'accession number' },
  // Every chunk of a 13F filing is a record of its accession; the projector announces the filing
  // once, when its last chunk makes it complete (an incomplete filing has no summary to send yet).
  { type: '13f.filed', topic: TOPICS.thirteenFHoldings, schema: '13f-holdings@1', entity: 'accession number' },
  // A document is first seen when its link is found on an IR page (or configured); the PDF text
  // arriving later, or the link found again, is the same document and makes no new event.
  { type: 'ir_document.created', topic: TOPICS.issuerDocuments, schema: 'ir-document@1', entity: 'absolute document URL', onlyWhenNew: true },
  // A document's text makes one only when it carries a transcript that passed the serving gate (the
  // projector finds its transcripts row); a new version of the same PDF is the same transcript.
  { type: 'transcript.published', topic: TOPICS.documentTexts, schema: 'document-text@1', entity: 'absolute document URL' },
  // A filing exhibit has no link record: its text captures it (an IR document's text does not: its link did).
  {
    type: 'ir_document.created',
    topic: TOPICS.documentTexts,
    schema: 'document-text@1',
    entity: 'absolute document URL',
    when: (data) => !!(data as DocumentTextData).filing,
  },
];

/** `evt_` + 32 hex: stable for (event type, entity key). */
export function webhookEventId(type: WebhookEventSource['type'], entityKey: string): string {
  return `evt_${createHash('sha256').update(`${type}\n${entityKey}`).digest('hex').slice(0, 32)}`;
}

/** The events a record may make: their types and stable ids (the caller keeps first-seen state). */
export function webhookEventsOf(record: Pick<RecordEnvelope, 'schema' | 'key' | 'data'>): Array<{ type: WebhookEventSource['type']; id: string; onlyWhenNew: boolean }> {
  return WEBHOOK_EVENT_SOURCES.filter((s) => s.schema === record.schema && (!s.when || s.when(record.data))).map((s) => ({
    type: s.type,
    id: webhookEventId(s.type, record.key),
    onlyWhenNew: s.onlyWhenNew === true,
  }));
}
