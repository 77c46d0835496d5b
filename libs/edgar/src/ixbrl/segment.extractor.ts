import { isTag, type Element } from 'domhandler';
import { EdgarParseError } from '../edgar.parse-error';
import { factValue, IxbrlFormatError } from './ixbrl.numbers';
import { normalizeWhitespace, parseIxbrl, textContent, type IxContext, type IxDocument, type IxNumericFact } from './ixbrl.document';
import {
  calendarQuarter,
  fiscalLabel,
  parseFiscalYearEnd,
  periodKind,
  type FiscalCalendar,
  type PeriodKind,
} from './ixbrl.periods';

/**
 * Segment facts of an inline-XBRL 10-Q / 10-K.
 *
 * Selection: every ix:nonFraction of a revenue or operating-income concept (SEGMENT_CONCEPTS) whose
 * context has exactly ONE dimension and that dimension is one of SEGMENT_AXES (a
 * `srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember` qualifier is allowed beside it: it
 * marks the segment's own figure and does not subdivide it). Contexts with further
 * dimensions (a segment crossed with a product line, a geography crossed with a customer class, a
 * consolidation-items member) are not segment totals: they are skipped and counted in
 * `skipped.multiDimension`, so every observation reads "<member> <metric> for <period>" unambiguously.
 *
 * Dedup: the same figure is often printed in several tables (the segment note and MD&A). Facts with
 * the same concept, the same context content (dimension + period, not merely the context id), unit
 * and value are one observation; the first one in document order is kept (its row gives the label
 * and the quote). Same key with a different value is a conflict and is counted, the first kept.
 *
 * Text: `quote` is the text content of the table row (`tr`) holding the fact, whitespace normalized
 * (normalizeWhitespace); it is therefore a substring of normalizeWhitespace(text content of the whole
 * document). `issuer_label` is the first non-empty cell of that row as printed. A fact outside any
 * table row (ix:hidden) is quoted by its own displayed text and labelled with the member name.
 *
 * Member names: the issuer's own spelling when some table row label of the document equals the
 * member's local name letter for letter (case and punctuation aside: "Rest of Asia Pacific" for
 * aapl:RestOfAsiaPacificSegmentMember, "iPhone" for aapl:IPhoneMember); else the label of the fact's
 * own row when that label is not a metric caption (net sales, revenues, income, total ...: "United
 * States" for country:US); otherwise the local name without `Member` split into words. Trademark
 * signs (® ™) are dropped from member names (they stay in issuer_label and quote).
 */

export const SEGMENT_AXES = {
  'us-gaap:StatementBusinessSegmentsAxis': 'segment',
  'srt:ProductOrServiceAxis': 'product_or_service',
  'srt:StatementGeographicalAxis': 'geography',
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
} as const;
export type SegmentMetric = (typeof SEGMENT_CONCEPTS)[keyof typeof SEGMENT_CONCEPTS];

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

export interface DocumentInfo {
  cik: string | null;
  documentType: string | null;
  fiscalYearFocus: number | null;
  fiscalPeriodFocus: string | null;
  periodEndDate: string | null;
  fiscalYearEnd: string | null;
}

export interface SegmentExtraction {
  document: DocumentInfo;
  facts: SegmentFact[];
  skipped: { multiDimension: number; duplicates: number; conflicts: number; nil: number; unreadable: number; missingContext: number };
}

/** Letters and digits only, lower case: how row labels are matched to member names. */
function letters(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
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

/** Nearest ancestor `tr` (any namespace prefix). */
function rowOf(el: Element): Element | null {
  let p = el.parent;
  while (p && isTag(p)) {
    const name = p.name;
    if (name === 'tr' || name.endsWith(':tr')) return p;
    p = p.parent;
  }
  return null;
}

function cellsOf(tr: Element): Element[] {
  return tr.children.filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th' || c.name.endsWith(':td') || c.name.endsWith(':th')));
}

/** First cell with text in the row: the row label as printed. */
function rowLabel(tr: Element): string | null {
  for (const cell of cellsOf(tr)) {
    const t = normalizeWhitespace(textContent(cell));
    if (t) return t;
  }
  return null;
}

/** Label text without trailing colons or footnote marks, for matching only. */
function labelKey(label: string): string {
  return letters(label.replace(/\(\d\)$/, ''));
}

export function documentInfoOf(doc: IxDocument): DocumentInfo {
  const fy = doc.dei.get('DocumentFiscalYearFocus');
  return {
    cik: doc.dei.get('EntityCentralIndexKey') ?? null,
    documentType: doc.dei.get('DocumentType') ?? null,
    fiscalYearFocus: fy && /^\d{4}$/.test(fy) ? Number(fy) : null,
    fiscalPeriodFocus: doc.dei.get('DocumentFiscalPeriodFocus') ?? null,
    periodEndDate: readDate(doc.dei.get('DocumentPeriodEndDate')),
    fiscalYearEnd: doc.dei.get('CurrentFiscalYearEndDate') ?? null,
  };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** dei:DocumentPeriodEndDate as printed ("March 29, 2025", "2025-03-29") -> YYYY-MM-DD. */
function readDate(text: string | undefined): string | null {
  if (!text) return null;
  const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return iso[0];
  const m = /([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  if (month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

/**
 * `srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember` only says "the segment's own figure,
 * before eliminations" (the ASU 2023-07 tagging NVIDIA uses): it qualifies, it does not subdivide.
 */
function isQualifier(d: { axis: string; member: string }): boolean {
  return d.axis === 'srt:ConsolidationItemsAxis' && d.member === 'us-gaap:OperatingSegmentsMember';
}

function segmentAxisOf(ctx: IxContext): { axis: SegmentAxis; member: string } | 'none' | 'multi' {
  const onAxis = ctx.dimensions.filter((d) => d.axis in SEGMENT_AXES);
  if (onAxis.length === 0) return 'none';
  if (ctx.dimensions.filter((d) => !isQualifier(d)).length > 1) return 'multi';
  const d = onAxis[0]!;
  return { axis: d.axis as SegmentAxis, member: d.member };
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
): Array<{ fact: F; ctx: IxContext; axis: SegmentAxis; member: string }> {
  const selected: Array<{ fact: F; ctx: IxContext; axis: SegmentAxis; member: string }> = [];
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
    selected.push({ fact, ctx, ...on });
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
  const rowTexts = new Map<Element, { label: string | null; quote: string }>();
  const rowInfo = (tr: Element) => {
    let r = rowTexts.get(tr);
    if (!r) {
      r = { label: rowLabel(tr), quote: normalizeWhitespace(textContent(tr)) };
      rowTexts.set(tr, r);
    }
    return r;
  };

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
  for (const { fact, ctx, axis, member } of selected) {
    let value: number;
    try {
      value = factValue(fact.text, fact);
    } catch (error) {
      if (!(error instanceof IxbrlFormatError)) throw error;
      skipped.unreadable += 1;
      continue;
    }
    const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
    const dedupKey = [fact.concept, axis, member, ctx.startDate ?? '', ctx.endDate, unit].join('|');
    const prior = seen.get(dedupKey);
    if (prior !== undefined) {
      if (prior === value) skipped.duplicates += 1;
      else skipped.conflicts += 1;
      continue;
    }
    seen.set(dedupKey, value);

    const metric = SEGMENT_CONCEPTS[fact.concept as keyof typeof SEGMENT_CONCEPTS];
    const dimension = SEGMENT_AXES[axis];
    const tr = rowOf(fact.element);
    const row = tr ? rowInfo(tr) : null;
    const ownLabel = row?.label && !METRIC_CAPTION.test(row.label) ? row.label.replace(/\s*\(\d\)$/, '').replace(/:$/, '') : undefined;
    const memberName = (labelFor(member) ?? ownLabel ?? humanize(memberStem(member))).replace(/[\u00ae\u2122]/g, '').trim();
    const kind = periodKind(ctx);
    out.push({
      concept: fact.concept,
      metric,
      metricKey: metricKeyOf(metric, dimension),
      axis,
      dimension,
      memberQName: member,
      member: memberName,
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
      quote: row?.quote || normalizeWhitespace(fact.text),
    });
  }
  return { document: info, facts: out, skipped };
}

function collectRowLabels(doc: IxDocument, into: Map<string, string>, rowInfo: (tr: Element) => { label: string | null }): void {
  const stack = [...doc.dom.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === 'tr' || n.name.endsWith(':tr')) {
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
