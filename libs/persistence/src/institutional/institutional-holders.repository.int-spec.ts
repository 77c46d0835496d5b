import type { DataSource } from 'typeorm';
import {
  ACTIAM_2020Q4,
  createTestDatabase,
  LTSONE_2023Q3,
  positionsOf,
  seedCrosswalk,
  seedManagerQuarter,
  seedPositions,
  seedThirteenFFiling,
  type TestDatabase,
} from '@app/testing';
import { createDataSource } from '../data-source';
import type { KeyPart, PageRequest } from '../keyset';
import { HOLDERS_ORDER, InstitutionalHoldersRepository, type HoldersSort, type InstitutionalPositionRow } from './institutional-holders.repository';

// The read side over the agreed tables, seeded with SQL from the real ACTIAM and LTSONE filings;
// the synthetic rows (managers 00099xxxxx, LTSONE's 2023Q4) are named so where they are made.
const MSFT = '594918104';
const MSFT_CIK = '0000789019';
const GOOGL_CIK = '0001652044';
const Q3 = '2023-09-30';
const Q4 = '2023-12-31';
const SYNTHETIC = 3000;

let db: TestDatabase;
let ds: DataSource;
let repo: InstitutionalHoldersRepository;

const cikOf = (cusip: string) => (cusip === MSFT ? MSFT_CIK : cusip === '02079K305' || cusip === '02079K107' ? GOOGL_CIK : null);

beforeAll(async () => {
  db = await createTestDatabase('thirteenf_read');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  repo = new InstitutionalHoldersRepository(ds);
  await seedCrosswalk(ds, MSFT, MSFT_CIK, 'MSFT:US');
  await seedCrosswalk(ds, '02079K305', GOOGL_CIK, 'GOOGL:US');
  await seedCrosswalk(ds, '02079K107', GOOGL_CIK, 'GOOG:US');
  for (const f of [ACTIAM_2020Q4, LTSONE_2023Q3]) {
    await seedThirteenFFiling(ds, f);
    await seedPositions(ds, positionsOf(f, cikOf));
  }
  // Synthetic: LTSONE's next quarter, MSFT bought (+15,000), AMZN held, SHERWIN sold out, a new position.
  await seedManagerQuarter(ds, { managerCik: LTSONE_2023Q3.managerCik, managerName: 'LTS One Management LP', period: Q4, accessions: ['0001894188-24-990001'], positions: 3, valueUsdTotal: 50_000_000 });
  const base = { managerCik: LTSONE_2023Q3.managerCik, period: Q4, classTitle: 'COM', accession: '0001894188-24-990001' };
  await seedPositions(ds, [
    { ...base, cusip: MSFT, cik: MSFT_CIK, issuer: 'MICROSOFT CORP', shares: 80_000, valueUsd: 30_000_000, prevShares: 65_000, shareDelta: 15_000, change: 'increased', holdingIndex: 0 },
    { ...base, cusip: '023135106', cik: null, issuer: 'AMAZON COM INC', shares: 137_500, valueUsd: 20_000_000, prevShares: 137_500, shareDelta: 0, change: 'unchanged', holdingIndex: 1 },
    { ...base, cusip: '824348106', cik: null, issuer: 'SHERWIN WILLIAMS CO', shares: 0, valueUsd: 0, prevShares: 80_000, shareDelta: -80_000, change: 'sold_out', holdingIndex: -1 },
    { ...base, cusip: '88160R101', cik: null, issuer: 'TESLA INC', shares: 1_000, valueUsd: 0, prevShares: null, shareDelta: 1_000, change: 'new', holdingIndex: 2, call: { shares: 500, valueUsd: 120_000 } },
  ]);
  // Synthetic: 3,000 managers holding MSFT in 2023Q3 (values with ties every 7), and other stocks, so the planner has a real choice.
  await ds.query(
    `INSERT INTO institutional_positions (manager_cik, period, cusip, cik, issuer, class_title, shares, principal, value_usd, put_shares, put_value_usd, call_shares, call_value_usd,
       prev_shares, share_delta, change, accession, holding_index)
     SELECT lpad((990000000 + g)::text, 10, '0'), $1::date, c.cusip, c.cik, 'SYNTHETIC', 'COM', 100 * (g % 500), 0, 1000 * (g / 7), 0, 0, 0, 0,
       CASE WHEN g % 5 = 0 THEN NULL ELSE 100 * (g % 500) - (g % 11) END, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 11 END, CASE WHEN g % 5 = 0 THEN NULL ELSE 'increased' END,
       '0000000001-23-' || lpad(g::text, 6, '0'), 0
     FROM generate_series(1, ${SYNTHETIC}) g CROSS JOIN (VALUES ($2::text, $3::char(10)), ('SYN' || '000000', NULL), ('SYN' || '000001', $4::char(10))) c(cusip, cik)`,
    [Q3, MSFT, MSFT_CIK, '0000000002'],
  );
  await ds.query('ANALYZE institutional_positions');
}, 120_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

async function allPages(read: (p: PageRequest) => Promise<{ rows: InstitutionalPositionRow[]; nextKey: KeyPart[] | null }>, limit: number) {
  const rows: InstitutionalPositionRow[] = [];
  let after: KeyPart[] | undefined;
  for (let i = 0; i < 10_000; i++) {
    const page = await read({ direction: 'desc', limit, after });
    rows.push(...page.rows);
    if (!page.nextKey) return rows;
    after = page.nextKey;
  }
  throw new Error('no last page');
}

describe('InstitutionalHoldersRepository', () => {
  it("serves ACTIAM's real Microsoft position (thousands x 1000), its quote and the manager's quarter total", async () => {
    const page = await repo.holders({ cik: MSFT_CIK }, '2020-12-31', 'value', { direction: 'desc', limit: 10 });
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toMatchObject({
      managerCik: '0001619124',
      managerName: 'ACTIAM N.V.',
      cusip: MSFT,
      symbol: 'MSFT:US',
      shares: '1009277',
      valueUsd: '224483000',
      accession: '0001619124-21-000002',
      filedDate: '2021-02-12',
      managerValueTotal: '732158000',
      change: null,
    });
    expect(page.rows[0]!.quote).toContain('<ns1:value>224483</ns1:value>');
    expect(page.rows[0]!.provenance).toMatchObject({ accession: '0001619124-21-000002' });
  });

  it('gives one row per manager and CUSIP for a company with two share classes', async () => {
    const page = await repo.holders({ cik: GOOGL_CIK }, '2020-12-31', 'shares', { direction: 'desc', limit: 10 });
    expect(page.rows.map((r) => [r.cusip, r.shares, r.symbol])).toEqual([
      ['02079K107', '38127', 'GOOG:US'],
      ['02079K305', '33532', 'GOOGL:US'],
    ]);
    expect(await repo.cusipsOf(GOOGL_CIK)).toEqual(['02079K107', '02079K305']);
  });

  it.each<HoldersSort>(['value', 'shares', 'change'])('pages %s in the served order: every holder once, ties by manager', async (sort) => {
    const rows = await allPages((p) => repo.holders({ cik: MSFT_CIK }, Q3, sort, p), 97);
    expect(rows).toHaveLength(SYNTHETIC + 1);
    expect(new Set(rows.map((r) => r.managerCik)).size).toBe(SYNTHETIC + 1);
    const key = (r: InstitutionalPositionRow) => (sort === 'value' ? r.valueUsd : sort === 'shares' ? r.shares : r.shareDelta);
    const expected = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return x === null ? 1 : y === null ? -1 : Number(y) - Number(x);
      return a.managerCik < b.managerCik ? -1 : 1;
    });
    expect(rows.map((r) => r.managerCik)).toEqual(expected.map((r) => r.managerCik));
    if (sort === 'change') expect(rows.slice(-SYNTHETIC / 5).every((r) => r.shareDelta === null)).toBe(true);
  });

  it.each<HoldersSort>(['value', 'shares', 'change'])('reads holders by %s from its partial index in the served order, no sort, on page 1 and deep', async (sort) => {
    const deep = (await repo.holders({ cik: MSFT_CIK }, Q3, sort, { direction: 'desc', limit: 1500 })).nextKey!;
    const deepNull = sort === 'change' ? (await repo.holders({ cik: MSFT_CIK }, Q3, sort, { direction: 'desc', limit: 2900 })).nextKey! : null;
    for (const after of [undefined, deep, ...(deepNull ? [deepNull] : [])]) {
      const sent: { text: string; values: unknown[] }[] = [];
      const recording = new InstitutionalHoldersRepository({ driver: { master: { query: (c: { text: string; values: unknown[] }) => (sent.push(c), Promise.resolve({ rows: [] })) } } } as unknown as DataSource);
      await recording.holders({ cik: MSFT_CIK }, Q3, sort, { direction: 'desc', limit: 50, after });
      const [plan] = await ds.query<[{ 'QUERY PLAN': [{ Plan: PlanNode }] }]>(`EXPLAIN (FORMAT JSON) ${sent[0]!.text}`, sent[0]!.values);
      const nodes = flatten(plan['QUERY PLAN'][0].Plan);
      expect({ after, sorts: nodes.filter((n) => /Sort/.test(n)) }).toEqual({ after, sorts: [] });
      expect(nodes).toContain(`Index Scan on institutional_positions (institutional_positions_holders_${sort}_idx)`);
    }
    expect(HOLDERS_ORDER[sort].columns).toHaveLength(3);
  });

  it('serves the change columns: increased, unchanged, sold_out (no infoTable row), new with its call apart', async () => {
    const page = await repo.portfolio(LTSONE_2023Q3.managerCik, Q4, 'change', { direction: 'desc', limit: 2 });
    expect(page.rows.map((r) => [r.issuer, r.change, r.shareDelta])).toEqual([
      ['MICROSOFT CORP', 'increased', '15000'],
      ['TESLA INC', 'new', '1000'],
    ]);
    const rest = await repo.portfolio(LTSONE_2023Q3.managerCik, Q4, 'change', { direction: 'desc', limit: 5, after: page.nextKey! });
    expect(rest.rows.map((r) => [r.issuer, r.change, r.shareDelta, r.prevShares])).toEqual([
      ['AMAZON COM INC', 'unchanged', '0', '137500'],
      ['SHERWIN WILLIAMS CO', 'sold_out', '-80000', '80000'],
    ]);
    expect(rest.rows[1]).toMatchObject({ shares: '0', quote: null });
    const tesla = page.rows[1]!;
    expect(tesla).toMatchObject({ shares: '1000', callShares: '500', callValueUsd: '120000', putShares: '0', symbol: null });
    const byValue = await repo.portfolio(LTSONE_2023Q3.managerCik, Q4, 'value', { direction: 'desc', limit: 10 });
    expect(byValue.rows.map((r) => r.valueUsd)).toEqual(['30000000', '20000000', '0', '0']);
    expect(byValue.rows[0]).toMatchObject({ symbol: 'MSFT:US', managerValueTotal: '50000000' });
  });

  it('keeps an unmatched CUSIP queryable, and lists the quarters with positions', async () => {
    const sherwin = await repo.holders({ cusip: '824348106' }, Q3, 'value', { direction: 'desc', limit: 10 });
    expect(sherwin.rows.map((r) => [r.managerName, r.cik, r.shares, r.valueUsd])).toEqual([['LTS One Management LP', null, '80000', '20404000']]);
    expect(await repo.holderPeriods({ cusip: '824348106' })).toEqual([Q4, Q3]);
    expect(await repo.holderPeriods({ cik: MSFT_CIK })).toEqual([Q4, Q3, '2020-12-31']);
    expect(await repo.holderPeriods({ cik: '0000000099' })).toEqual([]);
    expect(await repo.security('824348106')).toEqual({ cusip: '824348106', issuer: 'SHERWIN WILLIAMS CO', classTitle: 'COM', cik: null, symbol: null });
    expect(await repo.security('000000000')).toBeNull();
  });

  it('finds managers by folded name, by CIK, and lists their filings and quarters', async () => {
    const byName = await repo.searchManagers({ name: 'actiam' }, { direction: 'desc', limit: 5 });
    expect(byName.rows.map((r) => r.cik)).toEqual(['0001619124']);
    expect((await repo.searchManagers({ name: 'LTS One Managment' }, { direction: 'desc', limit: 5 })).rows.map((r) => r.name)).toEqual(['LTS One Management LP']);
    expect((await repo.searchManagers({ cik: '0001894188' }, { direction: 'desc', limit: 5 })).rows).toHaveLength(1);
    const all = await repo.searchManagers({}, { direction: 'desc', limit: 1 });
    const second = await repo.searchManagers({}, { direction: 'desc', limit: 1, after: all.nextKey! });
    expect([all.rows[0]!.cik, second.rows[0]!.cik, second.hasMore]).toEqual(['0001894188', '0001619124', false]);
    expect(await repo.filingsOf('0001894188')).toEqual([
      expect.objectContaining({ accession: '0001894188-23-000007', form: '13F-HR', period: Q3, filedDate: '2023-11-14', holdingsTotal: 14, valueTotal: '454926000', valueUnit: 'dollars', supersededBy: null }),
    ]);
    expect((await repo.quartersOf('0001894188')).map((q) => [q.period, q.valueUsdTotal])).toEqual([[Q4, '50000000'], [Q3, '454926000']]);
    expect(await repo.manager('0001894188')).toMatchObject({ name: 'LTS One Management LP', latestPeriod: Q4 });
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
function flatten(n: PlanNode): string[] {
  return [`${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Name'] ? ` (${n['Index Name']})` : ''}`, ...(n.Plans ?? []).flatMap(flatten)];
}
