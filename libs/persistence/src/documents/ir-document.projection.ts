import type { EntityManager } from 'typeorm';
import { documentSubject, type DocGroup, type DocType, type DocumentKind, type IssuerDocumentData, type RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { lockKeys, OutcomeTally, type RecordOutcome } from '../projections/batch-reduction';
import { citationSrcId } from '../projections/issuer-citation';
import { addDocumentAlias, documentIssuerLock, exhibitMatching, resolveDocument } from './document-sources';

/**
 * The doc type and group a link's kind implies, used until the PDF's own classification (from
 * document-text@1) arrives and takes over.
 */
export const DOC_TYPE_OF_KIND: Record<DocumentKind, { docType: DocType; docGroup: DocGroup }> = {
  presentation: { docType: 'slide_deck', docGroup: 'slide_deck' },
  press_release: { docType: 'press_release', docGroup: 'press_release' },
  annual_report: { docType: 'annual_report', docGroup: 'report' },
  quarterly_report: { docType: 'quarterly_report', docGroup: 'report' },
  proxy_statement: { docType: 'proxy_statement', docGroup: 'report' },
  webcast: { docType: 'other', docGroup: 'other' },
  // A transcript is served as one only once its text passed the gate (document-text@1 doc_type).
  transcript: { docType: 'other', docGroup: 'other' },
  other: { docType: 'other', docGroup: 'other' },
};

const UPSERT_EVENT_SQL = `
  INSERT INTO ir_events (cik, event_key, title, event_date, updated_at) VALUES ($1, $2, $3, $4::date, now())
  ON CONFLICT (event_key) DO UPDATE SET cik = EXCLUDED.cik, title = EXCLUDED.title, event_date = EXCLUDED.event_date, updated_at = now()
  WHERE (ir_events.cik, ir_events.title, ir_events.event_date) IS DISTINCT FROM (EXCLUDED.cik, EXCLUDED.title, EXCLUDED.event_date)`;

/*
 * The link's columns only: the text's columns (page count, language, text_*, pdf_*) are left as
 * they are, and the doc type derived from the kind only fills in while no text has arrived.
 * sort_at is the page's date, else the PDF's creation date, else the first sighting.
 */
const UPSERT_DOCUMENT_SQL = `
  INSERT INTO documents (url, cik, ticker, title, kind, doc_type, doc_group, is_pdf, published_at, sort_at,
    published_at_source, event_id, found_on, link_quote, link_content_hash, link_src_id, link_extracted_at,
    link_record_id, link_observed_at, first_seen_at, updated_at, subject, link_url)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamptz, coalesce($9::timestamptz, $17::timestamptz),
    CASE WHEN $9::timestamptz IS NULL THEN 'first_seen' ELSE 'ir_page' END, $10, $11, $12, $13, $14, $15::timestamptz,
    $16, $17::timestamptz, $17::timestamptz, now(), $18, $19)
  ON CONFLICT (url) DO UPDATE SET
    cik = EXCLUDED.cik,
    ticker = coalesce(EXCLUDED.ticker, documents.ticker),
    title = EXCLUDED.title,
    kind = EXCLUDED.kind,
    doc_type = CASE WHEN documents.text_content_hash IS NULL THEN EXCLUDED.doc_type ELSE documents.doc_type END,
    doc_group = CASE WHEN documents.text_content_hash IS NULL THEN EXCLUDED.doc_group ELSE documents.doc_group END,
    subject = CASE WHEN documents.text_content_hash IS NULL THEN EXCLUDED.subject ELSE coalesce(documents.subject, EXCLUDED.subject) END,
    is_pdf = EXCLUDED.is_pdf,
    first_seen_at = least(documents.first_seen_at, EXCLUDED.first_seen_at),
    -- A document also filed as an exhibit is dated by its filing's acceptance, whichever source came first.
    published_at = CASE WHEN documents.filing_url IS NOT NULL THEN documents.published_at ELSE EXCLUDED.published_at END,
    sort_at = CASE WHEN documents.filing_url IS NOT NULL THEN documents.sort_at
      ELSE coalesce(EXCLUDED.published_at, documents.pdf_created_at, least(documents.first_seen_at, EXCLUDED.first_seen_at)) END,
    published_at_source = CASE WHEN documents.filing_url IS NOT NULL THEN documents.published_at_source
      WHEN EXCLUDED.published_at IS NOT NULL THEN 'ir_page' WHEN documents.pdf_created_at IS NOT NULL THEN 'pdf_metadata' ELSE 'first_seen' END,
    -- A filed document's event is its filing's.
    event_id = CASE WHEN documents.filing_url IS NOT NULL THEN documents.event_id ELSE EXCLUDED.event_id END,
    found_on = EXCLUDED.found_on,
    link_quote = EXCLUDED.link_quote,
    link_content_hash = EXCLUDED.link_content_hash,
    link_src_id = EXCLUDED.link_src_id,
    link_extracted_at = EXCLUDED.link_extracted_at,
    link_record_id = EXCLUDED.link_record_id,
    link_observed_at = EXCLUDED.link_observed_at,
    link_url = EXCLUDED.link_url,
    updated_at = now()
  RETURNING (xmax = 0) AS inserted`;

/** The per-URL advisory lock key the link and text projections share. */
export const documentLock = (url: string): string => `documents:${url}`;

/**
 * Applies one ir-document@1 record (a link on an issuer's IR page) onto the document of its URL,
 * creating the row when the text has not arrived, and upserts its IR event. A link first seen that
 * is a filing exhibit already held (document-sources.ts) applies to the exhibit's row, its URL an
 * alias of it. The same record twice, or one older than the link already applied, writes nothing.
 */
async function applyIssuerDocument(m: EntityManager, envelope: RecordEnvelope<IssuerDocumentData>): Promise<RecordOutcome> {
  const d = envelope.data;
  let target = await resolveDocument(m, d.url);
  if (!target && d.published_on) {
    target = await exhibitMatching(m, { cik: d.cik, title: d.title, publishedOn: d.published_on });
    if (target) await addDocumentAlias(m, d.url, target.id);
  }
  const rowUrl = target?.url ?? d.url;
  const current = (
    await m.query<Array<{ link_record_id: string | null; newer: boolean }>>(
      `SELECT link_record_id, coalesce(link_observed_at > $2::timestamptz, false) AS newer FROM documents WHERE url = $1`,
      [rowUrl, envelope.observed_at],
    )
  )[0];
  if (current && (current.link_record_id === envelope.id || current.newer)) return 'unchanged';
  const eventId = d.event ? await upsertEvent(m, d.cik, d.event) : null;
  const { docType, docGroup } = DOC_TYPE_OF_KIND[d.kind];
  const result = await m.query<Array<{ inserted: boolean }>>(UPSERT_DOCUMENT_SQL, [
    rowUrl,
    d.cik,
    d.ticker,
    d.title,
    d.kind,
    docType,
    docGroup,
    d.is_pdf,
    d.published_on ? `${d.published_on}T00:00:00Z` : null,
    eventId,
    d.citation?.source_url ?? null,
    d.citation?.quote ?? null,
    d.citation?.content_hash ?? null,
    d.citation ? citationSrcId(envelope, d.citation) : envelope.provenance.src_id,
    envelope.provenance.extracted_at,
    envelope.id,
    envelope.observed_at,
    documentSubject({ docType, docGroup, title: d.title, items: null }),
    d.url,
  ]);
  // Inserted when the link is new to its document (the row is new, or only its text or its filing
  // made it): the document's first sighting on an IR page, which ir_document.created announces. A
  // later link of it (a crawl of a changed page lists its old links again, citing the new page hash) updates.
  return result[0]?.inserted || !current?.link_record_id ? 'inserted' : 'updated';
}

/**
 * Projects a batch of ir-document@1 records (offset order) in the caller's transaction: the
 * per-URL and per-issuer locks of the whole batch first (shared with the text projection, taken in
 * one ordered statement), then the records one by one. The keys returned are document URLs (ir_document.created),
 * inserted when the link is new to its document, updated when it replaces an earlier link.
 */
export async function projectIssuerDocuments(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<IssuerDocumentData>>): Promise<BatchOutcome> {
  await lockKeys(m, envelopes.flatMap((e) => [documentLock(e.data.url), documentIssuerLock(e.data.cik)]));
  const tally = new OutcomeTally();
  for (const e of envelopes) tally.add(e.key, await applyIssuerDocument(m, e));
  return tally.result();
}

/** Upserts an IR event by its key (an IR page's event, or a filing's) and returns its id. */
export async function upsertEvent(m: EntityManager, cik: string, event: NonNullable<IssuerDocumentData['event']>): Promise<number> {
  await m.query(UPSERT_EVENT_SQL, [cik, event.key, event.title, event.date]);
  const [row] = await m.query<[{ id: number }]>('SELECT id FROM ir_events WHERE event_key = $1', [event.key]);
  return row.id;
}
