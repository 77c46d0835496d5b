import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { padCik, type RecordEnvelope, type XbrlFactsData, type XbrlFactsRecordV1 } from '@app/contracts';
import { mergedReports, XBRL_FACT_REPORTS_TABLE, type FactReportWrite } from '@app/persistence';
import { companyFactsRecords } from '@app/testing';
import { copyValue, CopyStream } from './copy.stream';
import { dropSecondaryIndexes, rebuildIndexes, withClient } from './scale-data';

/*
 * xbrl_fact_reports at the size of SEC's company facts (issue 36): the real company-facts files of
 * the fixtures (AAPL, GOOGL, SNOW, and LPA an IFRS filer) are the templates; company c is template
 * c mod 4 re-keyed under CIK 8000000 + c, with its whole real history (every concept, unit, period
 * and every filing that reported a value: restatements and later comparatives included). Rows are
 * the projection's own (mergedReports of companyFactsRecords), formatted for COPY once per template
 * and streamed company by company (a company's rows are contiguous, as a bulk load of
 * companyfacts.zip lays them down); the unique key index is dropped before the load and rebuilt
 * after it.
 */

/** The company-facts fixture files used as templates, in the order companies cycle through them. */
export const FACT_TEMPLATE_FILES = [
  'AAPL-companyfacts-CIK0000320193.json',
  'GOOGL-companyfacts-CIK0001652044.json',
  'SNOW-companyfacts-CIK0001640147.json',
  'LPA-companyfacts-CIK0001997711.json',
] as const;

/** CIK of bench company c: far from the fixtures' own. */
export const benchFactsCik = (c: number): string => padCik(String(8_000_000 + c));

export interface FactTemplate {
  file: string;
  records: XbrlFactsRecordV1[];
  /** The projection's rows of the file, one per natural key. */
  rows: FactReportWrite[];
}

export function factTemplates(fixtures: string): FactTemplate[] {
  return FACT_TEMPLATE_FILES.map((file) => {
    const path = join(fixtures, 'xbrl', file);
    const records = companyFactsRecords(readFileSync(path), { url: `https://data.sec.gov/api/xbrl/companyfacts/${file.replace(/^[A-Z]+-companyfacts-/, '')}`, fetchedAt: '2025-11-01T00:00:00.000Z' });
    return { file, records, rows: mergedReports(records) };
  });
}

/** A template's records under another CIK: the key, the id and the data's cik change, nothing else. */
export function rekeyed(records: readonly XbrlFactsRecordV1[], cik: string): Array<RecordEnvelope<XbrlFactsData>> {
  return records.map((r) => {
    const key = `${cik}|${r.data.concept}`;
    return { ...r, key, id: `${r.id}_${cik}`, data: { ...r.data, cik } };
  });
}

const REPORT_COLUMNS = Object.keys(XBRL_FACT_REPORTS_TABLE.columns);
const COLUMNS_AFTER_CIK = REPORT_COLUMNS.filter((c) => c !== 'cik');

/** A template's rows in COPY text without their cik: the load prefixes each with the company's. */
function copyLines(rows: readonly FactReportWrite[]): string[] {
  return rows.map((r) => COLUMNS_AFTER_CIK.map((c) => copyValue((r as Record<string, unknown>)[c])).join('\t'));
}

export interface FactsLoad {
  rows: number;
  companies: number;
  phases: Array<{ name: string; seconds: number }>;
}

/**
 * Loads at least `rows` report rows into an empty (or truncated) xbrl_fact_reports, `streams`
 * COPYs in parallel (companies dealt round-robin); the key index is dropped first and rebuilt after.
 */
export async function fillFacts(url: string, templates: readonly FactTemplate[], rows: number, streams: number, log: (line: string) => void): Promise<FactsLoad> {
  const phases: FactsLoad['phases'] = [];
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    const seconds = (performance.now() - t) / 1000;
    phases.push({ name, seconds });
    log(`  ${name}: ${seconds.toFixed(1)} s`);
    return out;
  };
  await withClient(url, (c) => c.query('TRUNCATE xbrl_fact_reports'));
  const indexes = await dropSecondaryIndexes(url, ['xbrl_fact_reports']);
  const lines = templates.map((t) => copyLines(t.rows));
  let companies = 0;
  let loaded = 0;
  while (loaded < rows) loaded += lines[companies++ % lines.length]!.length;
  await timed(`COPY ${loaded.toLocaleString('en-US')} rows of ${companies.toLocaleString('en-US')} companies (${streams} streams, no index)`, async () => {
    const copies = Array.from({ length: streams }, () => new CopyStream(url, 'xbrl_fact_reports', ['cik', ...COLUMNS_AFTER_CIK]));
    try {
      await Promise.all(
        copies.map(async (copy, s) => {
          for (let c = s; c < companies; c += streams) {
            const cik = benchFactsCik(c);
            for (const line of lines[c % lines.length]!) await copy.writeLine(`${cik}\t${line}`);
          }
          await copy.end();
        }),
      );
    } catch (error) {
      for (const copy of copies) copy.kill();
      throw error;
    }
  });
  await timed(`unique key index built after the load (${indexes.map((i) => i.name).join(', ')})`, () => rebuildIndexes(url, indexes));
  await timed('VACUUM ANALYZE', () => withClient(url, (c) => c.query('VACUUM ANALYZE xbrl_fact_reports')));
  return { rows: loaded, companies, phases };
}

/** The loaded companies' CIKs, by a skip scan of the key index (one descent per company, not a 50M-row DISTINCT). */
export async function loadedCiks(url: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ cik: string }>(`
      WITH RECURSIVE k(cik) AS (
        (SELECT cik FROM xbrl_fact_reports ORDER BY cik LIMIT 1)
        UNION ALL
        SELECT (SELECT r.cik FROM xbrl_fact_reports r WHERE r.cik > k.cik ORDER BY r.cik LIMIT 1) FROM k WHERE k.cik IS NOT NULL)
      SELECT cik FROM k WHERE cik IS NOT NULL`);
    return rows.map((r) => r.cik);
  });
}
