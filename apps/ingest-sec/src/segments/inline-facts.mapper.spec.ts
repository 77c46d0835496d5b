import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { defaultFixturesDir } from '@app/testing';
import { extractFacts } from '@app/edgar';
import { inlineFactsRecordsOf } from './inline-facts.mapper';

const EXAMPLES = join(__dirname, '../../../../libs/contracts/src/examples');
const AAPL_URL = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';
const bytes = readFileSync(join(defaultFixturesDir(), 'xbrl', 'AAPL-aapl-20250329.htm'));
const extraction = extractFacts(bytes);
const map = () =>
  inlineFactsRecordsOf(
    extraction,
    // Apple's 10-Q for the quarter ended 2025-03-29 was filed on 2025-05-02 ("filed" of its entries in Apple's company facts).
    { cik: '320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: '2025-05-02' },
    { url: AAPL_URL, contentHash: contentHash(bytes), fetchedAt: '2025-05-02T12:00:00.000Z' },
    { runId: 'run_example-fixtures', origin: 'live', extractedAt: '2025-05-02T12:00:01.000Z' },
  );
const records = map();

describe('xbrl-facts@1 mapper on the AAPL 10-Q (inline XBRL)', () => {
  it('maps every extracted fact into one valid record per concept on edgar.xbrl-facts.v1', () => {
    expect(records.length).toBe(new Set(extraction.facts.map((f) => f.concept)).size);
    for (const r of records) expect(validateRecord(TOPICS.xbrlFacts, r)).toMatchObject({ ok: true });
    expect(new Set(records.map((r) => r.key)).size).toBe(records.length);
    expect(records.reduce((n, r) => n + r.data.facts.length, 0)).toBe(extraction.facts.length);
    // Kafka's default message limit is 1 MB: the largest concept of the document stays far below it.
    expect(Math.max(...records.map((r) => Buffer.byteLength(JSON.stringify(r))))).toBeLessThan(256 * 1024);
  });

  it('gives the same ids for the same bytes', () => {
    expect(map().map((r) => r.id)).toEqual(records.map((r) => r.id));
  });

  it('stamps the filing, its dei fiscal period and the document, each fact with its quote', () => {
    const eps = records.find((r) => r.key === '0000320193-25-000057|us-gaap:EarningsPerShareDiluted')!;
    expect(eps.data).toMatchObject({ cik: '0000320193', entity_name: 'Apple Inc.', source: 'inline_xbrl', accession: '0000320193-25-000057', document_url: AAPL_URL });
    expect(eps.data.facts.find((f) => f.period_start === '2024-12-29' && f.period_end === '2025-03-29')).toEqual({
      unit: 'USD/shares',
      period_start: '2024-12-29',
      period_end: '2025-03-29',
      dimensions: {},
      value: 1.65,
      decimals: '2',
      accession: '0000320193-25-000057',
      form: '10-Q',
      filed: '2025-05-02',
      fiscal_year: 2025,
      fiscal_period: 'Q2',
      frame: null,
      label: 'Diluted',
      quote: expect.stringMatching(/^Diluted ?\$ ?1\.65/) as unknown,
    });
    expect(eps.provenance).toMatchObject({ source_provider: 'sec', source_url: AAPL_URL, accession: '0000320193-25-000057', content_hash: contentHash(bytes), quote: null });
  });

  it('keeps dimensional facts, axis -> member', () => {
    const revenue = records.find((r) => r.data.concept === 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax')!;
    expect(revenue.data.facts.filter((f) => f.dimensions['us-gaap:StatementBusinessSegmentsAxis'] === 'aapl:AmericasSegmentMember' && f.period_end === '2025-03-29').map((f) => f.value)).toEqual(
      expect.arrayContaining([40_315_000_000]),
    );
  });

  it('matches the example record xbrl-facts@1.aapl-inline-eps-diluted.json', () => {
    const record = records.find((r) => r.key === '0000320193-25-000057|us-gaap:EarningsPerShareDiluted')!;
    const file = join(EXAMPLES, 'xbrl-facts@1.aapl-inline-eps-diluted.json');
    if (process.env.WRITE_EXAMPLES === '1') writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(record);
  });
});
