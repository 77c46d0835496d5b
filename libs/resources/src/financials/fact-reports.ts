import type { FactReport } from '@app/persistence';

/*
 * A value is (concept, unit, period, dimensions); its reports are the filings that reported it.
 * These pure functions pick, for each value, the report that stood on a day (as_of) and mark each
 * report of a value's history as first reported, restated or reaffirmed.
 */

/** Identity of the value a report reports (dimensions in key order, so {} and key order do not matter). */
export function valueKey(r: Pick<FactReport, 'concept' | 'unit' | 'periodStart' | 'periodEnd' | 'dimensions'>): string {
  const dims = Object.keys(r.dimensions)
    .sort()
    .map((axis) => `${axis}=${r.dimensions[axis]}`)
    .join(',');
  return `${r.concept}|${r.unit}|${r.periodStart ?? ''}|${r.periodEnd}|${dims}`;
}

/** Older report first: by filing date, then accession (two filings of one day: the greater accession is the later). */
export function compareFiled(a: Pick<FactReport, 'filed' | 'accession'>, b: Pick<FactReport, 'filed' | 'accession'>): number {
  return a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : a.accession < b.accession ? -1 : a.accession > b.accession ? 1 : 0;
}

/**
 * One report per value: the latest filed on or before `asOf` (YYYY-MM-DD; every report when
 * absent). A value first reported after asOf is left out: it did not exist yet. Values keep the
 * order in which their first report appears in `reports`.
 */
export function latestReports(reports: readonly FactReport[], asOf?: string): FactReport[] {
  const latest = new Map<string, FactReport>();
  for (const r of reports) {
    if (asOf !== undefined && r.filed > asOf) continue;
    const key = valueKey(r);
    const held = latest.get(key);
    if (!held || compareFiled(held, r) < 0) latest.set(key, r);
  }
  return [...latest.values()];
}

export type ReportStatus = 'first_reported' | 'restated' | 'reaffirmed';

export interface ReportInHistory {
  report: FactReport;
  /** first_reported: the value's first report; restated: its value differs from the report before it; reaffirmed: the same value again. */
  status: ReportStatus;
  /** The value of the report before it (null for the first). */
  previousValue: string | null;
}

/** Every report of every value, oldest first within a value, each with its status. Values keep their first appearance's order. */
export function reportHistory(reports: readonly FactReport[]): ReportInHistory[] {
  const byValue = new Map<string, FactReport[]>();
  for (const r of reports) {
    const key = valueKey(r);
    const list = byValue.get(key);
    if (list) list.push(r);
    else byValue.set(key, [r]);
  }
  const out: ReportInHistory[] = [];
  for (const list of byValue.values()) {
    list.sort(compareFiled);
    list.forEach((report, i) => {
      const previous = i === 0 ? null : list[i - 1]!;
      const status: ReportStatus = previous === null ? 'first_reported' : sameDecimal(previous.value, report.value) ? 'reaffirmed' : 'restated';
      out.push({ report, status, previousValue: previous?.value ?? null });
    });
  }
  return out;
}

/* Exact decimal arithmetic over the reported text: a derived figure is never rounded by a float. */

interface Decimal {
  units: bigint;
  scale: number;
}

function parseDecimal(text: string): Decimal {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  let digits = `${m[2] ?? ''}${m[3] ?? ''}` || '0';
  let scale = (m[3] ?? '').length - Number(m[4] ?? 0);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  const units = BigInt(digits);
  return { units: m[1] === '-' ? -units : units, scale };
}

const rescale = (d: Decimal, scale: number): bigint => d.units * 10n ** BigInt(scale - d.scale);

function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  if (scale > 0) digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '');
  return `${negative && digits !== '0' ? '-' : ''}${digits}`;
}

/** a + b, or a - b for each subtracted term: exact decimal text. */
export function decimalSum(terms: ReadonlyArray<{ value: string; sign: 1 | -1 }>): string {
  const parsed = terms.map((t) => ({ d: parseDecimal(t.value), sign: t.sign }));
  const scale = Math.max(0, ...parsed.map((p) => p.d.scale));
  const total = parsed.reduce((sum, p) => sum + BigInt(p.sign) * rescale(p.d, scale), 0n);
  return formatDecimal(total, scale);
}

/** Whether two decimal texts are the same number (1.50 and 1.5 are). */
export function sameDecimal(a: string, b: string): boolean {
  return decimalSum([{ value: a, sign: 1 }, { value: b, sign: -1 }]) === '0';
}
