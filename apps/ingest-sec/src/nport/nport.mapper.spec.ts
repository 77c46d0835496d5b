import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FUND_HOLDINGS_PER_RECORD, TOPICS, contentHash, validateRecord, type FundHolding } from '@app/contracts';
import { HoldingMatcher, nportPrimaryDocPath, parseNport, parseTickerMapExchange } from '@app/edgar';
import type { FetchedSource } from '../company.mapper';
import { fundHeaderOf, fundHoldingOf, fundHoldingsRecordOf } from './nport.mapper';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const EXAMPLES = resolve(__dirname, '../../../../libs/contracts/src/examples');
const entries = parseTickerMapExchange(readFileSync(join(FIXTURES, 'tickers/company_tickers_exchange.json')));
const matcher = new HoldingMatcher(entries);
const tickerOf = (cik: string) => entries.find((e) => e.cik === cik)?.ticker ?? null;
const ctx = { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };

/** The fixture accessions (the fixture server serves the files under them; see FIXTURE_ROUTES). */
const ADX = { cik: '0000002230', accession: '0000002230-23-990001', file: 'nport/ADX-CIK0000002230-primary_doc.xml' };
const GS = { cik: '0000822977', accession: '0000822977-23-990001', file: 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml' };

function records(f: typeof ADX) {
  const bytes = readFileSync(join(FIXTURES, f.file));
  const source: FetchedSource = { url: `https://www.sec.gov${nportPrimaryDocPath(f.cik, f.accession)}`, contentHash: contentHash(bytes), fetchedAt: '2025-08-02T12:00:00.500Z' };
  const { fund, holdings } = parseNport(bytes);
  const header = fundHeaderOf(fund, tickerOf(fund.registrantCik!));
  const mapped = holdings.map((h) => {
    const match = matcher.match(h);
    return fundHoldingOf(h, match, match ? matcher.listingOf(match, h) : null);
  });
  const count = Math.max(1, Math.ceil(mapped.length / FUND_HOLDINGS_PER_RECORD));
  return Array.from({ length: count }, (_, i) =>
    fundHoldingsRecordOf({ accession: f.accession, fund: header, index: i, count, holdingsTotal: mapped.length, holdings: mapped.slice(i * FUND_HOLDINGS_PER_RECORD, (i + 1) * FUND_HOLDINGS_PER_RECORD) }, source, ctx),
  );
}

describe('fund-holdings@1 mapping of the real N-PORT fixtures', () => {
  const adx = records(ADX);
  const gs = records(GS);

  it('ADX: one record, fund keyed by CIK (no series), ticker ADX from the ticker map, not an ETF', () => {
    expect(adx).toHaveLength(1);
    expect(adx[0]!.key).toBe('CIK0000002230');
    expect(adx[0]!.data.fund).toMatchObject({ key: 'CIK0000002230', fund_ticker: 'ADX', is_etf: false, report_date: '2023-06-30', net_assets: 2415114408 });
    expect(adx[0]!.data.chunk).toEqual({ index: 0, count: 1, holdings_total: 95 });
    expect(validateRecord(TOPICS.fundHoldings, adx[0])).toMatchObject({ ok: true });
  });

  it('ADX: Microsoft matched by ticker, with shares, value, weight and a verbatim quote', () => {
    const msft = adx[0]!.data.holdings.find((h) => h.cusip === '594918104')!;
    expect(msft).toMatchObject({ balance: 517700, units: 'NS', val_usd: 176297558, pct_val: 7.2998, asset_cat: 'EC', quote: '<name>Microsoft Corporation</name>' });
    expect(msft.match).toEqual({ cik: '0000789019', symbol: 'MSFT:US', method: 'ticker', confidence: 0.9 });
  });

  it("ADX: Microsoft's ISIN US5949181045 computed from its CUSIP, quoted from <name> through <cusip>, on the listing MSFT:US", () => {
    const msft = adx[0]!.data.holdings.find((h) => h.cusip === '594918104')!;
    expect(msft.security).toEqual({
      isin: 'US5949181045',
      isin_from: 'cusip',
      isin_quote:
        '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>\n        <title>Microsoft Corporation</title>\n        <cusip>594918104</cusip>',
      lei_quote: '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>',
      listing_symbol: 'MSFT:US',
    });
    const bytes = readFileSync(join(FIXTURES, ADX.file), 'utf8');
    expect(bytes).toContain(msft.security!.isin_quote);
    // Alphabet (two listings, GOOGL and GOOG): the holding's ticker tells which one ADX holds.
    const alphabet = adx[0]!.data.holdings.find((h) => h.cusip === '02079K305')!;
    expect([alphabet.ticker, alphabet.match.method, alphabet.security!.listing_symbol, alphabet.security!.isin]).toEqual(['GOOGL', 'ticker', 'GOOGL:US', 'US02079K3059']);
  });

  it('GS: 1,685 holdings in 7 records under 1 MB each; APPLE INC bonds matched by name, unmatched holdings kept', () => {
    expect(gs).toHaveLength(7);
    expect(gs.every((r) => r.key === 'S000013795' && r.data.chunk.holdings_total === 1685)).toBe(true);
    for (const r of gs) {
      expect(validateRecord(TOPICS.fundHoldings, r)).toMatchObject({ ok: true });
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(1_000_000);
    }
    const all: FundHolding[] = gs.flatMap((r) => r.data.holdings);
    expect(all.map((h) => h.index)).toEqual([...Array(1685).keys()]);
    const apple = all.filter((h) => h.match.cik === '0000320193');
    expect(apple.map((h) => [h.cusip, h.asset_cat, h.match.method])).toEqual([['037833EK2', 'DBT', 'name'], ['037833EF3', 'DBT', 'name']]);
    expect(all.filter((h) => h.match.cik === null).length).toBeGreaterThan(1000);
    // Their ISINs are the filing's own, but a name match names no listing: no identifier for AAPL:US comes from them.
    expect(apple.map((h) => [h.security!.isin, h.security!.isin_from, h.security!.listing_symbol])).toEqual([['US037833EK23', 'filed', null], ['US037833EF38', 'filed', null]]);
    // An unmatched holding names no listing either.
    expect(all.filter((h) => h.match.cik === null).every((h) => h.security!.listing_symbol === null)).toBe(true);
  });

  // The example records beside the schemas are these records (UPDATE_EXAMPLES=1 rewrites them).
  it.each([
    ['fund-holdings@1.adx.json', () => adx[0]!],
    ['fund-holdings@1.gs-apple-bond.json', () => gs.find((r) => r.data.holdings.some((h) => h.cusip === '037833EK2'))!],
  ])('%s is what the mapper makes', (file, make) => {
    const path = join(EXAMPLES, file);
    const json = `${JSON.stringify(make(), null, 2)}\n`;
    if (process.env.UPDATE_EXAMPLES === '1') writeFileSync(path, json);
    expect(readFileSync(path, 'utf8')).toBe(json);
  });
});
