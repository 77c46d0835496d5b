import type { FactReport } from '@app/persistence';
import { gap, type GapBody, type GapCode } from '../gap.resource';
import { decimalSum, sameDecimal } from './fact-reports';
import { lineItemsOf, type LineItem, type StatementKind, type UnitKind } from './line-items';

/*
 * A standard statement from the reports that stood on a day (latestReports): columns are the
 * company's fiscal years or quarters, rows the catalogue's line items. Reported values are taken
 * as they are; a quarter no filing reports is derived from year-to-date figures; a value that
 * cannot be had is null with the reason, never guessed. Pure.
 */

export type StatementPeriod = 'annual' | 'quarter';
export const STATEMENT_PERIODS = ['annual', 'quarter'] as const satisfies readonly StatementPeriod[];

/** Days a duration spans (end - start) to count as a fiscal year or a quarter. */
export const ANNUAL_DAYS = { min: 350, max: 380 } as const;
export const QUARTER_DAYS = { min: 80, max: 100 } as const;

export interface StatementColumn {
  /** First day of the year or quarter (null only for an annual column whose start no report gives). */
  start: string | null;
  end: string;
  /** The calendar year of the fiscal year's end. */
  fiscalYear: number;
  fiscalPeriod: 'FY' | 'Q1' | 'Q2' | 'Q3' | 'Q4';
}

export interface DerivationInput {
  /** The line item an input came from (formulas), else null. */
  item: string | null;
  concept: string | null;
  sign: 1 | -1;
  periodStart: string | null;
  periodEnd: string;
  value: string;
  /** The report the input was read from; null for an input itself derived. */
  report: FactReport | null;
}

export interface Derivation {
  /** ytd_difference: a longer year-to-date figure minus the shorter one ending the day before the quarter (Q4: the year minus nine months); year_minus_three_quarters; formula: the item's formula over other items. */
  method: 'ytd_difference' | 'year_minus_three_quarters' | 'formula';
  expression: string;
  inputs: DerivationInput[];
}

export interface StatementFlag {
  code: 'derived_disagrees';
  message: string;
  reported: string;
  derived: string;
  /** reported - derived. */
  difference: string;
  derivation: Derivation;
}

export interface StatementCell {
  /** Exact decimal text; null when the value cannot be had (see gap). */
  value: string | null;
  unit: string | null;
  concept: string | null;
  /** The filer's label of the row (inline XBRL), else the concept's label. */
  label: string | null;
  derived: boolean;
  derivation: Derivation | null;
  /** The report the value came from (null when derived: its inputs name theirs). */
  report: FactReport | null;
  flags: StatementFlag[];
  /** Why the value is null, and its gap code (both null when there is a value). */
  gap: string | null;
  gapCode: GapCode | null;
}

export interface StatementRow {
  item: LineItem;
  cells: StatementCell[];
}

export interface BuiltStatement {
  statement: StatementKind;
  period: StatementPeriod;
  /** Newest first. */
  columns: StatementColumn[];
  rows: StatementRow[];
  /** Why values are null, one per item (or per item and period). */
  gaps: GapBody[];
}

export interface BuildOptions {
  /** Number of periods, newest first (default all). */
  limit?: number;
  /** Concept QName -> the taxonomy's label, for values without the filer's own label. */
  conceptLabels?: ReadonlyMap<string, string>;
}

const DAY = 86_400_000;
const toTime = (d: string): number => Date.parse(`${d}T00:00:00Z`);
const addDays = (d: string, n: number): string => new Date(toTime(d) + n * DAY).toISOString().slice(0, 10);
const days = (r: { periodStart: string | null; periodEnd: string }): number => (r.periodStart === null ? -1 : Math.round((toTime(r.periodEnd) - toTime(r.periodStart)) / DAY));
const within = (n: number, range: { min: number; max: number }): boolean => n >= range.min && n <= range.max;

const UNIT_PATTERNS: Record<UnitKind, RegExp> = { currency: /^[A-Z]{3}$/, per_share: /^[A-Z]{3}\/shares$/, shares: /^shares$/ };

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)! || (n === counts.get(best)! && v < best)) best = v;
  return best;
}

/** A report of an annual filing: a 10-K, 20-F or 40-F (and amendments), or a filing whose fiscal period is FY. */
function isAnnualReport(r: FactReport): boolean {
  return r.fiscalPeriod === 'FY' || /^(10-K|20-F|40-F)/.test(r.form);
}

/** The company's fiscal years and quarters, from the durations its reports span. */
export function statementColumns(reports: readonly FactReport[], period: StatementPeriod): StatementColumn[] {
  const annualStarts = new Map<string, string[]>();
  const quarterStarts = new Map<string, string[]>();
  // The quarter a 10-Q names its period (fp Q1-Q3; its comparatives are the same quarter a year before).
  const quarterNames = new Map<string, string[]>();
  const push = (into: Map<string, string[]>, key: string, value: string) => {
    const list = into.get(key);
    if (list) list.push(value);
    else into.set(key, [value]);
  };
  for (const r of reports) {
    if (r.periodStart === null) continue;
    const n = days(r);
    // A fiscal year only from an annual report: a 10-Q's twelve months ended (utilities print them) are not one.
    if (within(n, ANNUAL_DAYS) && isAnnualReport(r)) push(annualStarts, r.periodEnd, r.periodStart);
    else if (within(n, QUARTER_DAYS)) {
      push(quarterStarts, r.periodEnd, r.periodStart);
      if (r.fiscalPeriod && /^Q[1-3]$/.test(r.fiscalPeriod)) push(quarterNames, r.periodEnd, r.fiscalPeriod);
    }
  }
  const yearEnds = [...annualStarts.keys()].sort();
  const fiscalYearOf = (end: string): number => {
    const yearEnd = yearEnds.find((e) => e >= end);
    if (yearEnd) return Number(yearEnd.slice(0, 4));
    // A quarter of a year not closed yet: the year after the last one closed.
    const last = yearEnds[yearEnds.length - 1];
    return last ? Number(last.slice(0, 4)) + 1 : Number(end.slice(0, 4));
  };
  if (period === 'annual') {
    return yearEnds
      .map((end) => ({ start: mostCommon(annualStarts.get(end)!), end, fiscalYear: Number(end.slice(0, 4)), fiscalPeriod: 'FY' as const }))
      .reverse();
  }
  const ends = [...new Set([...quarterStarts.keys(), ...yearEnds])].sort();
  const columns: StatementColumn[] = [];
  ends.forEach((end, i) => {
    let start = quarterStarts.has(end) ? mostCommon(quarterStarts.get(end)!) : null;
    // A year's last quarter that no filing reports: it starts the day after the quarter before it.
    if (start === null && i > 0) {
      const candidate = addDays(ends[i - 1]!, 1);
      if (within(days({ periodStart: candidate, periodEnd: end }), QUARTER_DAYS)) start = candidate;
    }
    if (start === null) return;
    const previousYearEnd = [...yearEnds].reverse().find((e) => e < end);
    const named = quarterNames.has(end) ? Number(mostCommon(quarterNames.get(end)!)!.slice(1)) : null;
    // Before the first year end on record (a new filer, or as_of before its first 10-K): the quarter its 10-Q names.
    const fromYearEnd = (yearEnd: string) => Math.min(4, Math.max(1, Math.round((toTime(end) - toTime(yearEnd)) / DAY / 91.3)));
    const n = previousYearEnd ? fromYearEnd(previousYearEnd) : (named ?? fromYearEnd(addDays(yearEnds.find((e) => e >= end) ?? end, -365)));
    columns.push({ start, end, fiscalYear: fiscalYearOf(end), fiscalPeriod: `Q${n}` as StatementColumn['fiscalPeriod'] });
  });
  return columns.reverse();
}

/** How a period is named in gaps and flags: FY2024 (2023-10-01..2024-09-28). */
export function columnName(c: StatementColumn): string {
  const name = c.fiscalPeriod === 'FY' ? `FY${c.fiscalYear}` : `FY${c.fiscalYear} ${c.fiscalPeriod}`;
  return `${name} (${c.start ?? '?'}..${c.end})`;
}

interface ConceptReports {
  concept: string;
  reports: FactReport[];
}

/** One concept's reports in one unit, by period end. */
interface UnitReports {
  unit: string;
  byEnd: Map<string, FactReport[]>;
}

/** Whether a report is the item's value for the column: same end; a duration of the column's length, or an instant. */
function matches(r: FactReport, item: LineItem, column: StatementColumn, period: StatementPeriod): boolean {
  if (r.periodEnd !== column.end) return false;
  if (item.periodType === 'instant') return r.periodStart === null;
  return r.periodStart !== null && within(days(r), period === 'annual' ? ANNUAL_DAYS : QUARTER_DAYS);
}

const inputOf = (r: FactReport, sign: 1 | -1): DerivationInput => ({ item: null, concept: r.concept, sign, periodStart: r.periodStart, periodEnd: r.periodEnd, value: r.value, report: r });
const span = (r: { periodStart: string | null; periodEnd: string }): string => `${r.periodStart}..${r.periodEnd}`;

/**
 * A quarter from the concept's longer figures: a year-to-date duration ending with the quarter
 * minus the one of the same start ending the day before it (Q4: the year minus nine months;
 * Q2, Q3 of a cash flow statement: six minus three, nine minus six months), else (Q4) the year
 * minus its three reported quarters. Null when the reports do not allow it.
 */
export function deriveQuarter(reports: readonly FactReport[], column: StatementColumn): Derivation | null {
  if (column.start === null) return null;
  const byEnd = new Map<string, FactReport[]>();
  for (const r of reports) {
    const list = byEnd.get(r.periodEnd);
    if (list) list.push(r);
    else byEnd.set(r.periodEnd, [r]);
  }
  return deriveQuarterIndexed(byEnd, column);
}

function deriveQuarterIndexed(byEnd: ReadonlyMap<string, readonly FactReport[]>, column: StatementColumn): Derivation | null {
  const start = column.start;
  if (start === null) return null;
  const dayBefore = addDays(start, -1);
  const longer = (byEnd.get(column.end) ?? []).filter((r) => r.periodStart !== null && r.periodStart < start).sort((a, b) => a.periodStart!.localeCompare(b.periodStart!));
  for (const whole of longer) {
    const part = byEnd.get(dayBefore)?.find((r) => r.periodStart === whole.periodStart && r.unit === whole.unit);
    if (part) return { method: 'ytd_difference', expression: `${whole.concept} ${span(whole)} - ${span(part)}`, inputs: [inputOf(whole, 1), inputOf(part, -1)] };
  }
  for (const year of longer.filter((r) => within(days(r), ANNUAL_DAYS))) {
    // Q1, Q2, Q3 tiling the year from its first day up to the day before the quarter.
    const quarters: FactReport[] = [];
    let from = year.periodStart!;
    while (quarters.length < 3) {
      const q = [...byEnd.values()].flat().find((r) => r.periodStart === from && r.unit === year.unit && within(days(r), QUARTER_DAYS));
      if (!q) break;
      quarters.push(q);
      from = addDays(q.periodEnd, 1);
    }
    if (quarters.length === 3 && from === start) {
      return { method: 'year_minus_three_quarters', expression: `${year.concept} ${span(year)} - Q1 - Q2 - Q3`, inputs: [inputOf(year, 1), ...quarters.map((q) => inputOf(q, -1))] };
    }
  }
  return null;
}

const valueOf = (d: Derivation): string => decimalSum(d.inputs.map((i) => ({ value: i.value, sign: i.sign })));

function disagreement(reported: string, derivation: Derivation, what: string): StatementFlag | null {
  const derived = valueOf(derivation);
  if (sameDecimal(reported, derived)) return null;
  const difference = decimalSum([
    { value: reported, sign: 1 },
    { value: derived, sign: -1 },
  ]);
  return { code: 'derived_disagrees', message: `reported ${reported} differs from ${what} ${derived} (${derivation.expression})`, reported, derived, difference, derivation };
}

const emptyCell = (gapCode: GapCode, gap: string): StatementCell => ({ value: null, unit: null, concept: null, label: null, derived: false, derivation: null, report: null, flags: [], gap, gapCode });

/** The cell of a formula item: its two inputs' values for the column, when both have one in one unit. */
function formulaDerivation(item: LineItem, cells: ReadonlyMap<string, StatementCell>): { derivation: Derivation; unit: string } | { missing: string } {
  const f = item.formula!;
  const left = cells.get(f.left);
  const right = cells.get(f.right);
  const missing = [left?.value == null ? f.left : null, right?.value == null ? f.right : null].filter((m) => m !== null);
  if (missing.length) return { missing: missing.join(' and ') };
  if (left!.unit !== right!.unit) return { missing: `${f.left} and ${f.right} in one unit` };
  const input = (key: string, c: StatementCell, sign: 1 | -1): DerivationInput => ({
    item: key,
    concept: c.concept,
    sign,
    periodStart: c.report?.periodStart ?? null,
    periodEnd: c.report?.periodEnd ?? '',
    value: c.value!,
    report: c.report,
  });
  const sign = f.op === 'difference' ? -1 : 1;
  return {
    unit: left!.unit!,
    derivation: { method: 'formula', expression: `${f.left} ${sign < 0 ? '-' : '+'} ${f.right}`, inputs: [input(f.left, left!, 1), input(f.right, right!, sign)] },
  };
}

/** A concept's reports of a unit kind in its one unit (the one the filer uses most: a second currency is rare), by period end; cached per build. */
function unitReports(byConcept: ReadonlyMap<string, ConceptReports>, cache: Map<string, UnitReports | null>, concept: string, unitKind: UnitKind): UnitReports | null {
  const key = `${concept}|${unitKind}`;
  if (cache.has(key)) return cache.get(key)!;
  const all = byConcept.get(concept)?.reports.filter((r) => UNIT_PATTERNS[unitKind].test(r.unit)) ?? [];
  let found: UnitReports | null = null;
  if (all.length) {
    const unit = mostCommon(all.map((r) => r.unit))!;
    const byEnd = new Map<string, FactReport[]>();
    for (const r of all) {
      if (r.unit !== unit) continue;
      const list = byEnd.get(r.periodEnd);
      if (list) list.push(r);
      else byEnd.set(r.periodEnd, [r]);
    }
    found = { unit, byEnd };
  }
  cache.set(key, found);
  return found;
}

interface BuildContext {
  period: StatementPeriod;
  byConcept: ReadonlyMap<string, ConceptReports>;
  cache: Map<string, UnitReports | null>;
  labels: ReadonlyMap<string, string>;
}

function cellFor(item: LineItem, column: StatementColumn, done: ReadonlyMap<string, StatementCell>, ctx: BuildContext): StatementCell {
  const { period, byConcept, labels } = ctx;
  const quarterFlow = period === 'quarter' && item.periodType === 'duration';
  let cell: StatementCell | null = null;
  // A value some concept of the chain reports for the period wins over one derived from an earlier concept.
  for (const concept of item.concepts) {
    const found = unitReports(byConcept, ctx.cache, concept, item.unitKind);
    if (!found) continue;
    const { unit, byEnd } = found;
    const reported = byEnd.get(column.end)?.find((r) => matches(r, item, column, period));
    if (reported) {
      cell = { value: reported.value, unit, concept, label: reported.label ?? labels.get(concept) ?? null, derived: false, derivation: null, report: reported, flags: [], gap: null, gapCode: null };
      if (quarterFlow && item.additive) {
        const derivation = deriveQuarterIndexed(byEnd, column);
        const flag = derivation && disagreement(reported.value, derivation, derivation.method === 'ytd_difference' ? 'the year-to-date difference' : 'the year minus three quarters');
        if (flag) cell.flags.push(flag);
      }
      break;
    }
  }
  for (const concept of quarterFlow && item.additive && !cell ? item.concepts : []) {
    const found = unitReports(byConcept, ctx.cache, concept, item.unitKind);
    const derivation = found && deriveQuarterIndexed(found.byEnd, column);
    if (found && derivation) {
      const whole = derivation.inputs[0]!.report!;
      cell = { value: valueOf(derivation), unit: found.unit, concept, label: whole.label ?? labels.get(concept) ?? null, derived: true, derivation, report: null, flags: [], gap: null, gapCode: null };
      break;
    }
  }
  if (item.formula) {
    const formula = formulaDerivation(item, done);
    if (cell && 'derivation' in formula) {
      const flag = disagreement(cell.value!, formula.derivation, formula.derivation.expression);
      if (flag) cell.flags.push(flag);
    }
    if (!cell) {
      if ('derivation' in formula) {
        return { value: valueOf(formula.derivation), unit: formula.unit, concept: null, label: null, derived: true, derivation: formula.derivation, report: null, flags: [], gap: null, gapCode: null };
      }
      const reported = item.concepts.length ? `not reported (${item.concepts.join(', ')}), and ` : '';
      return emptyCell('not_derivable', `${reported}not derivable as ${item.formula.left} ${item.formula.op === 'difference' ? '-' : '+'} ${item.formula.right}: ${formula.missing} unavailable for this period`);
    }
  }
  if (cell) return cell;
  const reportsAny = item.concepts.some((c) => byConcept.has(c));
  if (!reportsAny) return emptyCell('concept_not_reported', `the filer reports none of ${item.concepts.join(', ')}`);
  if (quarterFlow && !item.additive) return emptyCell('not_reported_for_period', 'not reported for this quarter; per-share amounts and share counts are not derived from other periods');
  if (quarterFlow) return emptyCell('not_reported_for_period', 'not reported for this quarter, and no year-to-date or annual figures of the same concept to derive it from');
  return emptyCell('not_reported_for_period', `not reported for this period (${item.concepts.filter((c) => byConcept.has(c)).join(', ')})`);
}

/**
 * One statement (income, balance or cash_flow) by fiscal year or quarter, newest first, from the
 * latest reports of each value (consolidated facts only; dimensioned ones are ignored). Pass the
 * reports of every catalogue concept, not only this statement's: a balance sheet finds its year
 * ends from the income and cash flow durations.
 */
export function buildStatement(latest: readonly FactReport[], statement: StatementKind, period: StatementPeriod, options: BuildOptions = {}): BuiltStatement {
  const consolidated = latest.filter((r) => Object.keys(r.dimensions).length === 0);
  const byConcept = new Map<string, ConceptReports>();
  for (const r of consolidated) {
    const entry = byConcept.get(r.concept);
    if (entry) entry.reports.push(r);
    else byConcept.set(r.concept, { concept: r.concept, reports: [r] });
  }
  const all = statementColumns(consolidated, period);
  const columns = options.limit === undefined ? all : all.slice(0, options.limit);
  const ctx: BuildContext = { period, byConcept, cache: new Map(), labels: options.conceptLabels ?? new Map<string, string>() };
  const items = lineItemsOf(statement);
  const rows: StatementRow[] = items.map((item) => ({ item, cells: [] }));
  for (const column of columns) {
    const done = new Map<string, StatementCell>();
    rows.forEach((row) => {
      const cell = cellFor(row.item, column, done, ctx);
      done.set(row.item.key, cell);
      row.cells.push(cell);
    });
  }
  const gaps: GapBody[] = [];
  if (columns.length === 0) {
    gaps.push(gap('no_periods', `no ${period === 'annual' ? 'fiscal year' : 'quarter'} found in the reports filed${period === 'quarter' ? ' (durations of 80 to 100 days)' : ' (durations of 350 to 380 days)'}`));
  }
  for (const row of rows) {
    const missing = row.cells.map((c, i) => ({ c, column: columns[i]! })).filter(({ c }) => c.value === null);
    if (missing.length === 0) continue;
    if (missing.length === columns.length && new Set(missing.map(({ c }) => c.gap)).size === 1) gaps.push(gap(missing[0]!.c.gapCode!, `${row.item.key}: ${missing[0]!.c.gap}`, row.item.key));
    else for (const { c, column } of missing) gaps.push(gap(c.gapCode!, `${row.item.key} ${columnName(column)}: ${c.gap}`, row.item.key));
  }
  return { statement, period, columns, rows, gaps };
}
