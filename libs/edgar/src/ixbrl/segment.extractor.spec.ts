import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeWhitespace, parseIxbrl, textContent } from './ixbrl.document';
import { extractSegments, memberKindOf, type SegmentExtraction, type SegmentFact } from './segment.extractor';

/*
 * Expected figures were read from the filings' printed tables (USD millions as printed, so
 * 40,315 is 40,315,000,000 USD): AAPL's Note 2 (net sales by category) and Note 13 (segment
 * information), TESLA's Note 2 (revenue by source and geography) and segment note, NVIDIA's Note 16
 * (segment information and revenue by end market and geography).
 */
const DIR = join(__dirname, '../../../../../shared/fixtures/xbrl');
const FILES = {
  AAPL: 'AAPL-aapl-20250329.htm',
  TSLA: 'TSLA-tsla-10-q-2025-07-24.html',
  NVDA: 'NVDA-nvda-10-q-2025-08-27.html',
} as const;

const M = 1_000_000;
const cache = new Map<string, { bytes: Buffer; result: SegmentExtraction }>();
function load(ticker: keyof typeof FILES) {
  let r = cache.get(ticker);
  if (!r) {
    const bytes = readFileSync(join(process.env.FIXTURES_DIR ? join(process.env.FIXTURES_DIR, 'xbrl') : DIR, FILES[ticker]));
    r = { bytes, result: extractSegments(bytes) };
    cache.set(ticker, r);
  }
  return r;
}

type Expected = Record<string, number>;
/** `metricKey member -> value` for facts of one period. */
function figures(facts: SegmentFact[], start: string, end: string, metric = 'segment_revenue'): Expected {
  const out: Expected = {};
  for (const f of facts) {
    if (f.period.start_date !== start || f.period.end_date !== end || !f.metricKey.startsWith(metric)) continue;
    out[`${f.dimension}: ${f.member}`] = f.value / M;
  }
  return out;
}

describe('extractSegments on AAPL 10-Q, quarter ended 2025-03-29', () => {
  it('every segment and category net sales figure of the quarter', () => {
    expect(figures(load('AAPL').result.facts, '2024-12-29', '2025-03-29')).toEqual({
      'segment: Americas': 40_315,
      'segment: Europe': 24_454,
      'segment: Greater China': 16_002,
      'segment: Japan': 7_298,
      'segment: Rest of Asia Pacific': 7_290,
      'product_or_service: iPhone': 46_841,
      'product_or_service: Mac': 7_949,
      'product_or_service: iPad': 6_402,
      'product_or_service: Wearables, Home and Accessories': 7_522,
      'product_or_service: Services': 26_645,
      'product_or_service: Products': 68_714,
    });
  });

  it('segment operating income of the quarter', () => {
    expect(figures(load('AAPL').result.facts, '2024-12-29', '2025-03-29', 'segment_operating_income')).toEqual({
      'segment: Americas': 16_774,
      'segment: Europe': 10_316,
      'segment: Greater China': 6_626,
      'segment: Japan': 3_434,
      'segment: Rest of Asia Pacific': 2_986,
    });
  });

  it('six-month year-to-date net sales, marked ytd', () => {
    const { facts } = load('AAPL').result;
    expect(figures(facts, '2024-09-29', '2025-03-29')).toEqual({
      'segment: Americas': 92_963,
      'segment: Europe': 58_315,
      'segment: Greater China': 34_515,
      'segment: Japan': 16_285,
      'segment: Rest of Asia Pacific': 17_581,
      'product_or_service: iPhone': 115_979,
      'product_or_service: Mac': 16_936,
      'product_or_service: iPad': 14_490,
      'product_or_service: Wearables, Home and Accessories': 19_269,
      'product_or_service: Services': 52_985,
      'product_or_service: Products': 166_674,
    });
    const ytd = facts.find((f) => f.member === 'Americas' && f.period.end_date === '2025-03-29' && f.period.start_date === '2024-09-29')!;
    expect(ytd.period).toEqual({ kind: 'ytd', start_date: '2024-09-29', end_date: '2025-03-29', calendar: '2025-Q1', fiscal: 'FY2025-Q2-YTD' });
  });

  it('keeps concept, axis, unit, decimals, scale, context, label and row quote of the Americas figure', () => {
    const f = load('AAPL').result.facts.find((x) => x.member === 'Americas' && x.metric === 'revenue' && x.period.kind === 'quarter' && x.period.end_date === '2025-03-29')!;
    expect(f).toMatchObject({
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      axis: 'us-gaap:StatementBusinessSegmentsAxis',
      dimension: 'segment',
      memberQName: 'aapl:AmericasSegmentMember',
      metricKey: 'segment_revenue.segment',
      unit: 'USD',
      decimals: '-6',
      scale: 6,
      value: 40_315_000_000,
      displayed: '40,315',
      entity: '0000320193',
      issuerLabel: 'Net sales',
      quote: 'Americas:Net sales$40,315 $37,273 $92,963 $87,703',
      period: { kind: 'quarter', start_date: '2024-12-29', end_date: '2025-03-29', calendar: '2025-Q1', fiscal: 'FY2025-Q2' },
    });
    expect(load('AAPL').result.document).toMatchObject({ cik: '0000320193', documentType: '10-Q', fiscalYearFocus: 2025, fiscalPeriodFocus: 'Q2', periodEndDate: '2025-03-29' });
  });

  it('prior-year comparatives carry their own period', () => {
    const f = load('AAPL').result.facts.find((x) => x.member === 'Americas' && x.metric === 'revenue' && x.period.end_date === '2024-03-30' && x.period.kind === 'quarter')!;
    expect(f.value).toBe(37_273 * M);
    expect(f.period).toMatchObject({ calendar: '2024-Q1', fiscal: 'FY2024-Q2' });
  });
});

describe('extractSegments on TSLA 10-Q, quarter ended 2025-06-30', () => {
  it('every segment, revenue-source and geography revenue figure of the quarter', () => {
    expect(figures(load('TSLA').result.facts, '2025-04-01', '2025-06-30')).toEqual({
      'segment: Automotive segment': 19_707,
      'segment: Energy generation and storage segment': 2_789,
      'product_or_service: Automotive sales': 15_787,
      'product_or_service: Automotive regulatory credits': 439,
      'product_or_service: Automotive leasing': 435,
      'product_or_service: Automotive Revenues': 16_661,
      'product_or_service: Services and other': 3_046,
      'product_or_service: Sales And Services': 21_918,
      'product_or_service: Energy generation and storage sales': 2_646,
      'product_or_service: Energy generation and storage leasing': 143,
      'product_or_service: Energy generation and storage': 2_789,
      'geography: United States': 11_809,
      'geography: China': 4_305,
      'geography: Other international': 6_382,
    });
  });

  it('six-month year-to-date segment and geography revenues', () => {
    const ytd = figures(load('TSLA').result.facts, '2025-01-01', '2025-06-30');
    expect(ytd).toMatchObject({
      'segment: Automotive segment': 36_312,
      'segment: Energy generation and storage segment': 5_519,
      'geography: United States': 22_142,
      'geography: China': 8_608,
      'geography: Other international': 11_081,
      'product_or_service: Automotive sales': 28_712,
    });
  });
});

describe('extractSegments on NVDA 10-Q, quarter ended 2025-07-27', () => {
  it('every segment, market-platform and geography revenue figure of the quarter', () => {
    expect(figures(load('NVDA').result.facts, '2025-04-28', '2025-07-27')).toEqual({
      'segment: Compute & Networking': 41_331,
      'segment: Graphics': 5_412,
      'product_or_service: Data Center': 41_096,
      'product_or_service: Compute': 33_844,
      'product_or_service: Networking': 7_252,
      'product_or_service: Gaming': 4_287,
      'product_or_service: Professional Visualization': 601,
      'product_or_service: Automotive': 586,
      'product_or_service: OEM and Other': 173,
      'geography: United States': 23_470,
      'geography: Singapore': 10_156,
      'geography: Taiwan': 8_529,
      'geography: China (including Hong Kong)': 2_769,
      'geography: Other': 1_819,
    });
  });

  it('segment operating income (tagged with the OperatingSegments consolidation qualifier)', () => {
    expect(figures(load('NVDA').result.facts, '2025-04-28', '2025-07-27', 'segment_operating_income')).toEqual({
      'segment: Compute & Networking': 28_363,
      'segment: Graphics': 2_242,
    });
  });

  it('six-month year-to-date segment revenues; fiscal year named as NVIDIA names it', () => {
    const { facts } = load('NVDA').result;
    expect(figures(facts, '2025-01-27', '2025-07-27')).toMatchObject({
      'segment: Compute & Networking': 80_920,
      'segment: Graphics': 9_885,
      'product_or_service: Data Center': 80_208,
    });
    const q = facts.find((f) => f.member === 'Graphics' && f.period.kind === 'quarter' && f.period.end_date === '2025-07-27' && f.metric === 'revenue')!;
    expect(q.period).toMatchObject({ calendar: '2025-Q2', fiscal: 'FY2026-Q2' });
  });
});

describe.each(Object.keys(FILES) as Array<keyof typeof FILES>)('%s: invariants', (ticker) => {
  it('every quote is verbatim in the whitespace-normalized text content of the document', () => {
    const { bytes, result } = load(ticker);
    const text = normalizeWhitespace(textContent(parseIxbrl(bytes).dom));
    for (const f of result.facts) expect(text.includes(f.quote)).toBe(true);
    for (const f of result.facts) expect(f.quote).toContain(f.displayed);
  });

  it("every quote names the fact's member, prior-year rows included (from the heading or column header that names it)", () => {
    const key = (s: string) => s.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '');
    const { result } = load(ticker);
    for (const f of result.facts) expect([f.member, f.period.end_date, key(f.quote).includes(key(f.member))]).toEqual([f.member, f.period.end_date, true]);
  });

  it('flags every member of these filings a segment (none is tagged corporate, eliminations or reconciling)', () => {
    expect(load(ticker).result.facts.every((f) => f.memberKind === 'segment')).toBe(true);
  });

  it("members of each breakdown add up to the filer's total (subtotals such as Products = iPhone + Mac + ... left out)", () => {
    const { result } = load(ticker);
    expect(result.reconciliations.length).toBeGreaterThan(0);
    for (const r of result.reconciliations) expect([r.concept, r.dimension, r.endDate, r.matches]).toEqual([r.concept, r.dimension, r.endDate, true]);
  });

  it('has one fact per concept, member and period (duplicates across tables folded) and no conflicts', () => {
    const { result } = load(ticker);
    const keys = result.facts.map((f) => `${f.concept}|${f.memberQName}|${f.period.start_date}|${f.period.end_date}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(result.skipped.conflicts).toBe(0);
    expect(result.skipped.unreadable).toBe(0);
    expect(result.facts.every((f) => f.unit === 'USD' && f.period.kind !== 'other')).toBe(true);
  });
});

describe("members as the filers name them, their kind, and what they add up to", () => {
  it("NVIDIA's segment is 'Compute & Networking' (its column header), not the QName's 'Compute And Networking'", () => {
    const f = load('NVDA').result.facts.find((x) => x.memberQName === 'nvda:ComputeAndNetworkingSegmentMember')!;
    expect(f.member).toBe('Compute & Networking');
    expect(load('TSLA').result.facts.find((x) => x.memberQName === 'country:US')!.member).toBe('United States');
    expect(load('AAPL').result.facts.find((x) => x.memberQName === 'aapl:RestOfAsiaPacificSegmentMember')!.member).toBe('Rest of Asia Pacific');
  });

  it("a prior-year figure's quote names its segment: NVIDIA's Graphics revenue of the quarter ended Jul 28, 2024", () => {
    const f = load('NVDA').result.facts.find((x) => x.memberQName === 'nvda:GraphicsSegmentMember' && x.metric === 'revenue' && x.period.end_date === '2024-07-28' && x.period.kind === 'quarter')!;
    expect(f.value).toBe(3_594 * M);
    expect(f.quote.startsWith('Compute & NetworkingGraphicsTotal (In millions)')).toBe(true);
    expect(f.quote.endsWith('Three Months Ended Jul 28, 2024 Revenue$26,446 $3,594 $30,040')).toBe(true);
    // Apple's rows sit under a heading row naming the segment.
    const europe = load('AAPL').result.facts.find((x) => x.memberQName === 'aapl:EuropeSegmentMember' && x.metric === 'operating_income' && x.period.end_date === '2024-03-30' && x.period.kind === 'quarter')!;
    expect(europe.quote).toBe('Europe:Net sales$24,454 $24,123 $58,315 $54,520 Operating income$10,316 $9,991 $24,923 $22,702');
  });

  it('tells kinds by the member: the corporate member NVIDIA tags (us-gaap:CorporateNonSegmentMember) and the usual eliminations and reconciling members', () => {
    expect(memberKindOf('us-gaap:CorporateNonSegmentMember')).toBe('corporate');
    expect(memberKindOf('us-gaap:IntersegmentEliminationMember')).toBe('eliminations');
    expect(memberKindOf('us-gaap:MaterialReconcilingItemsMember')).toBe('other');
    expect(memberKindOf('aapl:AmericasSegmentMember')).toBe('segment');
  });

  it("reconciles Apple's segments to net sales (consolidated) and operating income through its reconciliation table to total operating income", () => {
    const r = load('AAPL').result.reconciliations.filter((x) => x.dimension === 'segment' && x.endDate === '2025-03-29' && x.startDate === '2024-12-29');
    // Note 13: segment operating income $40,136M, research and development (8,550), other corporate expenses (1,997), total operating income $29,589M.
    expect(r.map((x) => [x.concept, x.members, x.membersSum / M, x.operatingSegmentsTotal && x.operatingSegmentsTotal / M, x.segmentsMatch, x.total! / M, x.totalFrom, x.method, x.matches])).toEqual([
      ['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 5, 95_359, null, null, 95_359, 'consolidated', 'segments_alone', true],
      ['us-gaap:OperatingIncomeLoss', 5, 40_136, 40_136, true, 29_589, 'filer_table', 'with_reconciling_items', true],
    ]);
    const products = load('AAPL').result.reconciliations.find((x) => x.dimension === 'product_or_service' && x.endDate === '2025-03-29' && x.startDate === '2024-12-29')!;
    expect(products).toMatchObject({ members: 6, subtotals: ['us-gaap:ProductMember'], matches: true });
    const tsla = load('TSLA').result.reconciliations.find((x) => x.dimension === 'product_or_service' && x.endDate === '2025-06-30' && x.startDate === '2025-04-01')!;
    expect(tsla.subtotals.sort()).toEqual(['tsla:AutomotiveRevenuesMember', 'tsla:EnergyGenerationAndStorageMember', 'tsla:SalesAndServicesMember']);
  });
});
