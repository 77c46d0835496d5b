import type { EntityManager } from 'typeorm';
import { contentHash, documentSubject, stableStringify, type DocumentFiling, type DocumentTextData, type RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { lockKeys, OutcomeTally, type RecordOutcome } from '../projections/batch-reduction';
import { documentLock, upsertEvent } from './ir-document.projection';
import { addDocumentAlias, documentIssuerLock, irDocumentMatching, resolveDocument } from './document-sources';

/**
 * The PDF version a document-text@1 record belongs to: the sha256 of the PDF bytes ingestion
 * stamped, else (never expected for a fetched PDF) a hash of what describes the version.
 */
export function documentTextVersion(envelope: RecordEnvelope<DocumentTextData>): string {
  const d = envelope.data;
  return envelope.provenance.content_hash ?? contentHash(stableStringify({ url: d.url, pdf: d.pdf, page_count: d.page_count, text_length: d.text_length }));
}

/** The document_pages rows of one part; pure. */
export function documentPageRows(envelope: RecordEnvelope<DocumentTextData>) {
  const version = documentTextVersion(envelope);
  return envelope.data.pages.map((p) => ({
    page_index: p.page_index,
    char_start: p.char_start,
    char_end: p.char_end,
    text: p.text,
    vision_caption: p.vision_caption,
    caption_source: p.caption_source,
    quote: p.quote,
    width: p.width,
    height: p.height,
    content_hash: version,
  }));
}

/*
 * The text's columns: the link's (title, kind, link_*) stay, the text's title filling in only while
 * no link record has arrived. A filing exhibit's text also dates the document (its filing's
 * acceptance, over the IR page's date) and names its filing and event. text_observed_at moves only
 * when the version changes: it dates the version, not the part.
 */
const UPSERT_DOCUMENT_SQL = `
  INSERT INTO documents (url, cik, ticker, title, doc_type, doc_group, language, pdf_created_at, sort_at,
    published_at_source, page_count, page_separator, text_length, text_content_hash, text_source_url, text_quote,
    text_src_id, text_extracted_at, text_record_id, text_observed_at, pdf_bytes, pdf_info, transcript_gate, first_seen_at, updated_at,
    published_at, format, subject, accession, filing, no_text, event_id, text_url, filing_url)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, coalesce($22::timestamptz, $8::timestamptz, $19::timestamptz),
    CASE WHEN $22::timestamptz IS NOT NULL THEN 'filing' WHEN $8::timestamptz IS NULL THEN 'first_seen' ELSE 'pdf_metadata' END,
    $9, $10, $11, $12, $13, $14, $15, $16::timestamptz, $17, $19::timestamptz, $18, $20::jsonb, $21, $19::timestamptz, now(),
    $22::timestamptz, $23, $24, $25, $26::jsonb, $27, $28, $29, $30)
  ON CONFLICT (url) DO UPDATE SET
    ticker = coalesce(documents.ticker, EXCLUDED.ticker),
    title = CASE WHEN documents.link_record_id IS NULL THEN EXCLUDED.title ELSE documents.title END,
    doc_type = EXCLUDED.doc_type,
    doc_group = EXCLUDED.doc_group,
    language = EXCLUDED.language,
    pdf_created_at = EXCLUDED.pdf_created_at,
    first_seen_at = least(documents.first_seen_at, EXCLUDED.first_seen_at),
    published_at = coalesce(EXCLUDED.published_at, documents.published_at),
    sort_at = coalesce(EXCLUDED.published_at, documents.published_at, EXCLUDED.pdf_created_at, least(documents.first_seen_at, EXCLUDED.first_seen_at)),
    published_at_source = CASE WHEN EXCLUDED.published_at IS NOT NULL THEN 'filing' WHEN documents.filing_url IS NOT NULL THEN documents.published_at_source
      WHEN documents.published_at IS NOT NULL THEN 'ir_page' WHEN EXCLUDED.pdf_created_at IS NOT NULL THEN 'pdf_metadata' ELSE 'first_seen' END,
    page_count = EXCLUDED.page_count,
    page_separator = EXCLUDED.page_separator,
    text_length = EXCLUDED.text_length,
    text_content_hash = EXCLUDED.text_content_hash,
    text_source_url = EXCLUDED.text_source_url,
    text_quote = EXCLUDED.text_quote,
    text_src_id = EXCLUDED.text_src_id,
    text_extracted_at = EXCLUDED.text_extracted_at,
    text_record_id = EXCLUDED.text_record_id,
    text_observed_at = CASE WHEN documents.text_content_hash = EXCLUDED.text_content_hash
      THEN documents.text_observed_at ELSE EXCLUDED.text_observed_at END,
    pdf_bytes = EXCLUDED.pdf_bytes,
    pdf_info = EXCLUDED.pdf_info,
    transcript_gate = EXCLUDED.transcript_gate,
    format = EXCLUDED.format,
    subject = coalesce(EXCLUDED.subject, documents.subject),
    accession = coalesce(EXCLUDED.accession, documents.accession),
    filing = coalesce(EXCLUDED.filing, documents.filing),
    no_text = EXCLUDED.no_text,
    event_id = coalesce(EXCLUDED.event_id, documents.event_id),
    text_url = EXCLUDED.text_url,
    filing_url = coalesce(EXCLUDED.filing_url, documents.filing_url),
    updated_at = now()
  WHERE documents.text_record_id IS DISTINCT FROM EXCLUDED.text_record_id
  RETURNING id, (xmax = 0) AS inserted`;

const PAGE_RECORDSET = `page_index integer, char_start integer, char_end integer, text text, vision_caption text,
  caption_source text, quote text, width double precision, height double precision, content_hash text`;
const PAGE_COLUMNS = PAGE_RECORDSET.split(',').map((c) => c.trim().split(/\s+/)[0]!);
const PAGE_VALUE_COLUMNS = PAGE_COLUMNS.filter((c) => c !== 'page_index');

const UPSERT_PAGES_SQL = `
  INSERT INTO document_pages (document_id, ${PAGE_COLUMNS.join(', ')})
  SELECT $1, ${PAGE_COLUMNS.map((c) => `x.${c}`).join(', ')}
  FROM jsonb_to_recordset($2::jsonb) AS x(${PAGE_RECORDSET})
  ON CONFLICT (document_id, page_index) DO UPDATE SET
    ${PAGE_VALUE_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
  WHERE (${PAGE_VALUE_COLUMNS.map((c) => `document_pages.${c}`).join(', ')})
    IS DISTINCT FROM (${PAGE_VALUE_COLUMNS.map((c) => `EXCLUDED.${c}`).join(', ')})
  RETURNING 1`;

interface TextState {
  id: number;
  text_content_hash: string | null;
  older: boolean;
}

/**
 * Applies one part of a document's text (document-text@1), under the per-URL lock the link
 * projection shares. A version (one PDF hash) starts at its part 0:
 * - part 0 of another hash than the stored one, not older than it, makes it the current version:
 *   the document's text columns are rewritten and every page of another hash is deleted;
 * - any part of the current hash upserts its pages (parts accumulate, redeliveries write nothing);
 * - a later part of another hash is dropped: it belongs to a version that was replaced (a
 *   redelivery after a newer part 0) or never started, and must not mix its pages into the current one;
 * - an older version's part 0 is dropped: a replay never regresses the text.
 * The version's last part settles its transcript: it upserts the transcripts row on url (so a new
 * version keeps the id a transcript.published event already gave out), or deletes it when the
 * version carries none. Part 0 leaves the row alone: until the last part lands, the read side
 * holds it back, since its version's pages are gone.
 */
async function applyText(m: EntityManager, envelope: RecordEnvelope<DocumentTextData>, sourceUrl: string, replacesOtherSource = false): Promise<RecordOutcome> {
  const d = envelope.data;
  const version = documentTextVersion(envelope);
  const state = (
    await m.query<TextState[]>(
      `SELECT id, text_content_hash, coalesce(text_observed_at > $2::timestamptz, false) AS older FROM documents WHERE url = $1`,
      [d.url, envelope.observed_at],
    )
  )[0];
  const isCurrentVersion = state?.text_content_hash === version;
  // Versions of one source are ordered by time; another source's text is no older version of this one.
  if (!isCurrentVersion && (d.part.index !== 0 || (state?.older && !replacesOtherSource))) return 'unchanged';

  let documentId = state?.id;
  let inserted = false;
  let written = 0;
  if (d.part.index === 0) {
    const eventId = d.filing ? await upsertEvent(m, d.cik, filingEvent(d.cik, d.filing)) : null;
    const row = (await m.query<Array<{ id: number; inserted: boolean }>>(UPSERT_DOCUMENT_SQL, documentParams(envelope, version, eventId, sourceUrl)))[0];
    if (row) {
      documentId = row.id;
      inserted = row.inserted;
      written += 1;
    }
    if (!isCurrentVersion && documentId !== undefined) {
      const [, removed] = await m.query<[unknown, number]>('DELETE FROM document_pages WHERE document_id = $1 AND content_hash <> $2', [documentId, version]);
      written += removed;
    }
  }
  if (documentId === undefined) return 'unchanged';
  const pages = await m.query<unknown[]>(UPSERT_PAGES_SQL, [documentId, JSON.stringify(documentPageRows(envelope))]);
  written += pages.length;
  if (d.part.index === d.part.count - 1) written += await settleTranscript(m, documentId, envelope, version);
  if (inserted) return 'inserted';
  return written > 0 ? 'updated' : 'unchanged';
}

/**
 * A document's text onto its row. A filing exhibit first seen that is an IR document already held
 * (document-sources.ts) applies to that row, its URL an alias of it. The row holds one source's
 * text, by one rule whatever the order: the filed exhibit's, which is the version of record, over
 * an IR copy's (a PDF of the same release); an IR copy's text never replaces an exhibit's.
 */
async function applyDocumentText(m: EntityManager, envelope: RecordEnvelope<DocumentTextData>): Promise<RecordOutcome> {
  const d = envelope.data;
  let target = await resolveDocument(m, d.url);
  if (!target && d.filing && d.part.index === 0) {
    target = await irDocumentMatching(m, { cik: d.cik, title: d.title, filedDate: d.filing.filed_date });
    if (target) await addDocumentAlias(m, d.url, target.id);
  }
  if (!target) return applyText(m, envelope, d.url);
  const onRow = target.url === d.url ? envelope : { ...envelope, data: { ...d, url: target.url } };
  if (target.textUrl === null || target.textUrl === d.url) return applyText(m, onRow, d.url);
  return d.filing ? applyText(m, onRow, d.url, true) : 'unchanged';
}

/**
 * Projects a batch of document-text@1 parts (offset order) in the caller's transaction: the
 * per-URL and per-issuer locks of the whole batch first (shared with the link projection, taken in
 * one ordered statement), then the parts one by one, since a part's fate depends on the version
 * the parts before it left.
 */
export async function projectDocumentTexts(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<DocumentTextData>>): Promise<BatchOutcome> {
  await lockKeys(m, envelopes.flatMap((e) => [documentLock(e.data.url), documentIssuerLock(e.data.cik)]));
  const tally = new OutcomeTally();
  for (const e of envelopes) tally.add(e.key, await applyDocumentText(m, e));
  return tally.result();
}

/** The documents of one filing are one event (an earnings release and its presentation): keyed by the accession. */
function filingEvent(cik: string, filing: DocumentFiling): { key: string; title: string; date: string } {
  return { key: `${cik}|sec|${filing.accession}`, title: `${filing.form} ${filing.accession}`, date: filing.filed_date };
}

function documentParams(envelope: RecordEnvelope<DocumentTextData>, version: string, eventId: number | null, sourceUrl: string): unknown[] {
  const d = envelope.data;
  const p = envelope.provenance;
  return [
    d.url,
    d.cik,
    d.ticker,
    d.title,
    d.doc_type,
    d.doc_group,
    d.language,
    d.pdf?.created_at ?? null,
    d.page_count,
    d.page_separator,
    d.text_length,
    version,
    p.source_url ?? d.url,
    // The first line of the text, verbatim: the stamped quote, else the first page's first line.
    p.quote ?? d.pages.find((page) => page.quote !== null)?.quote ?? null,
    p.src_id,
    p.extracted_at,
    envelope.id,
    d.pdf?.bytes ?? null,
    envelope.observed_at,
    d.pdf ? JSON.stringify({ title: d.pdf.title, creator: d.pdf.creator, producer: d.pdf.producer, created_at: d.pdf.created_at }) : null,
    d.transcript_gate ?? null,
    // An exhibit is published when its filing was accepted (else on its filing date).
    d.filing ? (d.filing.accepted_at ?? `${d.filing.filed_date}T00:00:00Z`) : null,
    d.format ?? 'pdf',
    // Records written before subject existed: derived as the ingestors derive it.
    d.subject ?? documentSubject({ docType: d.doc_type, docGroup: d.doc_group, title: d.title, items: d.filing?.items ?? null }),
    d.filing?.accession ?? null,
    d.filing ? JSON.stringify(d.filing) : null,
    d.no_text ?? null,
    eventId,
    sourceUrl,
    d.filing ? sourceUrl : null,
  ];
}

/*
 * The transcript of the current version, from the part that carries it (the last): one row per
 * url, whose id outlives versions; a replay of the same record writes nothing; first_seen_at
 * keeps the first version's.
 */
const TRANSCRIPT_VALUE_COLUMNS = [
  'document_id', 'cik', 'ticker', 'company', 'title', 'call_date', 'date_source', 'participants', 'turns', 'turn_count',
  'front_matter', 'back_matter', 'content_hash', 'src_id', 'source_url', 'quote', 'extracted_at', 'record_id',
];
const UPSERT_TRANSCRIPT_SQL = `
  INSERT INTO transcripts (url, ${TRANSCRIPT_VALUE_COLUMNS.join(', ')}, first_seen_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9::jsonb, $10::jsonb, $11, $12::jsonb, $13::jsonb, $14, $15, $16, $17,
    $18::timestamptz, $19, $20::timestamptz, now())
  ON CONFLICT (url) DO UPDATE SET
    ${TRANSCRIPT_VALUE_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
    first_seen_at = least(transcripts.first_seen_at, EXCLUDED.first_seen_at),
    updated_at = now()
  WHERE transcripts.record_id IS DISTINCT FROM EXCLUDED.record_id
  RETURNING id`;

/** Upserts the version's transcript, or deletes the row when the version (its last part) has none. */
async function settleTranscript(m: EntityManager, documentId: number, envelope: RecordEnvelope<DocumentTextData>, version: string): Promise<number> {
  const d = envelope.data;
  const t = d.transcript;
  if (!t) {
    const [, removed] = await m.query<[unknown, number]>('DELETE FROM transcripts WHERE document_id = $1', [documentId]);
    return removed;
  }
  const p = envelope.provenance;
  const rows = await m.query<unknown[]>(UPSERT_TRANSCRIPT_SQL, [
    d.url,
    documentId,
    d.cik,
    d.ticker,
    t.call.company,
    t.call.title,
    t.call.date,
    t.call.date_source,
    JSON.stringify(t.participants),
    JSON.stringify(t.turns),
    t.turns.length,
    JSON.stringify(t.front_matter),
    t.back_matter === null ? null : JSON.stringify(t.back_matter),
    version,
    p.src_id,
    p.source_url ?? d.url,
    t.turns[0]?.quote ?? null,
    p.extracted_at,
    envelope.id,
    envelope.observed_at,
  ]);
  return rows.length;
}
