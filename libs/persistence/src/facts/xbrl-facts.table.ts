import type { Provenance } from '@app/contracts';
import { boolean, char, date, integer, jsonb, numeric, text, timestamptz, table, selectList, type RowOf } from '../table';

/**
 * One report of one XBRL value (edgar.xbrl-facts.v1): a fact (concept, unit, period, dimensions) as
 * one filing (accession) reported it, read from company facts, a filing's inline XBRL, or both (one
 * row). No primary key: the natural key (cik, concept, unit, period_end, period_start, dimensions,
 * accession) is a unique index NULLS NOT DISTINCT (period_start is null for an instant); see the
 * migration. Written only by the projector.
 */
export const XBRL_FACT_REPORTS_TABLE = table('xbrl_fact_reports', [], {
  period_end: date(),
  period_start: date().nullable(),
  filed: date(),
  fiscal_year: integer().nullable(),
  from_companyfacts: boolean(),
  from_inline_xbrl: boolean(),
  cik: char(10),
  concept: text(),
  unit: text(),
  /** Canonical text: `axis=member` pairs sorted by axis, joined by ','; '' for a consolidated fact. */
  dimensions: text(),
  accession: text(),
  /** Exact as reported; read as its decimal text. */
  value: numeric().readAs<string>((c) => `${c}::text`),
  decimals: text().nullable(),
  form: text(),
  fiscal_period: text().nullable(),
  frame: text().nullable(),
  label: text().nullable(),
  quote: text().nullable(),
  document_url: text().nullable(),
  document_sha256: text().nullable(),
});

/** The columns of the natural key, in the unique index's order (the upsert's conflict target). */
export const XBRL_FACT_REPORT_KEY = ['cik', 'concept', 'unit', 'period_end', 'period_start', 'dimensions', 'accession'] as const;

/**
 * One row per xbrl-facts@1 record (key `<cik>|<concept>` or `<accession>|<concept>`): its hash, so
 * an unchanged record writes nothing, and the provenance the reports it wrote share. The taxonomy
 * label and description of a concept come from its company-facts record.
 */
export const XBRL_CONCEPTS_TABLE = table('xbrl_concepts', ['record_key'], {
  record_key: text(),
  cik: char(10),
  concept: text(),
  source: text<'companyfacts' | 'inline_xbrl'>(),
  accession: text().nullable(),
  concept_label: text().nullable(),
  concept_description: text().nullable(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  data_hash: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

const FACT_REPORT_FIELDS = [
  'cik', 'concept', 'unit', 'period_start', 'period_end', 'dimensions', 'value', 'decimals', 'accession', 'form', 'filed',
  'fiscal_year', 'fiscal_period', 'frame', 'label', 'quote', 'from_companyfacts', 'from_inline_xbrl', 'document_url', 'document_sha256',
] as const;

/** A xbrl_fact_reports row as selected (camelCase); the repository turns it into a FactReport. */
export type FactReportRow = RowOf<typeof XBRL_FACT_REPORTS_TABLE.columns, (typeof FACT_REPORT_FIELDS)[number]>;

export const FACT_REPORT_COLUMNS = selectList(XBRL_FACT_REPORTS_TABLE, FACT_REPORT_FIELDS);

/**
 * The canonical text of a fact's dimensions: `axis=member` pairs sorted by axis, joined by ','; ''
 * for a consolidated fact. QNames hold neither '=' nor ',', so parseDimensions reads it back.
 */
export function dimensionsText(dimensions: Readonly<Record<string, string>>): string {
  return Object.keys(dimensions)
    .sort()
    .map((axis) => `${axis}=${dimensions[axis]}`)
    .join(',');
}

/** The dimensions a dimensionsText wrote, axis -> member; {} for ''. */
export function parseDimensions(text: string): Record<string, string> {
  const dimensions: Record<string, string> = {};
  if (text === '') return dimensions;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    dimensions[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return dimensions;
}
