import { isTag, type Element } from 'domhandler';
import { EdgarParseError } from '../edgar.parse-error';
import { factValue, IxbrlFormatError } from './ixbrl.numbers';
import { documentInfoOf, normalizeWhitespace, parseIxbrl, textContent, type DocumentInfo, type IxContext, type IxDocument, type IxNumericFact } from './ixbrl.document';
import {
  calendarQuarter,
  fiscalLabel,
  parseFiscalYearEnd,
  periodKind,
  type FiscalCalendar,
  type PeriodKind,
} from './ixbrl.periods';
import { isRow, letters, rowOf, rowTexts, type RowText } from './ixbrl.rows';

/**
 * Segment facts of an inline-XBRL 10-Q / 10-K.
 *
 * Selection: every ix:nonFraction of a revenue or operating-income concept (SEGMENT_CONCEPTS) whose
 * context has exactly ONE dimension and that dimension is one of SEGMENT_AXES (a
 * `srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember` qualifier is allowed beside it: it
 * marks the segment's own figure and does not subdivide it). Two more shapes are read: a segment's
 * revenue with `srt:ConsolidationItemsAxis = us-gaap:IntersegmentEliminationMember` beside it (its
 * intersegment revenue, metric intersegment_revenue: its own key, not folded into the total), and a
 * figure whose one dimension is a corporate, eliminations or reconciling member of that axis (the
 * rows a segment table adds to its segments). Contexts with further dimensions (a segment crossed
 * with a product line, a geography crossed with a customer class) are not segment totals: they are
 * skipped and counted in `skipped.multiDimension`, so every observation reads "<member> <metric> for
 * <period>" unambiguously. Every member carries its kind (memberKindOf).
 *
 * Dedup: the same figure is often printed in several tables (the segment note and MD&A). Facts with
 * the same concept, the same context content (dimension + period, not merely the context id), unit
 * and value are one observation; the first one in document order is kept (its row gives the label
 * and the quote). Same key with a different value is a conflict and is counted, the first kept.
 *
 * Text: `quote` is the text content of the table row (`tr`) holding the fact, whitespace normalized
 * (normalizeWhitespace); when that row does not name the member (Apple's "Net sales" under an
 * "Americas:" row, NVIDIA's "Revenue" rows under a "Compute & Networking" column header, prior-year
 * rows), it runs from the nearest row above that does, through the fact's row. Either way it is a
 * substring of normalizeWhitespace(text content of the whole document). `issuer_label` is the first
 * non-empty cell of the fact's row as printed. A fact outside any table row (ix:hidden) is quoted by
 * its own displayed text and labelled with the member name.
 *
 * Totals: each breakdown (concept, axis, period, unit) of `segment` members is reconciled with the
 * filer's own total (SegmentReconciliation), members that are subtotals of others left out.
 *
 * Member names: the issuer's own spelling when some table row label of the document (a row's first
 * cell with text, a header row's first column header too) equals the member's local name letter for
 * letter (case and punctuation aside, `&` read as "and":
 * "Compute & Networking" for nvda:ComputeAndNetworkingSegmentMember, "Rest of Asia Pacific" for
 * aapl:RestOfAsiaPacificSegmentMember, "iPhone" for aapl:IPhoneMember); else the label of the fact's
 * own row when that label is not a metric caption (net sales, revenues, income, total ...: "United
 * States" for country:US); otherwise the local name without `Member` split into words. Trademark
 * signs (® ™) are dropped from member names (they stay in issuer_label and quote).
 */

export const SEGMENT_AXES = {
  'us-gaap:StatementBusinessSegmentsAxis': 'segment',
  'srt:ProductOrServiceAxis': 'product_or_service',
  'srt:StatementGeographicalAxis': 'geography',
  // Only for a figure whose one dimension is a corporate, eliminations or reconciling member
  // (CONSOLIDATION_MEMBERS): the rows a segment table adds to its segments to reach the filer's total.
  'srt:ConsolidationItemsAxis': 'segment',
} as const;
export type SegmentAxis = keyof typeof SEGMENT_AXES;
export type SegmentDimension = (typeof SEGMENT_AXES)[SegmentAxis];

export const SEGMENT_CONCEPTS = {
  'us-gaap:Revenues': 'revenue',
  'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax': 'revenue',
  'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax': 'revenue',
  'us-gaap:SalesRevenueNet': 'revenue',
  'us-gaap:SalesRevenueGoodsNet': 'revenue',
  'us-gaap:SalesRevenueServicesNet': 'revenue',
  'us-gaap:RevenuesNetOfInterestExpense': 'revenue',
  'us-gaap:OperatingIncomeLoss': 'operating_income',
  'us-gaap:SegmentReportingInformationOperatingIncomeLoss': 'operating_income',
  // Filers that tag a segment's revenue from outside customers and from other segments apart.
  'us-gaap:SegmentReportingInformationRevenueFromExternalCustomers': 'third_party_revenue',
  'us-gaap:SegmentReportingInformationIntersegmentRevenue': 'intersegment_revenue',
} as const;
/** revenue and operating_income as tagged; third_party_revenue and intersegment_revenue where the filer tags them apart. */
export type SegmentMetric = (typeof SEGMENT_CONCEPTS)[keyof typeof SEGMENT_CONCEPTS];

/**
 * What a member is, as the filer's tagging says: one of its operating segments, product lines or
 * regions (`segment`); corporate or unallocated amounts (`corporate`); intersegment eliminations
 * (`eliminations`); other reconciling items (`other`). Only `segment` members add up to the total.
 */
export type MemberKind = 'segment' | 'corporate' | 'eliminations' | 'other';

/** srt:ConsolidationItemsAxis members that are rows of a segment table beside the segments. */
const CONSOLIDATION_MEMBERS: Record<string, MemberKind> = {
  'us-gaap:CorporateNonSegmentMember': 'corporate',
  'us-gaap:IntersegmentEliminationMember': 'eliminations',
  'us-gaap:MaterialReconcilingItemsMember': 'other',
  'us-gaap:SegmentReconcilingItemsMember': 'other',
};

/** The kind of a member: its QName's words say corporate, eliminations or reconciling items; else a segment. */
export function memberKindOf(memberQName: string): MemberKind {
  const known = CONSOLIDATION_MEMBERS[memberQName];
  if (known) return known;
  const local = memberQName.slice(memberQName.indexOf(':') + 1);
  if (/Elimination|Intersegment/i.test(local)) return 'eliminations';
  if (/Corporate|NonSegment|Unallocated/i.test(local)) return 'corporate';
  if (/Reconcil/i.test(local)) return 'other';
  return 'segment';
}

/** Stable metric key: `segment_<metric>.<dimension>`, e.g. `segment_revenue.segment`, `segment_revenue.geography`. */
export function metricKeyOf(metric: SegmentMetric, dimension: SegmentDimension): string {
  return `segment_${metric}.${dimension}`;
}

export interface SegmentPeriod {
  kind: PeriodKind;
  start_date: string | null;
  end_date: string;
  calendar: string;
  fiscal: string | null;
}

export interface SegmentFact {
  concept: string;
  metric: SegmentMetric;
  metricKey: string;
  axis: SegmentAxis;
  dimension: SegmentDimension;
  /** Member QName, e.g. `aapl:AmericasSegmentMember`. */
  memberQName: string;
  member: string;
  memberKind: MemberKind;
  contextId: string;
  /** Entity identifier of the context (the CIK). */
  entity: string | null;
  unit: string;
  decimals: string | null;
  scale: number;
  /** The value as reported: format, scale and sign applied. */
  value: number;
  /** The displayed text of the fact. */
  displayed: string;
  factId: string | null;
  period: SegmentPeriod;
  issuerLabel: string;
  quote: string;
}


/**
 * Whether the `segment` members of one breakdown (concept, axis, period, unit) add up to the total the
 * filer reports: the figure tagged `srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember`
 * alone (the segments' total, ASU 2023-07) when there is one, else the undimensioned (consolidated)
 * figure. `matches` allows the rounding of the printed figures; null when no total is tagged.
 */
export interface SegmentReconciliation {
  concept: string;
  dimension: SegmentDimension;
  startDate: string | null;
  endDate: string;
  unit: string;
  members: number;
  /** Members that are the sum of other members of the breakdown (Products = iPhone + Mac + ...): left out of the sum. */
  subtotals: string[];
  membersSum: number;
  total: number | null;
  totalFrom: 'operating_segments' | 'consolidated' | null;
  matches: boolean | null;
}

export interface SegmentExtraction {
  document: DocumentInfo;
  facts: SegmentFact[];
  reconciliations: SegmentReconciliation[];
  skipped: { multiDimension: number; duplicates: number; conflicts: number; nil: number; unreadable: number; missingContext: number };
}

/** `aapl:RestOfAsiaPacificSegmentMember` -> `restofasiapacific`. */
function memberStem(qname: string): string {
  const local = qname.slice(qname.indexOf(':') + 1).replace(/Member$/, '');
  return local;
}

function humanize(stem: string): string {
  const s = stem.replace(/Segment$/, '') || stem;
  return s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

/** Row labels that name a metric, not a member. */
const METRIC_CAPTION = /\b(net sales|sales|revenues?|income|loss|total|operating|segment)\b/i;

/** Label text without trailing colons or footnote marks, for matching only. */
function labelKey(label: string): string {
  return letters(label.replace(/\(\d\)$/, ''));
}

/**
 * `srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember` only says "the segment's own figure,
 * before eliminations" (the ASU 2023-07 tagging NVIDIA uses): it qualifies, it does not subdivide.
 */
function isQualifier(d: { axis: string; member: string }): boolean {
  return d.axis === 'srt:ConsolidationItemsAxis' && d.member === 'us-gaap:OperatingSegmentsMember';
}

/** A segment's figure from other segments: `srt:ConsolidationItemsAxis = us-gaap:IntersegmentEliminationMember` beside the segment axis. */
function isIntersegment(d: { axis: string; member: string }): boolean {
  return d.axis === 'srt:ConsolidationItemsAxis' && d.member === 'us-gaap:IntersegmentEliminationMember';
}

function segmentAxisOf(ctx: IxContext): { axis: SegmentAxis; member: string; intersegment: boolean } | 'none' | 'multi' {
  const dims = ctx.dimensions.filter((d) => !isQualifier(d));
  // A corporate, eliminations or reconciling row of a segment table, on the consolidation axis alone.
  if (dims.length === 1 && dims[0]!.axis === 'srt:ConsolidationItemsAxis') {
    return dims[0]!.member in CONSOLIDATION_MEMBERS ? { axis: 'srt:ConsolidationItemsAxis', member: dims[0]!.member, intersegment: false } : 'none';
  }
  const onAxis = ctx.dimensions.filter((d) => d.axis in SEGMENT_AXES && d.axis !== 'srt:ConsolidationItemsAxis');
  if (onAxis.length === 0) return 'none';
  // A segment's intersegment figure is a metric of its own beside the segment's total, not a subdivision.
  const intersegment = dims.length === 2 && dims.some(isIntersegment) && onAxis.length === 1;
  if (dims.length > 1 && !intersegment) return 'multi';
  const d = onAxis[0]!;
  return { axis: d.axis as SegmentAxis, member: d.member, intersegment };
}

/** The metric of a selected fact: the concept's, or intersegment_revenue for a revenue figure from other segments. */
export function segmentMetricOf(concept: string, intersegment: boolean): SegmentMetric {
  const metric = SEGMENT_CONCEPTS[concept as keyof typeof SEGMENT_CONCEPTS];
  return intersegment && metric === 'revenue' ? 'intersegment_revenue' : metric;
}

/**
 * The facts of segment concepts whose context sits on exactly one segment axis (nil facts and
 * facts of unknown or multi-dimension contexts are counted in `skipped`). Shared by the inline-XBRL
 * and the plain-instance extractors.
 */
export function selectSegmentFacts<F extends { concept: string; contextRef: string; nil: boolean }>(
  facts: Iterable<F>,
  contexts: ReadonlyMap<string, IxContext>,
  skipped: { missingContext: number; multiDimension: number; nil: number },
): Array<{ fact: F; ctx: IxContext; axis: SegmentAxis; member: string; metric: SegmentMetric }> {
  const selected: Array<{ fact: F; ctx: IxContext; axis: SegmentAxis; member: string; metric: SegmentMetric }> = [];
  for (const fact of facts) {
    if (!(fact.concept in SEGMENT_CONCEPTS)) continue;
    const ctx = contexts.get(fact.contextRef);
    if (!ctx) {
      skipped.missingContext += 1;
      continue;
    }
    const on = segmentAxisOf(ctx);
    if (on === 'none') continue;
    if (on === 'multi') {
      skipped.multiDimension += 1;
      continue;
    }
    if (fact.nil) {
      skipped.nil += 1;
      continue;
    }
    if (on.intersegment && SEGMENT_CONCEPTS[fact.concept as keyof typeof SEGMENT_CONCEPTS] !== 'revenue') {
      skipped.multiDimension += 1;
      continue;
    }
    selected.push({ fact, ctx, axis: on.axis, member: on.member, metric: segmentMetricOf(fact.concept, on.intersegment) });
  }
  return selected;
}

/** Parses the document and extracts its segment facts. Pure. */
export function extractSegments(bytes: Buffer | string): SegmentExtraction {
  return extractSegmentsFrom(parseIxbrl(bytes));
}

export function extractSegmentsFrom(doc: IxDocument): SegmentExtraction {
  // A document without a single xbrli:context is not inline XBRL (an HTML 10-Q of before 2019, a cover page).
  if (doc.contexts.size === 0) throw new EdgarParseError('inline XBRL', 'no xbrli:context in the document: not an inline-XBRL filing');
  const info = documentInfoOf(doc);
  const calendar: FiscalCalendar = {
    yearEnd: parseFiscalYearEnd(info.fiscalYearEnd),
    documentFiscalYear: info.fiscalYearFocus,
    documentPeriodEnd: info.periodEndDate ?? latestDurationEnd(doc),
  };
  const skipped = { multiDimension: 0, duplicates: 0, conflicts: 0, nil: 0, unreadable: 0, missingContext: 0 };
  const rowInfo = rowTexts();

  const selected = selectSegmentFacts<IxNumericFact>(doc.facts, doc.contexts, skipped);

  // Issuer spellings of member names: every row label of the document, by its letters.
  let labels: Map<string, string> | undefined;
  const labelFor = (memberQName: string): string | undefined => {
    if (!labels) {
      labels = new Map();
      collectRowLabels(doc, labels, rowInfo);
    }
    const stem = memberStem(memberQName);
    return labels.get(letters(stem)) ?? labels.get(letters(stem.replace(/Segment$/, '')));
  };

  const out: SegmentFact[] = [];
  const seen = new Map<string, number>();
  for (const { fact, ctx, axis, member, metric } of selected) {
    let value: number;
    try {
      value = factValue(fact.text, fact);
    } catch (error) {
      if (!(error instanceof IxbrlFormatError)) throw error;
      skipped.unreadable += 1;
      continue;
    }
    const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
    const dedupKey = [fact.concept, metric, axis, member, ctx.startDate ?? '', ctx.endDate, unit].join('|');
    const prior = seen.get(dedupKey);
    if (prior !== undefined) {
      if (prior === value) skipped.duplicates += 1;
      else skipped.conflicts += 1;
      continue;
    }
    seen.set(dedupKey, value);

    const dimension = SEGMENT_AXES[axis];
    const tr = rowOf(fact.element);
    const row = tr ? rowInfo(tr) : null;
    const ownLabel = row?.label && !METRIC_CAPTION.test(row.label) ? row.label.replace(/\s*\(\d\)$/, '').replace(/:$/, '') : undefined;
    const memberName = (labelFor(member) ?? ownLabel ?? humanize(memberStem(member))).replace(/[\u00ae\u2122]/g, '').trim();
    // A row that does not name its member ("Net sales" under "Americas:", "Revenue" under the
    // "Compute & Networking" column, the prior year's rows) is quoted from the row that names it.
    const quote = tr && row && !row.key.includes(letters(memberName)) ? (quoteFromNamingRow(tr, letters(memberName), rowInfo) ?? row.quote) : row?.quote;
    const kind = periodKind(ctx);
    out.push({
      concept: fact.concept,
      metric,
      metricKey: metricKeyOf(metric, dimension),
      axis,
      dimension,
      memberQName: member,
      member: memberName,
      memberKind: memberKindOf(member),
      contextId: ctx.id,
      entity: ctx.entity,
      unit,
      decimals: fact.decimals,
      scale: fact.scale ? Number(fact.scale) : 0,
      value,
      displayed: normalizeWhitespace(fact.text),
      factId: fact.id,
      period: {
        kind,
        start_date: ctx.startDate,
        end_date: ctx.endDate,
        calendar: calendarQuarter(ctx.endDate),
        fiscal: fiscalLabel(ctx, kind, calendar),
      },
      issuerLabel: row?.label ?? memberName,
      quote: quote || normalizeWhitespace(fact.text),
    });
  }
  return { document: info, facts: out, reconciliations: reconcile(doc, out), skipped };
}

/** Rows of a table a naming row is looked for in, above the fact's row. */
const NAMING_ROWS_BACK = 40;

/**
 * The text from the nearest row above `tr` (same table section) that names the member, through
 * `tr`, whitespace normalized: a contiguous stretch of the document's text, so it verifies as
 * ixbrl_text. Null when no row within NAMING_ROWS_BACK names it.
 */
function quoteFromNamingRow(tr: Element, memberKey: string, rowInfo: (tr: Element) => RowText): string | null {
  if (!memberKey) return null;
  const siblings = tr.parent?.children ?? [];
  const at = siblings.indexOf(tr);
  let rows = 0;
  for (let i = at - 1; i >= 0 && rows < NAMING_ROWS_BACK; i--) {
    const n = siblings[i]!;
    if (!isTag(n)) continue;
    rows += 1;
    if (rowInfo(n).key.includes(memberKey)) {
      return normalizeWhitespace(siblings.slice(i, at + 1).map((c) => textContent(c)).join(''));
    }
  }
  return null;
}

/** Breakdowns wider than this are not searched for subtotals (2^n subsets). */
const SUBTOTAL_SEARCH_MAX = 14;

/** The members equal to the sum of two or more other members of the same breakdown. */
function subtotalsOf(members: ReadonlyArray<SegmentFact>, tolerance: number): SegmentFact[] {
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

/** Members of kind segment against the filer's total, per concept, axis, period and unit (see SegmentReconciliation). */
function reconcile(doc: IxDocument, facts: ReadonlyArray<SegmentFact>): SegmentReconciliation[] {
  const groups = new Map<string, { f: SegmentFact; members: SegmentFact[]; tolerance: number }>();
  for (const f of facts) {
    if (f.memberKind !== 'segment' || f.metric !== SEGMENT_CONCEPTS[f.concept as keyof typeof SEGMENT_CONCEPTS]) continue;
    const key = [f.concept, f.axis, f.period.start_date ?? '', f.period.end_date, f.unit].join('|');
    const g = groups.get(key) ?? { f, members: [], tolerance: 0 };
    g.members.push(f);
    // Each printed figure is rounded to its decimals: half a unit of the last digit per member.
    g.tolerance += f.decimals && /^-?\d+$/.test(f.decimals) ? 0.5 * 10 ** -Number(f.decimals) : 0;
    groups.set(key, g);
  }
  // The filer's totals: undimensioned, or on the consolidation axis as the operating segments' total.
  const totals = new Map<string, { consolidated?: number; operatingSegments?: number }>();
  for (const fact of doc.facts) {
    if (!(fact.concept in SEGMENT_CONCEPTS) || fact.nil) continue;
    const ctx = doc.contexts.get(fact.contextRef);
    if (!ctx) continue;
    const dims = ctx.dimensions;
    const which = dims.length === 0 ? 'consolidated' : dims.length === 1 && isQualifier(dims[0]!) ? 'operatingSegments' : null;
    if (!which) continue;
    let value: number;
    try {
      value = factValue(fact.text, fact);
    } catch {
      continue;
    }
    const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
    const key = [fact.concept, ctx.startDate ?? '', ctx.endDate, unit].join('|');
    const t = totals.get(key) ?? {};
    t[which] ??= value;
    totals.set(key, t);
  }
  return [...groups.values()].map(({ f, members, tolerance }) => {
    const subtotals = subtotalsOf(members, tolerance);
    const sum = members.filter((m) => !subtotals.includes(m)).reduce((a, m) => a + m.value, 0);
    const t = totals.get([f.concept, f.period.start_date ?? '', f.period.end_date, f.unit].join('|'));
    const total = t?.operatingSegments ?? t?.consolidated ?? null;
    return {
      concept: f.concept,
      dimension: f.dimension,
      startDate: f.period.start_date,
      endDate: f.period.end_date,
      unit: f.unit,
      members: members.length,
      subtotals: subtotals.map((m) => m.memberQName),
      membersSum: sum,
      total,
      totalFrom: t?.operatingSegments !== undefined ? 'operating_segments' : t?.consolidated !== undefined ? 'consolidated' : null,
      matches: total === null ? null : Math.abs(sum - total) <= Math.max(tolerance, 0.5),
    };
  });
}

function collectRowLabels(doc: IxDocument, into: Map<string, string>, rowInfo: (tr: Element) => RowText): void {
  const stack = [...doc.dom.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (isRow(n)) {
      const label = rowInfo(n).label;
      if (label) {
        const key = labelKey(label);
        if (key && !into.has(key)) into.set(key, label.replace(/:$/, ''));
      }
      continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}

/** Fallback for documents without dei:DocumentPeriodEndDate: the latest duration end of any context. */
function latestDurationEnd(doc: IxDocument): string | null {
  let latest: string | null = null;
  for (const c of doc.contexts.values()) if (!c.instant && (!latest || c.endDate > latest)) latest = c.endDate;
  return latest;
}
