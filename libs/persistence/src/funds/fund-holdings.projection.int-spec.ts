// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectFundHoldings } from './fund-holdings.projection';

const example = (file: string) => JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples', file), 'utf8')) as RecordEnvelope<FundHoldingsData>;
const adx = example('fund-holdings@1.adx.json');
const gs = example('fund-holdings@1.gs-apple-bond.json');

/** A chunk of another filing of ADX's fund, cut from the real example's holdings. */
function chunk(accession: string, report_date: string, from: number, to: number, index: number, count: number, total = 95): RecordEnvelope<FundHoldingsData> {
  return {
    ...adx,
    id: `rec_${accession}_${index}`,
    provenance: { ...adx.provenance, accession },
    data: { ...adx.data, accession, fund: { ...adx.data.fund, report_date }, chunk: { index, count, holdings_total: total }, holdings: adx.data.holdings.slice(from, to) },
  };
}
const newer = [chunk('0000002230-23-990002', '2023-09-30', 0, 50, 0, 2), chunk('0000002230-23-990002', '2023-09-30', 50, 95, 1, 2)];
const older = chunk('0000002230-23-990000', '2023-03-31', 0, 40, 0, 3);
const pending = chunk('0000002230-24-990003', '2023-12-31', 0, 30, 0, 4);

let db: TestDatabase;
let ds: DataSource;
const project = (envelopes: RecordEnvelope<FundHoldingsData>[]): Promise<BatchOutcome> => ds.transaction((m) => projectFundHoldings(m, envelopes));
const holdings = () =>
  ds.query<Array<{ accession: string; n: number; current: number }>>(
    `SELECT accession, count(*)::int AS n, count(*) FILTER (WHERE is_current)::int AS current FROM fund_holdings WHERE fund_key = $1 GROUP BY accession ORDER BY accession`,
    [adx.data.fund.key],
  );
const fund = async () => (await ds.query<Array<{ accession: string }>>('SELECT accession FROM funds WHERE fund_key = $1', [adx.data.fund.key]))[0];
/** company_fund_counts as kept, and as counted afresh from the holdings the exposure list reads (zeros left out). */
const keptAndRecounted = async () => ({
  kept: await ds.query<unknown[]>('SELECT match_cik, funds, etf_funds FROM company_fund_counts WHERE funds > 0 OR etf_funds > 0 ORDER BY match_cik'),
  recounted: await ds.query<unknown[]>(
    `SELECT h.match_cik, count(DISTINCT h.fund_key)::int AS funds, count(DISTINCT h.fund_key) FILTER (WHERE f.is_etf)::int AS etf_funds
       FROM fund_holdings h LEFT JOIN funds f ON f.fund_key = h.fund_key
      WHERE h.match_cik IS NOT NULL AND h.is_current AND h.asset_cat = 'EC' AND h.pct_val IS NOT NULL
      GROUP BY h.match_cik ORDER BY h.match_cik`,
  ),
});
const expectCountsKept = async () => {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  return kept.length;
};
const snapshot = async () => ({
  funds: await ds.query<unknown[]>('SELECT fund_key, accession, report_date, header, provenance, data_hash FROM funds ORDER BY fund_key'),
  holdings: await ds.query<unknown[]>('SELECT * FROM fund_holdings ORDER BY accession, holding_index'),
  identifiers: await ds.query<unknown[]>('SELECT scheme, subject, value, cik, fund_key, accession, holding_index, report_date, provenance FROM company_identifiers ORDER BY scheme, subject, value'),
});

beforeAll(async () => {
  db = await createTestDatabase('funds_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('projectFundHoldings', () => {
  beforeAll(() => ds.query('TRUNCATE funds, fund_holdings, company_fund_counts'));

  it('projects a complete filing as current, once, however often it comes', async () => {
    expect(await project([adx, adx, gs])).toEqual({ inserted: [adx.key, gs.key], updated: [], unchanged: 1 });
    expect(await holdings()).toEqual([{ accession: adx.data.accession, n: 95, current: 95 }]);
    expect(await fund()).toEqual({ accession: adx.data.accession });
    // the Goldman chunk is 250 of 1685 holdings: stored, not current, no funds row yet
    expect(await ds.query('SELECT count(*)::int AS n, bool_or(is_current) AS current FROM fund_holdings WHERE fund_key = $1', [gs.data.fund.key])).toEqual([{ n: 250, current: false }]);
    expect(await ds.query('SELECT 1 FROM funds WHERE fund_key = $1', [gs.data.fund.key])).toEqual([]);
    expect(await project([adx])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    // 89 of ADX's 95 holdings are matched to companies; the Goldman chunk is not current yet.
    expect(await expectCountsKept()).toBeGreaterThan(50);
  });

  it('switches to a newer filing completed in the batch, drops an older one, keeps a newer incomplete one pending', async () => {
    expect(await project([newer[0]!, older, pending, newer[1]!])).toEqual({ inserted: [], updated: [adx.key], unchanged: 3 });
    expect(await fund()).toEqual({ accession: '0000002230-23-990002' });
    expect(await holdings()).toEqual([
      { accession: '0000002230-23-990002', n: 95, current: 95 },
      { accession: '0000002230-24-990003', n: 30, current: 0 },
    ]);
    // a replay of the superseded filing changes nothing
    expect(await project([adx, older])).toEqual({ inserted: [], updated: [], unchanged: 2 });
    expect(await fund()).toEqual({ accession: '0000002230-23-990002' });
    await expectCountsKept();
  });

  it('keeps company_fund_counts as a recount would: companies a newer filing drops, and a fund that turns ETF', async () => {
    const before = await expectCountsKept();
    // A newer report of ADX's fund with its first 40 holdings only: the companies of the other 55 lose a fund.
    const smaller = chunk('0000002230-24-990010', '2024-03-31', 0, 40, 0, 1, 40);
    await project([smaller]);
    const after = await expectCountsKept();
    expect(after).toBeLessThan(before);
    // The next report says the fund is exchange-traded: each of its companies gains an ETF holder.
    const etf = chunk('0000002230-24-990011', '2024-06-30', 0, 40, 0, 1, 40);
    await project([{ ...etf, data: { ...etf.data, fund: { ...etf.data.fund, is_etf: true } } }]);
    await expectCountsKept();
    expect(await ds.query('SELECT count(*)::int AS n FROM company_fund_counts WHERE etf_funds > 0')).toEqual([{ n: after }]);
  });

  it('takes identifier candidates from the chunks it accepts only, never from a superseded filing', async () => {
    await ds.query('TRUNCATE funds, fund_holdings, company_fund_counts, company_identifiers');
    await project([adx]);
    // The superseded 2023-03-31 filing, its Microsoft holding giving another ISIN (ADX's Alphabet one
    // stands in for an old CUSIP): dropped, and with it the candidate it would give MSFT:US.
    const msft = adx.data.holdings.find((h) => h.security?.listing_symbol === 'MSFT:US')!;
    const googl = adx.data.holdings.find((h) => h.security?.listing_symbol === 'GOOGL:US')!;
    const stale = chunk('0000002230-23-990000', '2023-03-31', 0, 0, 0, 1, 1);
    const replay = { ...stale, data: { ...stale.data, holdings: [{ ...msft, index: 0, security: { ...msft.security!, isin: googl.security!.isin } }] } };
    const msftIsins = () => ds.query<Array<{ value: string; accession: string }>>(`SELECT value, accession FROM company_identifiers WHERE scheme = 'isin' AND subject = 'MSFT:US' ORDER BY value`);
    expect(await project([replay])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await msftIsins()).toEqual([{ value: 'US5949181045', accession: adx.data.accession }]);
    // The same holding in a newer filing is kept, and gives its candidate.
    const fresh = { ...replay, id: 'rec_fresh', provenance: { ...replay.provenance, accession: '0000002230-23-990004' }, data: { ...replay.data, accession: '0000002230-23-990004', fund: { ...replay.data.fund, report_date: '2023-09-30' } } };
    await project([fresh]);
    expect(await msftIsins()).toEqual([
      { value: 'US02079K3059', accession: '0000002230-23-990004' },
      { value: 'US5949181045', accession: adx.data.accession },
    ]);
  });

  it('leaves what projecting the chunks one at a time leaves', async () => {
    const sequence = [pending, newer[0]!, adx, older, newer[1]!, chunk('0000002230-24-990003', '2023-12-31', 30, 95, 1, 4), adx, gs];
    await ds.query('TRUNCATE funds, fund_holdings, company_fund_counts, company_identifiers');
    for (const e of sequence) await project([e]);
    const oneByOne = await snapshot();
    await ds.query('TRUNCATE funds, fund_holdings, company_fund_counts, company_identifiers');
    await project(sequence);
    expect(await snapshot()).toEqual(oneByOne);
    expect(await fund()).toEqual({ accession: '0000002230-24-990003' });
    await expectCountsKept();
  });
});
