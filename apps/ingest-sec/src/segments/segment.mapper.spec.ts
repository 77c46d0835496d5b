import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { defaultFixturesDir } from '@app/testing';
import { extractSegments } from '@app/edgar';
import { documentPath, parseFilingArg, segmentKey, segmentRecordsOf } from './segment.mapper';

const EXAMPLES = join(__dirname, '../../../../libs/contracts/src/examples');
const AAPL_URL = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';
const bytes = readFileSync(join(defaultFixturesDir(), 'xbrl', 'AAPL-aapl-20250329.htm'));
const records = segmentRecordsOf(
  extractSegments(bytes),
  { cik: '320193', accession: '0000320193-25-000057', form: '10-Q' },
  { url: AAPL_URL, contentHash: contentHash(bytes), fetchedAt: '2025-05-02T12:00:00.000Z' },
  { runId: 'run_example-fixtures', origin: 'live', extractedAt: '2025-05-02T12:00:01.000Z' },
);

describe('segment@1 mapper on the AAPL 10-Q', () => {
  it('maps every extracted fact to a valid record on edgar.segments.v1', () => {
    expect(records.length).toBe(64);
    for (const r of records) expect(validateRecord(TOPICS.segments, r)).toMatchObject({ ok: true });
    expect(new Set(records.map((r) => r.key)).size).toBe(records.length);
  });

  it.each([
    ['americas-q2-fy2025', 'aapl:AmericasSegmentMember', '2024-12-29', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
    ['iphone-ytd-fy2025', 'aapl:IPhoneMember', '2024-09-29', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
    ['americas-operating-income-q2-fy2025', 'aapl:AmericasSegmentMember', '2024-12-29', 'us-gaap:OperatingIncomeLoss'],
  ])('matches the example record segment@1.aapl-%s.json', (label, member, start, concept) => {
    const record = records.find((r) => r.data.member_qname === member && r.data.period.start_date === start && r.data.period.end_date === '2025-03-29' && r.data.concept === concept)!;
    const file = join(EXAMPLES, `segment@1.aapl-${label}.json`);
    if (process.env.WRITE_EXAMPLES === '1') writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(record);
  });

  it("carries the breakdown's reconciliation: Americas operating income with Apple's reconciliation to total operating income $29,589M", () => {
    const r = records.find((x) => x.data.member_qname === 'aapl:AmericasSegmentMember' && x.data.metric === 'operating_income' && x.data.period.start_date === '2024-12-29')!;
    expect(r.data.reconciliation).toMatchObject({
      members: 5,
      segments_sum: 40_136_000_000,
      operating_segments_total: 40_136_000_000,
      segments_match: true,
      total: 29_589_000_000,
      total_concept: 'us-gaap:OperatingIncomeLoss',
      total_from: 'filer_table',
      method: 'with_reconciling_items',
      difference: 0,
      matches: true,
    });
    expect(r.data.reconciliation!.reconciling_items.map((i) => [i.label, i.member_kind, i.value])).toEqual([
      ['Research and development expense', 'other', -8_550_000_000],
      ['Other corporate expenses, net', 'corporate', -1_997_000_000],
    ]);
    expect(records.every((x) => x.data.reconciliation?.matches === true)).toBe(true);
  });

  it('stamps provenance: the filing, the document, its sha256 and the row quote', () => {
    const r = records.find((x) => x.data.member === 'Americas' && x.data.metric === 'revenue' && x.data.period.kind === 'quarter' && x.data.period.end_date === '2025-03-29')!;
    expect(r.key).toBe('0000320193-25-000057|us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax|us-gaap:StatementBusinessSegmentsAxis=aapl:AmericasSegmentMember|2024-12-29..2025-03-29');
    expect(r.data).toMatchObject({ cik: '0000320193', form: '10-Q', value: 40_315_000_000, unit: 'USD', tier: 'verified', metric_key: 'segment_revenue.segment' });
    expect(r.provenance).toMatchObject({
      source_provider: 'sec',
      source_url: AAPL_URL,
      accession: '0000320193-25-000057',
      quote: 'Americas:Net sales$40,315 $37,273 $92,963 $87,703',
      content_hash: contentHash(bytes),
    });
  });

  it('reads --filing arguments and document URLs', () => {
    expect(parseFilingArg('320193:0000320193-25-000057:/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm')).toEqual({
      cik: '0000320193',
      accession: '0000320193-25-000057',
      form: null,
      document: '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm',
    });
    expect(() => parseFilingArg('AAPL')).toThrow(RangeError);
    expect(documentPath(AAPL_URL)).toBe('/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm');
    expect(segmentKey('0000320193-25-000057', { concept: 'c', axis: 'srt:ProductOrServiceAxis', memberQName: 'm', period: { start_date: null, end_date: '2025-03-29' } })).toBe('0000320193-25-000057|c|srt:ProductOrServiceAxis=m|..2025-03-29');
  });
});
