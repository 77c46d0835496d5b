import type { EntityManager } from 'typeorm';
import { contentHash, stableStringify, type RecordEnvelope, type XbrlFactsData } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { batchOutcome, columnArrays, survivingRows, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { dimensionsText, XBRL_CONCEPTS_TABLE, XBRL_FACT_REPORT_KEY, XBRL_FACT_REPORTS_TABLE } from './xbrl-facts.table';

/** The xbrl_concepts row of an xbrl-facts@1 record: its hash decides whether the record writes at all. Pure. */
export function xbrlConceptRow(envelope: RecordEnvelope<XbrlFactsData>) {
  const d = envelope.data;
  return {
    record_key: envelope.key,
    cik: d.cik,
    concept: d.concept,
    source: d.source,
    accession: d.accession,
    concept_label: d.concept_label,
    concept_description: d.concept_description,
    provenance: envelope.provenance,
    record_id: envelope.id,
    // The data only: a company-facts record's content_hash is the whole company file's, which changes
    // with any of its concepts; an unchanged concept must write nothing.
    data_hash: contentHash(stableStringify(d)),
    observed_at: envelope.observed_at,
  };
}

/** One xbrl_fact_reports row as the projection writes it. */
export type FactReportWrite = {
  period_end: string;
  period_start: string | null;
  filed: string;
  fiscal_year: number | null;
  from_companyfacts: boolean;
  from_inline_xbrl: boolean;
  cik: string;
  concept: string;
  unit: string;
  dimensions: string;
  accession: string;
  value: string;
  decimals: string | null;
  form: string;
  fiscal_period: string | null;
  frame: string | null;
  label: string | null;
  quote: string | null;
  document_url: string | null;
  document_sha256: string | null;
};

/** The xbrl_fact_reports rows of a record, one per fact. Pure. */
export function factReportRows(envelope: RecordEnvelope<XbrlFactsData>): FactReportWrite[] {
  const d = envelope.data;
  const inline = d.source === 'inline_xbrl';
  return d.facts.map((f) => ({
    period_end: f.period_end,
    period_start: f.period_start,
    filed: f.filed,
    fiscal_year: f.fiscal_year,
    from_companyfacts: !inline,
    from_inline_xbrl: inline,
    cik: d.cik,
    concept: d.concept,
    unit: f.unit,
    dimensions: dimensionsText(f.dimensions),
    accession: f.accession,
    // numeric: the JSON number's shortest round-trip text is the exact reported value.
    value: String(f.value),
    decimals: f.decimals,
    form: f.form,
    fiscal_period: f.fiscal_period,
    frame: f.frame,
    label: f.label,
    quote: f.quote,
    // The inline record's provenance is the document it read.
    document_url: inline ? d.document_url : null,
    document_sha256: inline ? envelope.provenance.content_hash : null,
  }));
}

type MergedColumn = Exclude<keyof FactReportWrite, (typeof XBRL_FACT_REPORT_KEY)[number] | 'from_companyfacts' | 'from_inline_xbrl'>;

/**
 * Which source a column of a report read from both is taken from. The filing's own document wins
 * what it states (the value, its decimals, the filer's label and row): when company facts and the
 * inline document disagree on the value of the same report, the inline value is kept, since company
 * facts are SEC's later rendering of that same document. Company facts win SEC's fiscal year,
 * period and frame. Either way a null never blanks a value the other source gave.
 */
const PREFERRED_SOURCE: Readonly<Record<MergedColumn, 'from_companyfacts' | 'from_inline_xbrl'>> = {
  value: 'from_inline_xbrl',
  decimals: 'from_inline_xbrl',
  form: 'from_inline_xbrl',
  filed: 'from_inline_xbrl',
  label: 'from_inline_xbrl',
  quote: 'from_inline_xbrl',
  document_url: 'from_inline_xbrl',
  document_sha256: 'from_inline_xbrl',
  fiscal_year: 'from_companyfacts',
  fiscal_period: 'from_companyfacts',
  frame: 'from_companyfacts',
};
const MERGED = Object.keys(PREFERRED_SOURCE) as MergedColumn[];

/**
 * A report as it stands after `next` (a later read of the same report) lands on `current`: the
 * sources accumulate; each column takes next's value unless only current was read from the
 * column's preferred source, and a null never replaces a value. Pure; MERGE_SET is the same in SQL.
 */
export function mergeReport(current: FactReportWrite, next: FactReportWrite): FactReportWrite {
  const merged: FactReportWrite = {
    ...next,
    from_companyfacts: current.from_companyfacts || next.from_companyfacts,
    from_inline_xbrl: current.from_inline_xbrl || next.from_inline_xbrl,
  };
  const pick = <C extends MergedColumn>(c: C): FactReportWrite[C] => {
    const flag = PREFERRED_SOURCE[c];
    const keepCurrent = current[flag] && !next[flag];
    return keepCurrent ? (current[c] ?? next[c]) : (next[c] ?? current[c]);
  };
  for (const c of MERGED) (merged as unknown as Record<string, unknown>)[c] = pick(c);
  return merged;
}

/** The natural key of a report as one string (NUL-separated: no column holds a NUL). */
export function reportKey(r: FactReportWrite): string {
  return XBRL_FACT_REPORT_KEY.map((c) => r[c] ?? '').join('\u0000');
}

/**
 * The report rows of records (offset order), one per natural key, merged in order as landing
 * them one at a time would; sorted by key. An upsert may touch a row once per statement, so the
 * same report in two records of a batch (company facts and a filing) is merged here first. Pure.
 */
export function mergedReports(envelopes: ReadonlyArray<RecordEnvelope<XbrlFactsData>>): FactReportWrite[] {
  const byKey = new Map<string, FactReportWrite>();
  for (const e of envelopes) {
    for (const r of factReportRows(e)) {
      const key = reportKey(r);
      const current = byKey.get(key);
      byKey.set(key, current ? mergeReport(current, r) : r);
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

const CONCEPT_COLUMNS = upsertColumns(XBRL_CONCEPTS_TABLE);

/* Same guard as segments: write only when the hash changed and the record is not older than the row. */
const UPSERT_CONCEPTS_SQL = unnestUpsertSql(
  'xbrl_concepts',
  CONCEPT_COLUMNS,
  'record_key',
  `xbrl_concepts.data_hash IS DISTINCT FROM EXCLUDED.data_hash AND xbrl_concepts.observed_at <= EXCLUDED.observed_at`,
  'record_key AS key, (xmax = 0) AS inserted',
);

const VERSIONS_SQL = `
  SELECT record_key AS key, data_hash AS hash, observed_at, 1 AS rank
    FROM xbrl_concepts WHERE record_key = ANY($1::text[])`;

const REPORT_COLUMNS = upsertColumns(XBRL_FACT_REPORTS_TABLE);
const stored = (c: string) => `xbrl_fact_reports.${c}`;

/* mergeReport in SQL: the stored row is `current`, EXCLUDED (the batch's merged row) is `next`. */
const MERGE_SET: Record<string, string> = {
  from_companyfacts: `${stored('from_companyfacts')} OR EXCLUDED.from_companyfacts`,
  from_inline_xbrl: `${stored('from_inline_xbrl')} OR EXCLUDED.from_inline_xbrl`,
  ...Object.fromEntries(
    MERGED.map((c) => {
      const flag = PREFERRED_SOURCE[c];
      return [c, `CASE WHEN ${stored(flag)} AND NOT EXCLUDED.${flag} THEN COALESCE(${stored(c)}, EXCLUDED.${c}) ELSE COALESCE(EXCLUDED.${c}, ${stored(c)}) END`];
    }),
  ),
};
const MERGE_COLUMNS = Object.keys(MERGE_SET);

/*
 * A changed company-facts record carries the concept's whole history again: only the reports whose
 * merged columns differ are rewritten (a new filing's few rows, not the concept's thousand), so a
 * refresh leaves no dead tuples behind. Nothing comes back: the outcome is the records'.
 */
const UPSERT_REPORTS_SQL = unnestUpsertSql(
  'xbrl_fact_reports',
  REPORT_COLUMNS,
  XBRL_FACT_REPORT_KEY.join(', '),
  `(${MERGE_COLUMNS.map(stored).join(', ')}) IS DISTINCT FROM (${MERGE_COLUMNS.map((c) => MERGE_SET[c]).join(', ')})`,
  null,
  { updatedAt: false, set: MERGE_SET },
);

/** Rows per upsert statement: bounds the parameter arrays of a bulk batch (a company's whole history). */
const REPORTS_PER_STATEMENT = 20_000;

/**
 * Projects a batch of xbrl-facts@1 records (one topic-partition, offset order) in the caller's
 * transaction: one upsert of the records' xbrl_concepts rows (an unchanged hash or an older record
 * writes nothing), then the reports of the records that wrote, merged per natural key, in sorted
 * statements. Records are partitioned by CIK and every report row belongs to one CIK, so no two
 * partitions write the same rows and no lock beyond the rows' own is needed.
 *
 * Not done: a report a newer version of a record no longer carries stays (SEC does not withdraw
 * facts from company facts; a re-read document carries the same facts).
 */
export async function projectXbrlFacts(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<XbrlFactsData>>): Promise<BatchOutcome> {
  const all = envelopes.map(xbrlConceptRow);
  const { survivors, rows } = await survivingRows(
    m,
    all,
    (r) => ({ key: r.record_key, hash: r.data_hash, observedAt: Date.parse(r.observed_at), rank: 1 }),
    VERSIONS_SQL,
  );
  const written = rows.length > 0 ? await m.query<Array<{ key: string; inserted: boolean }>>(UPSERT_CONCEPTS_SQL, columnArrays(rows, CONCEPT_COLUMNS)) : [];
  const writtenKeys = new Set(written.map((w) => w.key));
  const writing = survivors.filter((_, j) => writtenKeys.has(rows[j]!.record_key)).sort((a, b) => a - b);
  const reports = mergedReports(writing.map((i) => envelopes[i]!));
  for (let at = 0; at < reports.length; at += REPORTS_PER_STATEMENT) {
    await m.query(UPSERT_REPORTS_SQL, columnArrays(reports.slice(at, at + REPORTS_PER_STATEMENT), REPORT_COLUMNS));
  }
  return batchOutcome(envelopes, survivors, rows.map((r) => r.record_key), written);
}
