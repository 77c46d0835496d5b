import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, THIRTEENF_HOLDINGS_PER_RECORD, TOPICS, validateRecord } from '@app/contracts';
import { parseThirteenFSubmission, type ParsedThirteenF } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { thirteenFHoldingsRecords, type ThirteenFSource } from './thirteenf.mapper';

/* The real 13F complete submissions of ../shared/fixtures/13f (SOURCES.md states their rows and sums). */
const FILINGS = {
  actiam: { file: 'ACTIAM-0001619124-21-000002.txt', cik: '1619124', accession: '0001619124-21-000002', filedDate: '2021-02-12' },
  ltsone: { file: 'LTSONE-0001894188-23-000007.txt', cik: '1894188', accession: '0001894188-23-000007', filedDate: '2023-11-14' },
  acorn: { file: 'ACORNCREEK-0001951757-25-000093.nc', cik: '1994827', accession: '0001951757-25-000093', filedDate: '2025-01-22' },
} as const;

function fixture(f: (typeof FILINGS)[keyof typeof FILINGS]): { parsed: ParsedThirteenF; source: ThirteenFSource } {
  const bytes = readFileSync(join(defaultFixturesDir(), '13f', f.file));
  return {
    parsed: parseThirteenFSubmission(bytes.toString('utf8'), { filedDate: f.filedDate }),
    source: {
      accession: f.accession,
      url: `https://www.sec.gov/Archives/edgar/data/${f.cik}/${f.accession.replace(/-/g, '')}/${f.accession}.txt`,
      contentHash: contentHash(bytes),
      fetchedAt: '2026-11-28T12:00:00.000Z',
      runId: 'run_spec',
      origin: 'live',
      extractedAt: '2026-11-28T12:00:01.000Z',
      filedDate: f.filedDate,
      acceptedAt: null,
    },
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('thirteenFHoldingsRecords on the real 13F fixtures', () => {
  it('ACTIAM (filed 2021, values in thousands): one valid record, 5 holdings, dollars = filed x 1000', () => {
    const { parsed, source } = fixture(FILINGS.actiam);
    const records = thirteenFHoldingsRecords(parsed, source);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(validateRecord(TOPICS.thirteenFHoldings, record)).toMatchObject({ ok: true });
    expect(record!.key).toBe('0001619124-21-000002');
    expect(record!.data).toMatchObject({
      form: '13F-HR',
      filed_date: '2021-02-12',
      manager: { cik: '0001619124' },
      period: '2020-12-31',
      quarter: '2020Q4',
      report_type: 'holdings',
      amendment: null,
      summary: { entry_total: 5, value_total: 732158 },
      value_unit: { unit: 'thousands', basis: 'filing_date', flag: null },
      chunk: { index: 0, count: 1, holdings_total: 5 },
    });
    const holdings = record!.data.holdings;
    expect(sum(holdings.map((h) => h.value_filed))).toBe(732158);
    expect(sum(holdings.map((h) => h.value_usd))).toBe(732158000);
    expect(holdings.find((h) => h.issuer.startsWith('APPLE'))).toMatchObject({ shares: 1733777, value_filed: 230054, value_usd: 230054000, share_type: 'SH', put_call: null });
    expect(holdings.find((h) => h.cusip === '594918104')).toBeDefined();
    // Provenance: the fetched .txt, its hash, the first infoTable element as the quote.
    expect(record!.provenance).toMatchObject({ source_provider: 'sec', source_url: source.url, accession: source.accession, content_hash: source.contentHash });
    expect(record!.provenance.quote).toBe(holdings[0]!.quote);
    expect(record!.provenance.quote).toMatch(/^<(ns1:)?infoTable>[\s\S]*<\/(ns1:)?infoTable>$/);
  });

  it('LTSONE (filed after 2023-01-03, dollars) and Acorn Creek (.nc; manager CIK differs from the accession prefix): sums as filed', () => {
    const lts = thirteenFHoldingsRecords(fixture(FILINGS.ltsone).parsed, fixture(FILINGS.ltsone).source);
    expect(lts).toHaveLength(1);
    expect(lts[0]!.data).toMatchObject({ manager: { cik: '0001894188' }, quarter: '2023Q3', value_unit: { unit: 'dollars' }, chunk: { holdings_total: 14 } });
    expect(sum(lts[0]!.data.holdings.map((h) => h.value_usd))).toBe(454926000);

    const acorn = thirteenFHoldingsRecords(fixture(FILINGS.acorn).parsed, fixture(FILINGS.acorn).source);
    expect(validateRecord(TOPICS.thirteenFHoldings, acorn[0])).toMatchObject({ ok: true });
    expect(acorn[0]!.data).toMatchObject({ manager: { cik: '0001994827' }, quarter: '2024Q4', value_unit: { unit: 'dollars' }, chunk: { holdings_total: 77 } });
    expect(sum(acorn[0]!.data.holdings.map((h) => h.value_usd))).toBe(194611845);
    // All chunks of a filing share its key, so they land on one partition in order.
    expect(TOPICS.thirteenFHoldings.partitionBy?.(acorn[0]!)).toBe('0001994827');
  });

  it('cuts a long information table into chunks of THIRTEENF_HOLDINGS_PER_RECORD, each with the header and the total', () => {
    // A real filing's 14 rows repeated to 2,345 (index renumbered): no real fixture has over 1,000 rows.
    const { parsed, source } = fixture(FILINGS.ltsone);
    const holdings = Array.from({ length: 2345 }, (_, i) => ({ ...parsed.holdings[i % parsed.holdings.length]!, index: i }));
    const records = thirteenFHoldingsRecords({ ...parsed, holdings }, source);
    expect(records.map((r) => r.data.holdings.length)).toEqual([THIRTEENF_HOLDINGS_PER_RECORD, THIRTEENF_HOLDINGS_PER_RECORD, 345]);
    expect(records.map((r) => r.data.chunk)).toEqual([0, 1, 2].map((index) => ({ index, count: 3, holdings_total: 2345 })));
    expect(new Set(records.map((r) => r.key)).size).toBe(1);
    expect(new Set(records.map((r) => r.id)).size).toBe(3);
    expect(records[2]!.data.holdings[0]!.index).toBe(2000);
    for (const r of records) expect(validateRecord(TOPICS.thirteenFHoldings, r)).toMatchObject({ ok: true });
  });

  it('the same bytes give the same record ids (deterministic, so a re-read is deduplicated)', () => {
    const a = thirteenFHoldingsRecords(fixture(FILINGS.actiam).parsed, fixture(FILINGS.actiam).source);
    const b = thirteenFHoldingsRecords(fixture(FILINGS.actiam).parsed, { ...fixture(FILINGS.actiam).source, runId: 'run_other', extractedAt: '2026-11-29T00:00:00.000Z' });
    expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
  });

  it('a notice is one record without holdings; an amendment carries its number and type; a non-13F form is refused', () => {
    const { parsed, source } = fixture(FILINGS.actiam);
    const notice = thirteenFHoldingsRecords({ ...parsed, primary: { ...parsed.primary, form: '13F-NT', reportType: 'notice' }, holdings: [] }, { ...source, form: '13F-NT' });
    expect(notice).toHaveLength(1);
    expect(notice[0]!.data).toMatchObject({ form: '13F-NT', report_type: 'notice', chunk: { index: 0, count: 1, holdings_total: 0 }, holdings: [] });
    expect(notice[0]!.provenance.quote).toBeNull();
    expect(validateRecord(TOPICS.thirteenFHoldings, notice[0])).toMatchObject({ ok: true });

    const amended = thirteenFHoldingsRecords({ ...parsed, primary: { ...parsed.primary, isAmendment: true, amendmentNumber: 1, amendmentType: 'restatement' } }, { ...source, form: '13F-HR/A' });
    expect(amended[0]!.data).toMatchObject({ form: '13F-HR/A', amendment: { number: 1, type: 'restatement' } });

    expect(() => thirteenFHoldingsRecords(parsed, { ...source, form: '10-K' })).toThrow(RangeError);
  });
});
