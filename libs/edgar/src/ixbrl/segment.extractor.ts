import { isTag, type Element } from 'domhandler';
import { EdgarParseError } from '../edgar.parse-error';
import { factValue, IxbrlFormatError } from './ixbrl.numbers';
import { documentInfoOf, normalizeWhitespace, parseIxbrl, textContent, type DocumentInfo, type IxContext, type IxDocument, type IxNumericFact } from './ixbrl.document';
import { reconcileBreakdown, type Figure, type ReconcilingItem, type ReconcilingKind, type SegmentReconciliation } from './segment.reconciliation';
import {
  calendarQuarter,
  fiscalLabel,
  parseFiscalYearEnd,
  periodKind,
  type FiscalCalendar,
  type PeriodKind,
} from './ixbrl.periods';
import { ancestor, isRow, letters, rowOf, rowTexts, tableOf, type RowText } from './ixbrl.rows';

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
 * Totals: each breakdown (concept, axis, period, unit) of `segment` members is reconciled as the
 * filer's table reconciles it (segment.reconciliation.ts): to the consolidated total, the segments
 * alone or with the corporate, eliminations and reconciling rows; else through the filer's
 * reconciliation table; the segments alone to the operating segments' total besides. Members printed
 * in tables that share no member (Amazon's "Net product sales / Net service sales" on the income
 * statement and its seven groups of products and services in the notes) are two presentations of the
 * same total when together they do not add up: each is reconciled on its own. Every fact carries the
 * reconciliation of the breakdown it is a member or a reconciling row of.
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
  /** The breakdown this fact is a member or a reconciling row of, as reconciled; null when it is in none (a segment's intersegment revenue). */
  reconciliation: SegmentReconciliation | null;
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
  // Every printing of each kept fact, its repeats in other tables included: the tables tell a breakdown's presentations.
  const printingsOf = new Map<SegmentFact, Element[]>();
  const seen = new Map<string, SegmentFact>();
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
      if (prior.value === value) {
        skipped.duplicates += 1;
        printingsOf.get(prior)!.push(fact.element);
      } else skipped.conflicts += 1;
      continue;
    }

    const dimension = SEGMENT_AXES[axis];
    const tr = rowOf(fact.element);
    const row = tr ? rowInfo(tr) : null;
    const ownLabel = row?.label && !METRIC_CAPTION.test(row.label) ? row.label.replace(/\s*\(\d\)$/, '').replace(/:$/, '') : undefined;
    const memberName = (labelFor(member) ?? ownLabel ?? humanize(memberStem(member))).replace(/[\u00ae\u2122]/g, '').trim();
    // A row that does not name its member ("Net sales" under "Americas:", "Revenue" under the
    // "Compute & Networking" column, the prior year's rows) is quoted from the row that names it.
    const quote = tr && row && !row.key.includes(letters(memberName)) ? (quoteFromNamingRow(tr, letters(memberName), rowInfo) ?? row.quote) : row?.quote;
    const kind = periodKind(ctx);
    const kept: SegmentFact = {
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
      reconciliation: null,
    };
    out.push(kept);
    seen.set(dedupKey, kept);
    printingsOf.set(kept, [fact.element]);
  }
  return { document: info, facts: out, reconciliations: reconcile(doc, out, printingsOf, rowInfo), skipped };
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

/** Whether the fact is printed in parentheses in its cell: "(8,550)" is deducted in the filer's table. */
function printedNegative(el: Element): boolean {
  const cell = ancestor(el, 'td') ?? ancestor(el, 'th');
  if (!cell) return false;
  const text = textContent(cell);
  const before = text.slice(0, text.indexOf(textContent(el)));
  return /[(\u2212-]/.test(before);
}

/** The kind of a reconciling row: a context whose one dimension is a corporate, eliminations or reconciling member of the consolidation axis. */
function reconcilingKindOf(ctx: IxContext): ReconcilingKind | null {
  if (ctx.dimensions.length !== 1 || ctx.dimensions[0]!.axis !== 'srt:ConsolidationItemsAxis') return null;
  const kind = memberKindOf(ctx.dimensions[0]!.member);
  return kind === 'segment' ? null : kind;
}

const periodKey = (start: string | null, end: string, unit: string): string => [start ?? '', end, unit].join('|');

/**
 * The filer's reconciliation table of a breakdown: in a table that prints the breakdown's members or
 * the operating segments' total, the rows after them, of the same period and unit, on a corporate,
 * eliminations or reconciling member (any concept), signed as printed, down to the first
 * undimensioned figure (the total they reconcile to). Null when no table has such rows and a total.
 */
function filerTableOf(
  doc: IxDocument,
  starts: ReadonlyArray<Element>,
  tables: ReadonlySet<Element>,
  period: string,
  rowInfo: (tr: Element) => { label: string | null },
): { items: Array<ReconcilingItem & Figure>; total: Figure & { concept: string } } | null {
  const startSet = new Set(starts);
  for (const table of tables) {
    const items: Array<ReconcilingItem & Figure> = [];
    let started = false;
    for (const fact of doc.facts) {
      if (fact.nil || tableOf(fact.element) !== table) continue;
      if (startSet.has(fact.element)) {
        started = true;
        continue;
      }
      const ctx = doc.contexts.get(fact.contextRef);
      const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
      if (!started || !ctx || periodKey(ctx.startDate, ctx.endDate, unit) !== period) continue;
      let value: number;
      try {
        value = factValue(fact.text, fact);
      } catch {
        continue;
      }
      if (ctx.dimensions.length === 0) {
        if (items.length === 0) break; // a total with nothing between: the segments alone, not this table's business
        return { items, total: { value, decimals: fact.decimals, concept: fact.concept } };
      }
      const kind = reconcilingKindOf(ctx);
      if (!kind) continue;
      const tr = rowOf(fact.element);
      items.push({
        concept: fact.concept,
        memberQName: ctx.dimensions[0]!.member,
        memberKind: kind,
        label: (tr && rowInfo(tr).label) || humanize(memberStem(ctx.dimensions[0]!.member)),
        value: printedNegative(fact.element) ? -Math.abs(value) : Math.abs(value),
        decimals: fact.decimals,
      });
    }
  }
  return null;
}

/** Members linked by the tables they share: each group is one presentation of the breakdown. Table-less members join the first group. */
function presentationsOf(members: ReadonlyArray<SegmentFact>, tablesOf: (f: SegmentFact) => Set<Element>): SegmentFact[][] {
  const groups: Array<{ members: SegmentFact[]; tables: Set<Element> }> = [];
  const loose: SegmentFact[] = [];
  for (const m of members) {
    const tables = tablesOf(m);
    if (tables.size === 0) {
      loose.push(m);
      continue;
    }
    const linked = groups.filter((g) => [...tables].some((t) => g.tables.has(t)));
    const merged = { members: [...linked.flatMap((g) => g.members), m], tables: new Set([...linked.flatMap((g) => [...g.tables]), ...tables]) };
    for (const g of linked) groups.splice(groups.indexOf(g), 1);
    groups.push(merged);
  }
  if (groups.length === 0) return [loose];
  groups[0]!.members.push(...loose);
  // Document order within each presentation.
  return groups.map((g) => members.filter((m) => g.members.includes(m)));
}

/**
 * Every breakdown of `segment` members (concept, axis, period, unit) reconciled as the filer does
 * (segment.reconciliation.ts); each member and reconciling row gets its breakdown's reconciliation.
 */
function reconcile(
  doc: IxDocument,
  facts: ReadonlyArray<SegmentFact>,
  printingsOf: ReadonlyMap<SegmentFact, Element[]>,
  rowInfo: (tr: Element) => { label: string | null },
): SegmentReconciliation[] {
  const tablesOf = (f: SegmentFact): Set<Element> => new Set((printingsOf.get(f) ?? []).map(tableOf).filter((t): t is Element => t !== null));
  const groups = new Map<string, SegmentFact[]>();
  const rows = new Map<string, SegmentFact[]>();
  for (const f of facts) {
    // A segment's intersegment revenue is not a member of its revenue breakdown.
    if (f.metric !== SEGMENT_CONCEPTS[f.concept as keyof typeof SEGMENT_CONCEPTS]) continue;
    const period = periodKey(f.period.start_date, f.period.end_date, f.unit);
    if (f.memberKind === 'segment') {
      const key = [f.concept, f.axis, period].join('|');
      groups.set(key, [...(groups.get(key) ?? []), f]);
    } else {
      // Corporate, eliminations and reconciling rows sit beside the business segments.
      const key = [f.concept, 'us-gaap:StatementBusinessSegmentsAxis', period].join('|');
      rows.set(key, [...(rows.get(key) ?? []), f]);
    }
  }
  // The filer's totals of each concept and period: undimensioned, or the operating segments' total; every element printing one.
  const totals = new Map<string, { consolidated?: number; operatingSegments?: number; elements: Element[] }>();
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
    const key = [fact.concept, periodKey(ctx.startDate, ctx.endDate, unit)].join('|');
    const t = totals.get(key) ?? { elements: [] };
    t[which] ??= value;
    if (which === 'operatingSegments') t.elements.push(fact.element);
    totals.set(key, t);
  }
  const out: SegmentReconciliation[] = [];
  for (const [key, members] of groups) {
    const f = members[0]!;
    const period = periodKey(f.period.start_date, f.period.end_date, f.unit);
    const t = totals.get([f.concept, period].join('|'));
    const rowFacts = f.dimension === 'segment' ? (rows.get(key) ?? []) : [];
    const held = (presentation: ReadonlyArray<SegmentFact>): SegmentReconciliation => {
      // A reconciliation table starts at any printing of a member or of the operating segments' total.
      const tables = new Set(presentation.flatMap((m) => [...tablesOf(m)]));
      const starts = [...presentation.flatMap((m) => printingsOf.get(m) ?? []), ...(t?.elements ?? [])];
      for (const e of t?.elements ?? []) {
        const table = tableOf(e);
        if (table) tables.add(table);
      }
      return reconcileBreakdown({
        concept: f.concept,
        axis: f.axis,
        dimension: f.dimension,
        startDate: f.period.start_date,
        endDate: f.period.end_date,
        unit: f.unit,
        members: presentation,
        rows: rowFacts.map((r) => ({ concept: r.concept, memberQName: r.memberQName, memberKind: r.memberKind as ReconcilingKind, label: r.issuerLabel, value: r.value, decimals: r.decimals })),
        operatingSegmentsTotal: t?.operatingSegments ?? null,
        consolidatedTotal: t?.consolidated ?? null,
        filerTable: () => filerTableOf(doc, starts, tables, period, rowInfo),
      });
    };
    const whole = held(members);
    const presentations = whole.matches === false ? presentationsOf(members, tablesOf) : [members];
    const split = presentations.length > 1 ? presentations.map(held) : null;
    const parts: Array<[ReadonlyArray<SegmentFact>, SegmentReconciliation]> =
      split && split.every((r) => r.matches) ? presentations.map((p, i) => [p, split[i]!]) : [[members, whole]];
    for (const [presentation, r] of parts) {
      out.push(r);
      for (const m of presentation) m.reconciliation = r;
      for (const row of rowFacts) row.reconciliation ??= r;
    }
  }
  return out;
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
        // Footnote marks ("Third-party seller services (3)") are the table's, not the member's name.
        if (key && !into.has(key)) into.set(key, label.replace(/:$/, '').replace(/\s*\(\d\)$/, ''));
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
