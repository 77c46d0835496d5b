import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractInstanceSegments } from '../xbrl-instance/instance.segments';
import { extractSegments, type SegmentExtraction } from './segment.extractor';
import { reconcileBreakdown } from './segment.reconciliation';

/*
 * Every breakdown of the real 10-Qs and 10-Ks, reconciled as the filer's tables reconcile it.
 * Printed figures (USD millions) were read from the filings' tables:
 * - Apple 10-Q 0000320193-25-000057, quarter ended 2025-03-29, Note 13 "Segment Information":
 *   segment operating income $40,136, research and development expense (8,550), other corporate
 *   expenses, net (1,997), total operating income $29,589; net sales by segment add up to $95,359.
 * - NVIDIA 10-Q (nvda-20250727), quarter ended 2025-07-27, Note 16 "Segment Information": segment
 *   operating income $30,605, stock-based compensation expense (1,624), unallocated cost of revenue
 *   and operating expenses (440), acquisition-related and other costs (101), interest income 592,
 *   interest expense (62), other income (expense), net 2,236, consolidated income before income tax
 *   $31,206.
 * - Amazon 10-K for 2024 (filed 2025-02-07): income statement "Net product sales $272,311, Net
 *   service sales 365,648, Total net sales 637,959"; Note 10 "Net sales by groups of similar products
 *   and services": online stores 247,029, physical stores 21,215, third-party seller services
 *   156,146, advertising services 56,214, subscription services 44,374, AWS 107,556, other 5,425,
 *   consolidated $637,959.
 * - Tesla 10-K for 2024 (filed 2025-01-30): automotive segment revenues 87,604 + energy generation
 *   and storage segment revenues 10,086 = total revenues 97,690.
 */
const ROOT = process.env.FIXTURES_DIR ?? join(__dirname, '../../../../../shared/fixtures');
const FILES = {
  AAPL: 'xbrl/AAPL-aapl-20250329.htm',
  TSLA: 'xbrl/TSLA-tsla-10-q-2025-07-24.html',
  NVDA: 'xbrl/NVDA-nvda-10-q-2025-08-27.html',
  'TSLA 10-K': 'tenk/TSLA-tsla-10-k-2025-01-30.html',
  'AMZN 10-K': 'tenk/AMZN-amzn-10-k-2025-02-07.html',
  'WFC 10-K': 'tenk/WFC-wfc-10-k-2025-02-25.html',
} as const;
type Filing = keyof typeof FILES;

const M = 1_000_000;
const cache = new Map<Filing, SegmentExtraction>();
function load(filing: Filing): SegmentExtraction {
  let r = cache.get(filing);
  if (!r) {
    r = extractSegments(readFileSync(join(ROOT, FILES[filing])));
    cache.set(filing, r);
  }
  return r;
}

/** How each breakdown of a filing is reached: `<total_from>/<method>` -> count, mismatches under `false`. */
function outcomes(filing: Filing): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of load(filing).reconciliations) {
    const k = r.matches ? `${r.totalFrom}/${r.method}` : String(r.matches);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('segment reconciliation on the real filings', () => {
  it.each([
    // Revenue by segment, product and geography add up alone; operating income through the filer's reconciliation table.
    ['AAPL', { 'consolidated/segments_alone': 8, 'filer_table/with_reconciling_items': 4 }],
    ['NVDA', { 'consolidated/segments_alone': 12, 'filer_table/with_reconciling_items': 4 }],
    ['TSLA', { 'consolidated/segments_alone': 12 }],
    ['TSLA 10-K', { 'consolidated/segments_alone': 9 }],
    // Was 3 mismatches (product_or_service, each year): its two presentations were summed into one.
    ['AMZN 10-K', { 'consolidated/segments_alone': 15 }],
    // The financial statements are in Exhibit 13, not in this document: no segment figures.
    ['WFC 10-K', {}],
  ] as Array<[Filing, Record<string, number>]>)('%s: every breakdown adds up, and how', (filing, expected) => {
    expect(outcomes(filing)).toEqual(expected);
  });

  it("Apple: segment operating income $40,136M less R&D (8,550) and other corporate expenses (1,997) is total operating income $29,589M", () => {
    const r = load('AAPL').reconciliations.find((x) => x.concept === 'us-gaap:OperatingIncomeLoss' && x.startDate === '2024-12-29' && x.endDate === '2025-03-29')!;
    expect(r).toMatchObject({
      members: 5,
      membersSum: 40_136 * M,
      operatingSegmentsTotal: 40_136 * M,
      segmentsMatch: true,
      total: 29_589 * M,
      totalConcept: 'us-gaap:OperatingIncomeLoss',
      totalFrom: 'filer_table',
      method: 'with_reconciling_items',
      difference: 0,
      matches: true,
    });
    expect(r.reconcilingItems).toEqual([
      { concept: 'us-gaap:ResearchAndDevelopmentExpense', memberQName: 'us-gaap:MaterialReconcilingItemsMember', memberKind: 'other', label: 'Research and development expense', value: -8_550 * M },
      { concept: 'us-gaap:OtherGeneralAndAdministrativeExpense', memberQName: 'us-gaap:CorporateNonSegmentMember', memberKind: 'corporate', label: 'Other corporate expenses, net', value: -1_997 * M },
    ]);
    // Every segment's operating income of the quarter carries it.
    const americas = load('AAPL').facts.find((f) => f.memberQName === 'aapl:AmericasSegmentMember' && f.metric === 'operating_income' && f.period.start_date === '2024-12-29')!;
    expect(americas.reconciliation).toBe(r);
  });

  it('NVIDIA: segment operating income $30,605M reconciles, as its table does, to income before income tax $31,206M', () => {
    const r = load('NVDA').reconciliations.find((x) => x.concept === 'us-gaap:OperatingIncomeLoss' && x.startDate === '2025-04-28' && x.endDate === '2025-07-27')!;
    expect([r.membersSum / M, r.operatingSegmentsTotal! / M, r.total! / M, r.totalConcept, r.difference, r.matches]).toEqual([
      30_605, 30_605, 31_206, 'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest', 0, true,
    ]);
    expect(r.reconcilingItems.map((i) => [i.label, i.memberKind, i.value / M])).toEqual([
      ['Stock-based compensation expense', 'corporate', -1_624],
      ['Unallocated cost of revenue and operating expenses', 'corporate', -440],
      ['Acquisition-related and other costs', 'corporate', -101],
      ['Interest income', 'corporate', 592],
      ['Interest expense', 'corporate', -62],
      ['Other income (expense), net', 'corporate', 2_236],
    ]);
  });

  it("Amazon 2024: product/service and the seven groups are two presentations of net sales $637,959M, each adding up alone", () => {
    const r = load('AMZN 10-K').reconciliations.filter((x) => x.dimension === 'product_or_service' && x.startDate === '2024-01-01');
    expect(r.map((x) => [x.memberQNames, x.membersSum / M, x.total! / M, x.matches])).toEqual([
      [['us-gaap:ProductMember', 'us-gaap:ServiceMember'], 637_959, 637_959, true],
      [
        [
          'amzn:OnlineStoresMember', 'amzn:PhysicalStoresMember', 'amzn:ThirdPartySellerServicesMember', 'us-gaap:AdvertisingMember',
          'amzn:SubscriptionServicesMember', 'amzn:AmazonWebServicesMember', 'amzn:OtherServicesMember',
        ],
        637_959, 637_959, true,
      ],
    ]);
    const product = load('AMZN 10-K').facts.find((f) => f.memberQName === 'us-gaap:ProductMember' && f.period.start_date === '2024-01-01')!;
    expect(product.reconciliation).toBe(r[0]);
  });

  it("Amazon's third-party seller services is a product line (revenue, kind segment), not a segment's third-party revenue", () => {
    const f = load('AMZN 10-K').facts.find((x) => x.memberQName === 'amzn:ThirdPartySellerServicesMember' && x.period.start_date === '2024-01-01')!;
    expect([f.metric, f.metricKey, f.memberKind, f.member, f.value / M]).toEqual(['revenue', 'segment_revenue.product_or_service', 'segment', 'Third-party seller services', 156_146]);
  });

  it('Tesla 10-K 2024: automotive 87,604 + energy generation and storage 10,086 = total revenues $97,690M, segments alone', () => {
    const r = load('TSLA 10-K').reconciliations.find((x) => x.dimension === 'segment' && x.startDate === '2024-01-01')!;
    expect([r.concept, r.members, r.membersSum / M, r.total! / M, r.totalFrom, r.method, r.reconcilingItems]).toEqual(['us-gaap:Revenues', 2, 97_690, 97_690, 'consolidated', 'segments_alone', []]);
  });

  it('the plain instance (Tesla 10-Q, quarter ended 2024-06-30) reconciles its breakdowns to total revenues $25,500M', () => {
    const { reconciliations } = extractInstanceSegments(readFileSync(join(ROOT, 'xbrl/TSLA-tsla-20240630_htm.xml')));
    expect(reconciliations).toHaveLength(12);
    expect(reconciliations.every((r) => r.matches && r.method === 'segments_alone' && r.totalFrom === 'consolidated')).toBe(true);
    const q = reconciliations.filter((r) => r.startDate === '2024-04-01').map((r) => [r.dimension, r.membersSum / M, r.total! / M]);
    expect(q).toEqual([
      ['product_or_service', 25_500, 25_500],
      ['segment', 25_500, 25_500],
      ['geography', 25_500, 25_500],
    ]);
  });
});

describe('reconcileBreakdown', () => {
  /*
   * No fixture tags a segment table's corporate or eliminations row under the revenue concept itself
   * (its own figures, srt:ConsolidationItemsAxis alone), so this shape is written out: two segments,
   * an eliminations row and the consolidated total, printed in millions.
   */
  const input = {
    concept: 'us-gaap:Revenues',
    axis: 'us-gaap:StatementBusinessSegmentsAxis',
    dimension: 'segment',
    startDate: '2024-01-01',
    endDate: '2024-12-31',
    unit: 'USD',
    members: [
      { memberQName: 'x:ASegmentMember', value: 700 * M, decimals: '-6' },
      { memberQName: 'x:BSegmentMember', value: 400 * M, decimals: '-6' },
    ],
    rows: [{ concept: 'us-gaap:Revenues', memberQName: 'us-gaap:IntersegmentEliminationMember', memberKind: 'eliminations' as const, label: 'Eliminations', value: -100 * M, decimals: '-6' }],
    operatingSegmentsTotal: 1_100 * M,
    consolidatedTotal: 1_000 * M,
  };

  it('adds the corporate and eliminations rows when the segments alone do not reach the consolidated total', () => {
    expect(reconcileBreakdown(input)).toMatchObject({ membersSum: 1_100 * M, segmentsMatch: true, total: 1_000 * M, totalFrom: 'consolidated', method: 'with_reconciling_items', difference: 0, matches: true });
  });

  it('reports the difference when even the rows do not reach it', () => {
    expect(reconcileBreakdown({ ...input, consolidatedTotal: 990 * M })).toMatchObject({ method: 'with_reconciling_items', difference: 10 * M, matches: false });
  });

  it('falls back to the operating segments total, and to null without any total', () => {
    expect(reconcileBreakdown({ ...input, rows: [], consolidatedTotal: null })).toMatchObject({ total: 1_100 * M, totalFrom: 'operating_segments', method: 'segments_alone', matches: true });
    expect(reconcileBreakdown({ ...input, rows: [], consolidatedTotal: null, operatingSegmentsTotal: null })).toMatchObject({ total: null, method: null, difference: null, matches: null });
  });
});
