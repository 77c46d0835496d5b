import type { Provenance } from '@app/contracts';
import { bigint, boolean, char, date, jsonb, selectList, text, timestamptz, tsvector, table, type RowOf } from '../table';
import { issuerSymbolSql } from '../companies/issuer-symbol';

/**
 * Read model of one EDGAR filing, keyed by accession. Written only by the projector. The two
 * keyset indexes back the list orders: (filed_date, accession) overall and per CIK; B-tree
 * indexes are read backwards for the default descending order.
 */
export const FILINGS_TABLE = table('filings', ['accession'], {
  accession: text(),
  cik: char(10),
  company_name: text(),
  /** Leads filings_search_form_idx (upper(form), filed_date DESC, accession COLLATE "C"), search's form candidates: TypeORM cannot state expressions, its migration makes it. */
  form: text(),
  filed_date: date(),
  accepted_at: timestamptz().nullable(),
  report_period: date().nullable(),
  primary_document_url: text().nullable(),
  primary_doc_description: text().nullable(),
  /** 8-K item numbers (today's numbering); null while not known. filings_items_idx (GIN) serves ?items=. */
  items: jsonb<string[]>().nullable(),
  /** Old-numbering items of a pre-2004 8-K: [{number, legacy_number}]; null when none. */
  legacy_items: jsonb<Array<{ number: string; legacy_number: string }>>().nullable(),
  size: bigint().nullable().readAs<number | null>((c) => `${c}::float8`),
  is_xbrl: boolean().nullable(),
  is_inline_xbrl: boolean().nullable(),
  is_amendment: boolean(),
  amends_accession: text().nullable(),
  act: text().nullable(),
  file_number: text().nullable(),
  film_number: text().nullable(),
  /** submissions | submission_text | latest_filings | daily_index | current_events: a richer source is never overwritten by a poorer one. */
  source: text(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  /** Hash of the record's data: an unchanged hash means no write. */
  data_hash: text(),
  observed_at: timestamptz(),
  /** When the platform first saw the filing, in any source (the earliest observed_at of its records); null for rows projected before it was kept. */
  first_seen_at: timestamptz().nullable(),
  updated_at: timestamptz().default('now()'),
  search_vector: tsvector().nullable().generatedAs("((setweight(to_tsvector('simple'::regconfig, form), 'A'::\"char\") || setweight(to_tsvector('simple'::regconfig, COALESCE(primary_doc_description, ''::text)), 'B'::\"char\")) || setweight(to_tsvector('simple'::regconfig, company_name), 'C'::\"char\"))"),
});

/** The columns of a FilingRecord, the read side's filing. */
const FILING_RECORD_FIELDS = [
  'accession', 'cik', 'company_name', 'form', 'filed_date', 'accepted_at', 'report_period', 'primary_document_url',
  'primary_doc_description', 'items', 'legacy_items', 'size', 'is_xbrl', 'is_inline_xbrl', 'is_amendment', 'amends_accession', 'source', 'provenance',
  'first_seen_at',
] as const;

/** One filing as the read side returns it (read model, camelCase; not an API shape). Dates are YYYY-MM-DD. */
export type FilingRecord = RowOf<typeof FILINGS_TABLE.columns, (typeof FILING_RECORD_FIELDS)[number]> & {
  /** `<TICKER>:<MARKET>` of the filer's primary listing (issuerSymbolSql); null when none is known. */
  symbol: string | null;
};

/** The select list of a FilingRecord on `filings` (also what the filings upsert returns). */
export const FILING_RECORD_COLUMNS = `${selectList(FILINGS_TABLE, FILING_RECORD_FIELDS)}, ${issuerSymbolSql('filings.cik')} AS symbol`;
