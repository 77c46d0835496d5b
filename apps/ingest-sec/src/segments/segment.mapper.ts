import {
  padCik,
  recordId,
  sourceId,
  contentHash,
  stableStringify,
  type SegmentData,
  type SegmentReconciliationData,
  type SegmentRecordV1,
  type RecordOrigin,
} from '@app/contracts';
import type { SegmentExtraction, SegmentFact, SegmentReconciliation } from '@app/edgar';

export const PRODUCED_BY = 'ingest-sec';

/** The filing a document belongs to. */
export interface SegmentFiling {
  cik: string;
  accession: string;
  /** Form as EDGAR lists it; the document's dei:DocumentType when unknown. */
  form: string | null;
}

/** The fetched primary document: where, when, and the sha256 of its bytes. */
export interface SegmentSource {
  url: string;
  contentHash: string;
  fetchedAt: string;
}

/**
 * Natural key of a segment fact: `<accession>|<concept>|<axis>=<member>|<start>..<end>`. The
 * accession makes a restated figure in a later filing a record of its own (both are data); the
 * period is written with both dates, so a quarter and a year-to-date ending the same day differ.
 */
export function segmentKey(
  accession: string,
  f: Pick<SegmentFact, 'concept' | 'axis' | 'memberQName'> & { metric?: SegmentFact['metric']; period: { start_date: string | null; end_date: string } },
): string {
  // A segment's intersegment revenue shares concept, member and period with its total: its qualifier tells them apart.
  const qualifier = f.metric === 'intersegment_revenue' && f.concept !== 'us-gaap:SegmentReportingInformationIntersegmentRevenue' ? '+srt:ConsolidationItemsAxis=us-gaap:IntersegmentEliminationMember' : '';
  return `${accession}|${f.concept}|${f.axis}=${f.memberQName}${qualifier}|${f.period.start_date ?? ''}..${f.period.end_date}`;
}

/** A breakdown's reconciliation as segment@1 carries it. */
export function reconciliationData(r: SegmentReconciliation): SegmentReconciliationData {
  return {
    members: r.members,
    subtotals: r.subtotals,
    segments_sum: r.membersSum,
    operating_segments_total: r.operatingSegmentsTotal,
    segments_match: r.segmentsMatch,
    reconciling_items: r.reconcilingItems.map((i) => ({ concept: i.concept, member_qname: i.memberQName, member_kind: i.memberKind, label: i.label, value: i.value })),
    total: r.total,
    total_concept: r.totalConcept,
    total_from: r.totalFrom,
    method: r.method,
    difference: r.difference,
    matches: r.matches,
  };
}

/** Extracted facts of one document -> segment@1 records (tier verified). Pure. */
export function segmentRecordsOf(
  extraction: SegmentExtraction,
  filing: SegmentFiling,
  source: SegmentSource,
  ctx: { runId: string; origin: RecordOrigin; extractedAt: string },
): SegmentRecordV1[] {
  const cik = padCik(filing.cik);
  const form = filing.form ?? extraction.document.documentType ?? 'unknown';
  const srcId = sourceId(source.url, source.contentHash);
  return extraction.facts.map((f) => {
    const data: SegmentData = {
      cik,
      accession: filing.accession,
      form,
      document_url: source.url,
      metric_key: f.metricKey,
      metric: f.metric,
      concept: f.concept,
      axis: f.axis,
      dimension: f.dimension,
      member_qname: f.memberQName,
      member: f.member,
      member_kind: f.memberKind,
      issuer_label: f.issuerLabel,
      context_id: f.contextId,
      period: { ...f.period },
      value: f.value,
      unit: f.unit,
      decimals: f.decimals,
      scale: f.scale,
      displayed: f.displayed,
      tier: 'verified',
      reconciliation: f.reconciliation ? reconciliationData(f.reconciliation) : null,
    };
    const key = segmentKey(filing.accession, f);
    return {
      schema: 'segment@1',
      key,
      id: recordId(key, contentHash(stableStringify(data))),
      observed_at: source.fetchedAt,
      produced_by: PRODUCED_BY,
      correlation_id: ctx.runId,
      origin: ctx.origin,
      provenance: {
        src_id: srcId,
        source_provider: 'sec',
        source_url: source.url,
        accession: filing.accession,
        quote: f.quote,
        content_hash: source.contentHash,
        extracted_at: ctx.extractedAt,
      },
      data,
    };
  });
}

/** `--filing <cik>:<accession>:<primary document path or URL>` -> a filing reference. */
export function parseFilingArg(arg: string): SegmentFiling & { document: string } {
  const m = /^(\d{1,10}):(\d{10}-\d{2}-\d{6}):(.+)$/.exec(arg.trim());
  if (!m) throw new RangeError(`--filing expects <cik>:<accession>:<primary document path>, got "${arg}"`);
  return { cik: padCik(m[1]!), accession: m[2]!, form: null, document: m[3]! };
}

/** Path of a document on www.sec.gov from a path or an absolute sec.gov URL (fetched through the configured base URL). */
export function documentPath(document: string): string {
  if (/^https?:\/\//i.test(document)) return new URL(document).pathname;
  return document.startsWith('/') ? document : `/${document}`;
}
