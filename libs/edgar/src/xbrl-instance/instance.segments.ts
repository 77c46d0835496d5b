import { EdgarParseError } from '../edgar.parse-error';
import { calendarQuarter, periodKind, type PeriodKind } from '../ixbrl/ixbrl.periods';
import {
  memberKindOf,
  metricKeyOf,
  selectSegmentFacts,
  SEGMENT_AXES,
  SEGMENT_CONCEPTS,
  type MemberKind,
  type SegmentAxis,
  type SegmentDimension,
  type SegmentMetric,
} from '../ixbrl/segment.extractor';
import { reconcileBreakdown, type ReconcilingKind, type SegmentReconciliation } from '../ixbrl/segment.reconciliation';
import { canonicalDecimal, parseInstance, type InstanceDocument } from './instance.parser';

/**
 * Segment facts of a plain XBRL instance document (the `*_htm.xml` SEC publishes beside an inline
 * filing, or a pre-inline instance).
 *
 * Selection is the inline extractor's (segment.extractor.ts): a fact of a revenue or operating-income
 * concept (SEGMENT_CONCEPTS) whose context has exactly one dimension and that dimension is on one of
 * SEGMENT_AXES (`srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember` is allowed beside it as
 * a qualifier). Contexts with more dimensions are counted in `skipped.multiDimension`.
 *
 * Values: an instance holds the value itself (no `format`, `scale` or `sign`), so `value` is the
 * text as an exact canonical decimal string and `number` its Number; `decimals` is kept as written.
 *
 * Dedup: facts with the same concept, axis, member, period and unit are one observation (the first
 * in document order is kept); a repeat with the same value counts in `skipped.duplicates`, with a
 * different value in `skipped.conflicts`.
 *
 * Totals: each breakdown is reconciled as the inline extractor does it (segment.reconciliation.ts),
 * without the filer's reconciliation table: an instance has no tables, so a breakdown reaches its
 * consolidated total with the same concept's corporate, eliminations and reconciling rows only.
 */

export interface InstanceSegmentPeriod {
  /** YYYY-MM-DD, null for an instant. */
  start: string | null;
  /** YYYY-MM-DD, the end date of a duration or the instant. */
  end: string;
  kind: PeriodKind;
  /** `<year>-Q<n>` (see calendarQuarter). */
  calendar: string;
}

export interface InstanceSegmentFact {
  concept: string;
  metric: SegmentMetric;
  metricKey: string;
  axis: SegmentAxis;
  dimension: SegmentDimension;
  /** Member QName, e.g. `tsla:AutomotiveSegmentMember`, `country:US`. */
  member: string;
  memberKind: MemberKind;
  period: InstanceSegmentPeriod;
  /** Exact canonical decimal string, e.g. `22486000000`. */
  value: string;
  /** `value` as a number. */
  number: number;
  /** `USD`, `USD/shares`, ... (the unit id when the unit is not declared). */
  unit: string;
  decimals: string | null;
  contextId: string;
  /** Entity identifier of the context (the CIK). */
  entity: string | null;
  factId: string | null;
}

export interface InstanceSegmentExtraction {
  facts: InstanceSegmentFact[];
  reconciliations: SegmentReconciliation[];
  skipped: { multiDimension: number; duplicates: number; conflicts: number; nil: number; unreadable: number; missingContext: number };
}

/** Parses the instance and extracts its segment facts. Pure. */
export function extractInstanceSegments(bytes: Buffer | Uint8Array | string): InstanceSegmentExtraction {
  return extractInstanceSegmentsFrom(parseInstance(bytes));
}

export function extractInstanceSegmentsFrom(doc: InstanceDocument): InstanceSegmentExtraction {
  if (doc.contexts.size === 0) throw new EdgarParseError('XBRL instance', 'no xbrli:context in the document');
  const skipped = { multiDimension: 0, duplicates: 0, conflicts: 0, nil: 0, unreadable: 0, missingContext: 0 };
  const facts: InstanceSegmentFact[] = [];
  const seen = new Map<string, string>();
  for (const { fact, ctx, ...on } of selectSegmentFacts(doc.facts, doc.contexts, skipped)) {
    const value = canonicalDecimal(fact.text);
    if (value === null) {
      skipped.unreadable += 1;
      continue;
    }
    const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
    const key = [fact.concept, on.metric, on.axis, on.member, ctx.startDate ?? '', ctx.endDate, unit].join('|');
    const prior = seen.get(key);
    if (prior !== undefined) {
      if (prior === value) skipped.duplicates += 1;
      else skipped.conflicts += 1;
      continue;
    }
    seen.set(key, value);
    const metric = on.metric;
    const dimension = SEGMENT_AXES[on.axis];
    facts.push({
      concept: fact.concept,
      metric,
      metricKey: metricKeyOf(metric, dimension),
      axis: on.axis,
      dimension,
      member: on.member,
      memberKind: memberKindOf(on.member),
      period: { start: ctx.startDate, end: ctx.endDate, kind: periodKind(ctx), calendar: calendarQuarter(ctx.endDate) },
      value,
      number: Number(value),
      unit,
      decimals: fact.decimals,
      contextId: ctx.id,
      entity: ctx.entity,
      factId: fact.id,
    });
  }
  return { facts, reconciliations: reconcileInstance(doc, facts), skipped };
}

/** Every breakdown of `segment` members (concept, axis, period, unit) against the instance's totals. */
function reconcileInstance(doc: InstanceDocument, facts: ReadonlyArray<InstanceSegmentFact>): SegmentReconciliation[] {
  const periodOf = (start: string | null, end: string, unit: string) => [start ?? '', end, unit].join('|');
  const groups = new Map<string, InstanceSegmentFact[]>();
  const rows = new Map<string, InstanceSegmentFact[]>();
  for (const f of facts) {
    if (f.metric !== SEGMENT_CONCEPTS[f.concept as keyof typeof SEGMENT_CONCEPTS]) continue;
    const period = periodOf(f.period.start, f.period.end, f.unit);
    const key = [f.concept, f.memberKind === 'segment' ? f.axis : 'us-gaap:StatementBusinessSegmentsAxis', period].join('|');
    const into = f.memberKind === 'segment' ? groups : rows;
    into.set(key, [...(into.get(key) ?? []), f]);
  }
  const totals = new Map<string, { consolidated?: number; operatingSegments?: number }>();
  for (const fact of doc.facts) {
    if (!(fact.concept in SEGMENT_CONCEPTS) || fact.nil) continue;
    const ctx = doc.contexts.get(fact.contextRef);
    const value = canonicalDecimal(fact.text);
    if (!ctx || value === null) continue;
    const dims = ctx.dimensions;
    const qualifier = dims.length === 1 && dims[0]!.axis === 'srt:ConsolidationItemsAxis' && dims[0]!.member === 'us-gaap:OperatingSegmentsMember';
    const which = dims.length === 0 ? 'consolidated' : qualifier ? 'operatingSegments' : null;
    if (!which) continue;
    const unit = fact.unitRef ? (doc.units.get(fact.unitRef) ?? fact.unitRef) : '';
    const key = [fact.concept, periodOf(ctx.startDate, ctx.endDate, unit)].join('|');
    const t = totals.get(key) ?? {};
    t[which] ??= Number(value);
    totals.set(key, t);
  }
  return [...groups.entries()].map(([key, members]) => {
    const f = members[0]!;
    const t = totals.get([f.concept, periodOf(f.period.start, f.period.end, f.unit)].join('|'));
    const rowFacts = f.dimension === 'segment' ? (rows.get(key) ?? []) : [];
    return reconcileBreakdown({
      concept: f.concept,
      axis: f.axis,
      dimension: f.dimension,
      startDate: f.period.start,
      endDate: f.period.end,
      unit: f.unit,
      members: members.map((m) => ({ memberQName: m.member, value: m.number, decimals: m.decimals })),
      rows: rowFacts.map((r) => ({ concept: r.concept, memberQName: r.member, memberKind: r.memberKind as ReconcilingKind, label: r.member, value: r.number, decimals: r.decimals })),
      operatingSegmentsTotal: t?.operatingSegments ?? null,
      consolidatedTotal: t?.consolidated ?? null,
    });
  });
}
