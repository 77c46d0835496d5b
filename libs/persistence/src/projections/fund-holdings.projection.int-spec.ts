import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import type { BatchOutcome } from './batch-outcome';
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
const snapshot = async () => ({
  funds: await ds.query<unknown[]>('SELECT fund_key, accession, report_date, header, provenance, data_hash FROM funds ORDER BY fund_key'),
  holdings: await ds.query<unknown[]>('SELECT * FROM fund_holdings ORDER BY accession, holding_index'),
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
  beforeAll(() => ds.query('TRUNCATE funds, fund_holdings'));

  it('projects a complete filing as current, once, however often it comes', async () => {
    expect(await project([adx, adx, gs])).toEqual({ inserted: [adx.key, gs.key], updated: [], unchanged: 1 });
    expect(await holdings()).toEqual([{ accession: adx.data.accession, n: 95, current: 95 }]);
    expect(await fund()).toEqual({ accession: adx.data.accession });
    // the Goldman chunk is 250 of 1685 holdings: stored, not current, no funds row yet
    expect(await ds.query('SELECT count(*)::int AS n, bool_or(is_current) AS current FROM fund_holdings WHERE fund_key = $1', [gs.data.fund.key])).toEqual([{ n: 250, current: false }]);
    expect(await ds.query('SELECT 1 FROM funds WHERE fund_key = $1', [gs.data.fund.key])).toEqual([]);
    expect(await project([adx])).toEqual({ inserted: [], updated: [], unchanged: 1 });
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
  });

  it('leaves what projecting the chunks one at a time leaves', async () => {
    const sequence = [pending, newer[0]!, adx, older, newer[1]!, chunk('0000002230-24-990003', '2023-12-31', 30, 95, 1, 4), adx, gs];
    await ds.query('TRUNCATE funds, fund_holdings');
    for (const e of sequence) await project([e]);
    const oneByOne = await snapshot();
    await ds.query('TRUNCATE funds, fund_holdings');
    await project(sequence);
    expect(await snapshot()).toEqual(oneByOne);
    expect(await fund()).toEqual({ accession: '0000002230-24-990003' });
  });
});
