import type { Provenance } from '@app/contracts';
import { char, date, integer, jsonb, selectList, text, timestamptz, table, type RowOf } from '../table';

/**
 * The issuer's description from the opening of Item 1 of its newest 10-K that gave one, by CIK.
 * Apart from tenk_sections so a later 10-K without one (Item 1 incorporated by reference, or failed)
 * never empties it. Written only by the projector.
 */
export const TENK_DESCRIPTIONS_TABLE = table('tenk_descriptions', ['cik'], {
  cik: char(10),
  description: text(),
  accession: text(),
  form: text(),
  filed_date: date().nullable(),
  period_ended: date().nullable(),
  char_start: integer(),
  char_end: integer(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/**
 * One item (1, 1A, 7) of an issuer's newest 10-K (edgar.tenk-sections.v1), by CIK and item. A
 * record of an older 10-K (by period, then filing date) never replaces it. Written only by the projector.
 */
export const TENK_SECTIONS_TABLE = table('tenk_sections', ['cik', 'item'], {
  cik: char(10),
  item: text(),
  accession: text(),
  form: text(),
  filed_date: date().nullable(),
  period_ended: date().nullable(),
  document_url: text(),
  text_length: integer(),
  extractor_version: text(),
  title: text(),
  status: text(),
  reason: text().nullable(),
  heading: text().nullable(),
  char_start: integer().nullable(),
  char_end: integer().nullable(),
  length: integer().nullable(),
  cross_reference_pages: text().nullable(),
  text: text().nullable(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/** The columns of a TenkSectionRecord. */
const TENK_SECTION_RECORD_FIELDS = [
  'cik', 'item', 'accession', 'form', 'filed_date', 'period_ended', 'document_url', 'text_length', 'extractor_version', 'title',
  'status', 'reason', 'heading', 'char_start', 'char_end', 'length', 'cross_reference_pages', 'text', 'provenance', 'updated_at',
] as const;

/** One item of an issuer's newest 10-K, as the read side returns it (read model, camelCase; not an API shape). Dates are YYYY-MM-DD. */
export type TenkSectionRecord = RowOf<typeof TENK_SECTIONS_TABLE.columns, (typeof TENK_SECTION_RECORD_FIELDS)[number]>;

export const TENK_SECTION_RECORD_COLUMNS = selectList(TENK_SECTIONS_TABLE, TENK_SECTION_RECORD_FIELDS);

/** The columns of a TenkDescriptionRecord. */
const TENK_DESCRIPTION_RECORD_FIELDS = ['description', 'accession', 'form', 'filed_date', 'period_ended', 'char_start', 'char_end', 'provenance'] as const;

/** The issuer's description from its newest 10-K's Item 1 that gave one. */
export type TenkDescriptionRecord = RowOf<typeof TENK_DESCRIPTIONS_TABLE.columns, (typeof TENK_DESCRIPTION_RECORD_FIELDS)[number]>;

export const TENK_DESCRIPTION_RECORD_COLUMNS = selectList(TENK_DESCRIPTIONS_TABLE, TENK_DESCRIPTION_RECORD_FIELDS);
