// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { CompanyData, RecordEnvelope } from '@app/contracts';
import {
  actiam2020Q4,
  createTestDatabase,
  derivedManagers,
  LTSONE_2023Q4_ACCESSION,
  ltsone2023Q3,
  ltsone2023Q4,
  seedCrosswalk,
  TESLA,
  type TestDatabase,
} from '@app/testing';
import { createDataSource } from '../data-source';
import type { KeyPart, PageRequest } from '../keyset';
import { projectRecords } from '../projections/record-projections';
import { HOLDERS_ORDER, InstitutionalHoldersRepository, type HoldersSort, type InstitutionalPositionRow } from './institutional-holders.repository';

// The read side over rows the real projection wrote from real filings: ACTIAM's 2020Q4 example
// record and LTSONE's 2023Q3 complete submission (parsed); LTSONE's 2023Q4 and the 3,000 filers
// are derived from LTSONE's record as libs/testing/src/thirteenf-seed.ts states.
const MSFT = '594918104';
const MSFT_CIK = '0000789019';
const GOOGL_CIK = '0001652044';
const AMZN_CIK = '0001018724';
const AMZN = '023135106';
const LTSONE = '0001894188';
const Q3 = '2023-09-30';
const Q4 = '2023-12-31';
const SYNTHETIC = 3000;
/** Crosswalk rows of unrelated CUSIPs (issuer prefixes ZZ0000..ZZ0299), so the planner weighs the table as it is. */
const FILLER_CROSSWALK = 3000;

let db: TestDatabase;
let ds: DataSource;
let repo: InstitutionalHoldersRepository;

const msftCompany = JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples/company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;
/** Another listing made from Microsoft's example company record: the stated CIK, ticker and name. */
const listing = (cik: string, ticker: string, name: string): RecordEnvelope<CompanyData> => ({
  ...msftCompany,
  key: `${ticker}:US`,
  id: `rec_${ticker.toLowerCase().padEnd(32, '0')}`,
  data: { ...msftCompany.data, cik, ticker, name, detail: msftCompany.data.detail && { ...msftCompany.data.detail, sec_name: name, tickers: [ticker] } },
});

beforeAll(async () => {
  db = await createTestDatabase('thirteenf_read');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  repo = new InstitutionalHoldersRepository(ds);
  // Listings: Microsoft and Amazon one each, Alphabet two (GOOGL, GOOG).
  await projectRecords(ds, [msftCompany, listing(AMZN_CIK, 'AMZN', 'AMAZON COM INC'), listing(GOOGL_CIK, 'GOOGL', 'Alphabet Inc.'), listing(GOOGL_CIK, 'GOOG', 'Alphabet Inc.')]);
  // Crosswalk: Microsoft's and Alphabet A's own CUSIPs; Alphabet C (02079K107) only by issuer prefix;
  // Amazon only through a notional bond CUSIP of its issuer (no listing: symbol null).
  await seedCrosswalk(ds, MSFT, MSFT_CIK, 'MSFT:US');
  await seedCrosswalk(ds, '02079K305', GOOGL_CIK, 'GOOGL:US');
  await seedCrosswalk(ds, '023135AJ5', AMZN_CIK, null);
  await ds.query(
    `INSERT INTO cusip_crosswalk (cusip, cik, symbol, method, accession, holding_index)
     SELECT 'ZZ' || lpad(g::text, 7, '0'), lpad((2000000 + g)::text, 10, '0'), NULL, 'cusip', '0000002230-23-990001', g FROM generate_series(1, ${FILLER_CROSSWALK}) g`,
  );
  const q3 = ltsone2023Q3();
  await projectRecords(ds, [actiam2020Q4(), q3]);
  await projectRecords(ds, [ltsone2023Q4(q3)]);
  const derived = derivedManagers(SYNTHETIC, q3);
  for (let i = 0; i < derived.length; i += 500) await projectRecords(ds, derived.slice(i, i + 500));
  await ds.query('ANALYZE');
}, 300_000);

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

  it('gives one row per manager and CUSIP for a company with two share classes; an issuer-prefix match of a two-listing company has no symbol', async () => {
    const page = await repo.holders({ cik: GOOGL_CIK }, '2020-12-31', 'shares', { direction: 'desc', limit: 10 });
    expect(page.rows.map((r) => [r.cusip, r.shares, r.matchMethod, r.symbol])).toEqual([
      ['02079K107', '38127', 'cusip_issuer', null],
      ['02079K305', '33532', 'cusip', 'GOOGL:US'],
    ]);
    // meta.cusips: both, though 02079K107 has no crosswalk row of its own.
    expect(await repo.cusipsOf(GOOGL_CIK, '2020-12-31')).toEqual(['02079K107', '02079K305']);
    expect(await repo.cusipsOf(GOOGL_CIK, Q3)).toEqual([]);
  });

  it("gives an issuer-prefix match the company's symbol when it has one listing, in lists and for the CUSIP", async () => {
    const page = await repo.holders({ cik: AMZN_CIK }, '2020-12-31', 'value', { direction: 'desc', limit: 10 });
    expect(page.rows.map((r) => [r.managerCik, r.cusip, r.matchMethod, r.symbol])).toEqual([['0001619124', AMZN, 'cusip_issuer', 'AMZN:US']]);
    expect(await repo.cusipsOf(AMZN_CIK, '2020-12-31')).toEqual([AMZN]);
    const portfolio = await repo.portfolio('0001619124', '2020-12-31', 'value', { direction: 'desc', limit: 10 });
    expect(portfolio.rows.map((r) => [r.cusip, r.symbol])).toEqual([
      ['037833100', null],
      ['594918104', 'MSFT:US'],
      [AMZN, 'AMZN:US'],
      ['02079K107', null],
      ['02079K305', 'GOOGL:US'],
    ]);
    expect(await repo.security(AMZN)).toEqual({ cusip: AMZN, issuer: 'AMAZON COM INC', classTitle: 'COM', cik: AMZN_CIK, symbol: 'AMZN:US' });
    expect(await repo.security('02079K107')).toMatchObject({ cik: GOOGL_CIK, symbol: null });
    expect(await repo.security(MSFT)).toMatchObject({ cik: MSFT_CIK, symbol: 'MSFT:US' });
  });

  it('reads cusip_crosswalk and thirteenf_securities by their indexes (text = text), never a whole table', async () => {
    const sent: { text: string; values: unknown[] }[] = [];
    const recording = new InstitutionalHoldersRepository({ driver: { master: { query: (c: { text: string; values: unknown[] }) => (sent.push(c), Promise.resolve({ rows: [] })) } } } as unknown as DataSource);
    await recording.holders({ cik: MSFT_CIK }, Q3, 'value', { direction: 'desc', limit: 50 });
    const [holders] = await ds.query<[{ 'QUERY PLAN': [{ Plan: PlanNode }] }]>(`EXPLAIN (FORMAT JSON) ${sent[0]!.text}`, sent[0]!.values);
    expect(flatten(holders['QUERY PLAN'][0].Plan).filter((n) => /^Seq Scan on (cusip_crosswalk|institutional_positions)/.test(n))).toEqual([]);
    expect(flatten(holders['QUERY PLAN'][0].Plan)).toContain('Index Scan on cusip_crosswalk (cusip_crosswalk_pkey)');
    // security(): the tables are small here, so seq scans are priced out to show which scans are possible at all.
    await recording.security(AMZN);
    await ds.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      const [security] = await m.query<[{ 'QUERY PLAN': [{ Plan: PlanNode }] }]>(`EXPLAIN (FORMAT JSON) ${sent[1]!.text}`, sent[1]!.values);
      expect(flatten(security['QUERY PLAN'][0].Plan).filter((n) => /^Seq Scan/.test(n))).toEqual([]);
    });
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

  it("serves the change columns: increased, unchanged, sold_out (citing last quarter's row), new with its call apart", async () => {
    const page = await repo.portfolio(LTSONE, Q4, 'change', { direction: 'desc', limit: 2 });
    expect(page.rows.map((r) => [r.issuer, r.change, r.shareDelta])).toEqual([
      ['MICROSOFT CORP', 'increased', '15000'],
      ['TESLA INC', 'new', '1000'],
    ]);
    const rest = await repo.portfolio(LTSONE, Q4, 'change', { direction: 'desc', limit: 20, after: page.nextKey! });
    // Amazon unchanged, then the twelve rows 2023Q4 did not file again, sold_out, largest delta first.
    expect(rest.rows.map((r) => [r.issuer, r.change, r.shareDelta, r.prevShares]).slice(0, 2)).toEqual([
      ['AMAZON COM INC', 'unchanged', '0', '137500'],
      ['INTUIT', 'sold_out', '-32500', '32500'],
    ]);
    expect(rest.rows.slice(1).map((r) => r.change)).toEqual(Array(12).fill('sold_out'));
    const sherwin = rest.rows.find((r) => r.issuer === 'SHERWIN WILLIAMS CO')!;
    expect(sherwin).toMatchObject({ change: 'sold_out', shareDelta: '-80000', prevShares: '80000', shares: '0', accession: '0001894188-23-000007', holdingIndex: 11 });
    expect(sherwin.quote).toContain('<ns1:cusip>824348106</ns1:cusip>');
    const tesla = page.rows[1]!;
    expect(tesla).toMatchObject({ cusip: TESLA, shares: '1000', callShares: '500', callValueUsd: '120000', putShares: '0', symbol: null, accession: LTSONE_2023Q4_ACCESSION });
    const byValue = await repo.portfolio(LTSONE, Q4, 'value', { direction: 'desc', limit: 20 });
    expect(byValue.rows.map((r) => r.valueUsd)).toEqual(['30000000', '17479000', '2521000', ...Array(12).fill('0')]);
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
    // The derived filers (CIKs 0000010001..) come after, by CIK descending.
    expect([all.rows[0]!.cik, second.rows[0]!.cik, second.hasMore]).toEqual(['0001894188', '0001619124', true]);
    expect(await repo.filingsOf('0001894188')).toEqual([
      expect.objectContaining({ accession: LTSONE_2023Q4_ACCESSION, form: '13F-HR', period: Q4, filedDate: '2024-02-14', holdingsTotal: 4, valueTotal: '50120000', valueUnit: 'dollars', supersededBy: null }),
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
