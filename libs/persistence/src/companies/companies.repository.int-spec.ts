// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { CompanyRecordV1, FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectCompanies } from './company.projection';
import { projectFundHoldings } from '../funds/fund-holdings.projection';
import { CompaniesRepository } from './companies.repository';

const example = <T>(file: string): T => JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples', file), 'utf8')) as T;
const msft = example<CompanyRecordV1>('company@1.msft.json');
const adx = example<RecordEnvelope<FundHoldingsData>>('fund-holdings@1.adx.json');
const holding = (symbol: string) => adx.data.holdings.find((h) => h.security?.listing_symbol === symbol)!;
const msftHolding = holding('MSFT:US');
const aaplHolding = holding('AAPL:US');

/** A one-holding filing of ADX's fund (its own accession and report date), cut from the real example. */
function filing(accession: string, report_date: string, h: FundHoldingsData['holdings'][number]): RecordEnvelope<FundHoldingsData> {
  return {
    ...adx,
    id: `rec_${accession}`,
    provenance: { ...adx.provenance, accession },
    data: { ...adx.data, accession, fund: { ...adx.data.fund, report_date }, chunk: { index: 0, count: 1, holdings_total: 1 }, holdings: [{ ...h, index: 0 }] },
  };
}

/**
 * The MSFT:US listing handed to another issuer (a ticker SEC reassigns): the real MSFT record,
 * observed later, with Apple's CIK (0000320193, as ADX's Apple holding matches it) and name.
 */
const reassigned: CompanyRecordV1 = { ...msft, observed_at: '2025-09-01T00:00:00.000Z', data: { ...msft.data, cik: aaplHolding.match.cik!, name: 'Apple Inc.' } };

/** The new issuer's share under the reused ticker, as a later fund filing gives it: ADX's Apple holding on MSFT:US. */
const newIssuerHolding = { ...aaplHolding, match: { ...aaplHolding.match, symbol: 'MSFT:US' }, security: { ...aaplHolding.security!, listing_symbol: 'MSFT:US' } };

let db: TestDatabase;
let ds: DataSource;
let repo: CompaniesRepository;
const companies = (records: CompanyRecordV1[]) => ds.transaction((m) => projectCompanies(m, records));
const funds = (envelopes: RecordEnvelope<FundHoldingsData>[]) => ds.transaction((m) => projectFundHoldings(m, envelopes));
const detail = async () => {
  const c = (await repo.findBySymbol('MSFT:US'))!;
  return { cik: c.cik, isin: c.isin, candidates: c.isinCandidates.map((x) => [x.value, x.accession]) };
};
const listedBy = async (isin: string) => (await repo.list({ isins: [isin], activeOnly: false }, { direction: 'asc', limit: 10 })).rows.map((c) => [c.symbol, c.isin]);

beforeAll(async () => {
  db = await createTestDatabase('companies_repo');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  repo = new CompaniesRepository(ds);
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

beforeEach(() => ds.query('TRUNCATE companies, company_identifiers, funds, fund_holdings, company_fund_counts'));

describe('CompaniesRepository: the ISIN of a listing (real Postgres)', () => {
  it("resolves MSFT:US's ISIN from ADX's holding of Microsoft's CIK, and finds the listing by it", async () => {
    await companies([msft]);
    await funds([adx]);
    expect(await detail()).toEqual({ cik: '0000789019', isin: 'US5949181045', candidates: [['US5949181045', adx.data.accession]] });
    expect(await listedBy('US5949181045')).toEqual([['MSFT:US', 'US5949181045']]);
  });

  it("never gives a reused ticker the ISIN of the issuer that held it before", async () => {
    await companies([msft]);
    await funds([adx]);
    await companies([reassigned]);
    // Microsoft's ISIN was given for MSFT:US under Microsoft's CIK: the listing's new issuer has none.
    expect(await detail()).toEqual({ cik: '0000320193', isin: null, candidates: [] });
    expect(await listedBy('US5949181045')).toEqual([]);
    // The new issuer's own holding under the ticker gives its ISIN: served, not ambiguous with the old one.
    await funds([filing('0000002230-23-990005', '2023-09-30', newIssuerHolding)]);
    expect(await detail()).toEqual({ cik: '0000320193', isin: 'US0378331005', candidates: [['US0378331005', '0000002230-23-990005']] });
    expect(await listedBy('US0378331005')).toEqual([['MSFT:US', 'US0378331005']]);
    expect(await listedBy('US5949181045')).toEqual([]);
  });

  it('serves the ISIN of the newest report after a CUSIP change, and stays ambiguous when one report date disagrees', async () => {
    // An older filing (2023-03-31) gave Microsoft's listing another ISIN (the one of ADX's Alphabet
    // holding stands in for a CUSIP Microsoft had before): the real 2023-06-30 report supersedes it.
    const before = { ...msftHolding, security: { ...msftHolding.security!, isin: holding('GOOGL:US').security!.isin } };
    await companies([msft]);
    await funds([filing('0000002230-23-990000', '2023-03-31', before), adx]);
    expect(await detail()).toEqual({ cik: '0000789019', isin: 'US5949181045', candidates: [['US5949181045', adx.data.accession]] });
    expect(await listedBy('US02079K3059')).toEqual([]);
    // Another filing of the same report date giving the old value: two values on the newest date, none served.
    await funds([filing('0000002230-23-990009', '2023-06-30', before)]);
    expect(await detail()).toEqual({
      cik: '0000789019',
      isin: null,
      candidates: [['US02079K3059', '0000002230-23-990009'], ['US5949181045', adx.data.accession]],
    });
    expect(await listedBy('US5949181045')).toEqual([]);
  });
});
