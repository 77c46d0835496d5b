/**
 * Whether one segment breakdown adds up the way the filer's table adds it up. Pure arithmetic over
 * figures the extractors read (inline XBRL or a plain instance); shared by both.
 *
 * A breakdown is the `segment` members of one concept, axis, period and unit (members that are the
 * sum of other members, such as Apple's Products = iPhone + Mac + ..., left out of the sum). It is
 * held to, in this order:
 * 1. the consolidated total (the undimensioned figure of the same concept): the segments alone, or
 *    the segments plus the corporate, eliminations and other reconciling rows of the same concept
 *    (`srt:ConsolidationItemsAxis` members);
 * 2. the filer's reconciliation table (inline XBRL only): the table that prints the segments' total
 *    and then reconciling rows of any concept on a corporate, eliminations or reconciling member
 *    (Apple's "Research and development expense (8,550)", NVIDIA's "Stock-based compensation
 *    expense (1,624)"), signed as printed, down to the first undimensioned figure after them (the
 *    total it reconciles to, whatever its concept: NVIDIA reconciles segment operating income to
 *    income before income tax);
 * 3. the operating segments' total alone (`srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember`
 *    with no other dimension, ASU 2023-07), when no consolidated total is tagged.
 * Independently, the segments alone are checked against the operating segments' total when the
 * filer tags one (`segmentsMatch`).
 *
 * Tolerance: each printed figure is rounded to its decimals, so a sum may be off by half a unit of
 * the last digit per figure added.
 */

/** The kind of a reconciling row: corporate or unallocated, intersegment eliminations, other reconciling items. */
export type ReconcilingKind = 'corporate' | 'eliminations' | 'other';

export interface ReconcilingItem {
  concept: string;
  memberQName: string;
  memberKind: ReconcilingKind;
  /** The row label as printed (the member's name when the figure sits in no table row). */
  label: string;
  /** The amount as it adds to the segments: negative where the filer prints it in parentheses. */
  value: number;
}

/** How the breakdown reached the total it is held to. */
export type ReconciliationMethod = 'segments_alone' | 'with_reconciling_items';
/** Which total: the consolidated figure of the concept, the filer's reconciliation table's total, or the operating segments' total. */
export type ReconciliationTotalFrom = 'consolidated' | 'filer_table' | 'operating_segments';

export interface SegmentReconciliation {
  concept: string;
  /** The breakdown's axis (us-gaap:StatementBusinessSegmentsAxis, srt:ProductOrServiceAxis, srt:StatementGeographicalAxis). */
  axis: string;
  dimension: string;
  startDate: string | null;
  endDate: string;
  unit: string;
  /** Member QNames of the breakdown (subtotals included), in document order. */
  memberQNames: string[];
  members: number;
  /** Members that are the sum of other members of the breakdown (Products = iPhone + Mac + ...): left out of the sum. */
  subtotals: string[];
  /** Sum of the members, subtotals left out. */
  membersSum: number;
  /** The operating segments' total as tagged, else null. */
  operatingSegmentsTotal: number | null;
  /** membersSum against operatingSegmentsTotal; null when the filer tags no such total. */
  segmentsMatch: boolean | null;
  /** The rows added to the segments to reach `total` (empty when the segments alone reach it). */
  reconcilingItems: ReconcilingItem[];
  total: number | null;
  /** Concept of `total` (the breakdown's, or the filer's table's total row). */
  totalConcept: string | null;
  totalFrom: ReconciliationTotalFrom | null;
  method: ReconciliationMethod | null;
  /** membersSum + reconciling items - total; null without a total. */
  difference: number | null;
  /** |difference| within the rounding of the printed figures; null without a total. */
  matches: boolean | null;
}

export interface Figure {
  value: number;
  decimals: string | null;
}

/** What one breakdown is held to; `filerTable` is only looked up when the consolidated total is not reached. */
export interface BreakdownInput {
  concept: string;
  axis: string;
  dimension: string;
  startDate: string | null;
  endDate: string;
  unit: string;
  members: ReadonlyArray<Figure & { memberQName: string }>;
  /** Corporate, eliminations and reconciling rows of the same concept and period (consolidation axis alone). */
  rows: ReadonlyArray<ReconcilingItem & Figure>;
  operatingSegmentsTotal: number | null;
  consolidatedTotal: number | null;
  filerTable?: () => { items: Array<ReconcilingItem & Figure>; total: Figure & { concept: string } } | null;
}

/** Half a unit of the last printed digit: how far a rounded figure may be from the exact one. */
export function roundingOf(f: { decimals: string | null }): number {
  return f.decimals && /^-?\d+$/.test(f.decimals) ? 0.5 * 10 ** -Number(f.decimals) : 0;
}

const sumOf = (xs: ReadonlyArray<{ value: number }>): number => xs.reduce((a, x) => a + x.value, 0);
const toleranceOf = (xs: ReadonlyArray<Figure>): number => xs.reduce((a, x) => a + roundingOf(x), 0);
const within = (difference: number, tolerance: number): boolean => Math.abs(difference) <= Math.max(tolerance, 0.5);
const item = ({ concept, memberQName, memberKind, label, value }: ReconcilingItem): ReconcilingItem => ({ concept, memberQName, memberKind, label, value });

/** Breakdowns wider than this are not searched for subtotals (2^n subsets). */
const SUBTOTAL_SEARCH_MAX = 14;

/** The members equal to the sum of two or more other members of the same breakdown. */
export function subtotalsOf<M extends Figure>(members: ReadonlyArray<M>, tolerance: number): M[] {
  if (members.length < 3 || members.length > SUBTOTAL_SEARCH_MAX) return [];
  const eps = Math.max(tolerance, 0.5);
  return members.filter((parent) => {
    const others = members.filter((m) => m !== parent);
    for (let mask = 1; mask < 1 << others.length; mask++) {
      if ((mask & (mask - 1)) === 0) continue; // a single member is not a breakdown
      let sum = 0;
      for (let i = 0; i < others.length; i++) if (mask & (1 << i)) sum += others[i]!.value;
      if (Math.abs(sum - parent.value) <= eps) return true;
    }
    return false;
  });
}

/** One breakdown against the filer's totals (see the header for the order). Pure. */
export function reconcileBreakdown(b: BreakdownInput): SegmentReconciliation {
  const tolerance = toleranceOf(b.members);
  const subtotals = subtotalsOf(b.members, tolerance);
  const membersSum = sumOf(b.members.filter((m) => !subtotals.includes(m)));
  const base = {
    concept: b.concept,
    axis: b.axis,
    dimension: b.dimension,
    startDate: b.startDate,
    endDate: b.endDate,
    unit: b.unit,
    memberQNames: b.members.map((m) => m.memberQName),
    members: b.members.length,
    subtotals: subtotals.map((m) => m.memberQName),
    membersSum,
    operatingSegmentsTotal: b.operatingSegmentsTotal,
    segmentsMatch: b.operatingSegmentsTotal === null ? null : within(membersSum - b.operatingSegmentsTotal, tolerance),
  };
  const outcome = (
    items: ReadonlyArray<ReconcilingItem & Figure>,
    total: number,
    totalConcept: string,
    totalFrom: ReconciliationTotalFrom,
  ): SegmentReconciliation => {
    const difference = membersSum + sumOf(items) - total;
    return {
      ...base,
      reconcilingItems: items.map(item),
      total,
      totalConcept,
      totalFrom,
      method: items.length > 0 ? 'with_reconciling_items' : 'segments_alone',
      difference,
      matches: within(difference, tolerance + toleranceOf(items)),
    };
  };

  if (b.consolidatedTotal !== null) {
    const alone = outcome([], b.consolidatedTotal, b.concept, 'consolidated');
    if (alone.matches) return alone;
    const withRows = b.rows.length > 0 ? outcome(b.rows, b.consolidatedTotal, b.concept, 'consolidated') : null;
    if (withRows?.matches) return withRows;
    const table = b.filerTable?.() ?? null;
    const fromTable = table ? outcome(table.items, table.total.value, table.total.concept, 'filer_table') : null;
    if (fromTable?.matches) return fromTable;
    return withRows ?? alone;
  }
  const table = b.filerTable?.() ?? null;
  if (table) return outcome(table.items, table.total.value, table.total.concept, 'filer_table');
  if (b.operatingSegmentsTotal !== null) return outcome([], b.operatingSegmentsTotal, b.concept, 'operating_segments');
  return { ...base, reconcilingItems: [], total: null, totalConcept: null, totalFrom: null, method: null, difference: null, matches: null };
}
