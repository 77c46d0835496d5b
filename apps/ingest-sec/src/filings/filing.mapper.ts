import { contentHash, padCik, recordId, sourceId, stableStringify, type FilingData, type FilingRecordV1 } from '@app/contracts';
import {
  archivesDocumentPath,
  isAmendmentForm,
  isEightKForm,
  itemsOf,
  type CurrentEventsEntry,
  type DailyIndexEntry,
  type LatestFilingEntry,
  type RecentFiling,
} from '@app/edgar';
import type { FetchedSource, MapContext } from '../company.mapper';

/** Citation URLs always name www.sec.gov, wherever the bytes were fetched from (tests use a local server). */
export const SEC_WWW = 'https://www.sec.gov';
const PRODUCED_BY = 'ingest-sec';
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const dateOrNull = (v: string | null): string | null => (v && DATE_RE.test(v) ? v : null);
const isoOrNull = (v: string | null): string | null => (v && !Number.isNaN(Date.parse(v)) && /T/.test(v) ? new Date(v).toISOString() : null);

function filingIndexUrl(cik: string, accession: string): string {
  return `${SEC_WWW}${archivesDocumentPath(cik, accession, `${accession}-index.htm`)}`;
}

/** The last source's src_id: the filings of one entity file share their source (a bulk backfill saves a sha256 per filing). */
const lastSourceId = { url: '', contentHash: '', id: '' };

function sourceIdOf(source: FetchedSource): string {
  if (source.url !== lastSourceId.url || source.contentHash !== lastSourceId.contentHash) {
    lastSourceId.id = sourceId(source.url, source.contentHash);
    lastSourceId.url = source.url;
    lastSourceId.contentHash = source.contentHash;
  }
  return lastSourceId.id;
}

/** A filing@1 record of data read from `source`; the quote is where the source states the accession. Pure. */
export function filingEnvelope(data: FilingData, source: FetchedSource, quote: string, ctx: MapContext): FilingRecordV1 {
  return {
    schema: 'filing@1',
    key: data.accession,
    id: recordId(data.accession, contentHash(stableStringify(data))),
    observed_at: source.fetchedAt,
    produced_by: PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceIdOf(source),
      source_provider: 'sec',
      source_url: source.url,
      accession: data.accession,
      quote,
      content_hash: source.contentHash,
      extracted_at: ctx.extractedAt,
    },
    data,
  };
}

/**
 * One filing of a submissions JSON (`filings.recent` or an overflow file) -> filing@1. Pure. Null
 * when the row lacks a form or a filing date. The quote is the accession as a JSON string, which
 * is how it stands in the fetched bytes.
 */
export function filingRecordFromSubmissions(
  company: { cik: string; name: string },
  f: RecentFiling,
  source: FetchedSource,
  ctx: MapContext,
): FilingRecordV1 | null {
  const filedDate = dateOrNull(f.filingDate);
  if (!f.form || !filedDate) return null;
  const cik = padCik(company.cik);
  const items = itemsOf(f.items);
  const legacy = items.filter((i) => i.legacy_number !== null).map((i) => ({ number: i.number, legacy_number: i.legacy_number! }));
  const data: FilingData = {
    accession: f.accessionNumber,
    cik,
    company_name: company.name,
    form: f.form,
    filed_date: filedDate,
    accepted_at: isoOrNull(f.acceptanceDateTime),
    report_period: dateOrNull(f.reportDate),
    primary_document_url: f.primaryDocument ? `${SEC_WWW}${archivesDocumentPath(cik, f.accessionNumber, f.primaryDocument)}` : filingIndexUrl(cik, f.accessionNumber),
    primary_doc_description: f.primaryDocDescription,
    items: items.map((i) => i.number),
    ...(legacy.length > 0 ? { legacy_items: legacy } : {}),
    size: f.size !== null && Number.isInteger(f.size) && f.size >= 0 ? f.size : null,
    is_xbrl: f.isXBRL,
    is_inline_xbrl: f.isInlineXBRL,
    is_amendment: isAmendmentForm(f.form),
    amends_accession: null,
    act: f.act,
    file_number: f.fileNumber,
    film_number: f.filmNumber,
    source: 'submissions',
  };
  return filingEnvelope(data, source, JSON.stringify(f.accessionNumber), ctx);
}

/** What a listing of new filings states of one (the feeds, the daily index): the rest is null until a richer source says it. */
interface ListedFiling {
  accession: string;
  cik: string;
  companyName: string;
  form: string;
  filedDate: string;
  acceptedAt: string | null;
  source: 'daily_index' | 'current_events' | 'latest_filings';
}

function listedFilingData(f: ListedFiling): FilingData {
  return {
    accession: f.accession,
    cik: f.cik,
    company_name: f.companyName,
    form: f.form,
    filed_date: f.filedDate,
    accepted_at: f.acceptedAt,
    report_period: null,
    // The listings link the filing index page, not the primary document.
    primary_document_url: filingIndexUrl(f.cik, f.accession),
    primary_doc_description: null,
    // The listings do not give an 8-K's items: not known (null) until the 8-K worker reads its submission.
    items: isEightKForm(f.form) ? null : [],
    size: null,
    is_xbrl: null,
    is_inline_xbrl: null,
    is_amendment: isAmendmentForm(f.form),
    amends_accession: null,
    act: null,
    file_number: null,
    film_number: null,
    source: f.source,
  };
}

/**
 * A daily-index or current-events row -> filing@1 (fewer fields: those sources give no more). Pure.
 * `acceptedAt`: read by the caller from the filing's index page, as neither row prints it.
 */
export function filingRecordFromFeed(
  kind: 'daily_index' | 'current_events',
  e: DailyIndexEntry | CurrentEventsEntry,
  source: FetchedSource,
  ctx: MapContext,
  acceptedAt: string | null = null,
): FilingRecordV1 {
  const data = listedFilingData({ accession: e.accession, cik: e.cik, companyName: e.companyName, form: e.form, filedDate: e.dateFiled, acceptedAt, source: kind });
  return filingEnvelope(data, source, e.line, ctx);
}

/**
 * One filer's entry of the latest-filings Atom feed -> filing@1: the feed's fields plus the
 * acceptance time. The caller picks which filer's entry (the covered one). Pure.
 */
export function filingRecordFromLatestFeed(e: LatestFilingEntry, source: FetchedSource, ctx: MapContext): FilingRecordV1 {
  return filingEnvelope(listedFilingData({ ...e, source: 'latest_filings' }), source, e.quote, ctx);
}
