// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FundHoldingsData, RecordEnvelope, ThirteenFHoldingData, ThirteenFHoldingsData, ThirteenFSecuritiesData } from '@app/contracts';
import { cusipCheckDigit } from '@app/edgar';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectFundHoldings } from '../funds/fund-holdings.projection';
import type { BatchOutcome } from '../projections/batch-outcome';
import { upsertCusipCrosswalk } from './cusip-crosswalk.projection';
import { projectThirteenFHoldings, UNIT_CONTRADICTS_PREVIOUS_QUARTER } from './thirteenf-holdings.projection';
import { projectThirteenFSecurities } from './thirteenf-securities.projection';
import { thirteenFFilingsByAccessions } from './thirteenf.events';

const example = <T>(file: string) => JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples', file), 'utf8')) as RecordEnvelope<T>;
/** ACTIAM N.V.'s 13F-HR for 2020Q4 (filed 2021-02-12): Apple, Alphabet C, Alphabet A, Microsoft, Amazon; values in thousands. */
const actiam = example<ThirteenFHoldingsData>('13f-holdings@1.actiam-2020q4.json');
const adx = example<FundHoldingsData>('fund-holdings@1.adx.json');
const list = example<ThirteenFSecuritiesData>('13f-securities@1.2020q3-first-rows.json');
const MANAGER = actiam.data.manager.cik;
const [APPLE, ALPHABET_C, ALPHABET_A, MICROSOFT, AMAZON] = actiam.data.holdings;

/** ACTIAM's holding with its shares (and, at the same price, its value) scaled by `factor`; `valueFactor` scales the value alone. */
const scaled = (h: ThirteenFHoldingData, factor: number, valueFactor = 1): ThirteenFHoldingData => ({
  ...h,
  shares: Math.round(h.shares * factor),
  value_filed: Math.round(h.value_filed * factor * valueFactor),
  value_usd: Math.round(h.value_filed * factor * valueFactor) * 1000,
});

/** Another filing of ACTIAM made from the real one: the stated accession, form, dates and rows (re-indexed), one chunk. */
function filing(accession: string, changes: Partial<ThirteenFHoldingsData>, holdings: ThirteenFHoldingData[]): RecordEnvelope<ThirteenFHoldingsData> {
  const data: ThirteenFHoldingsData = {
    ...actiam.data,
    accession,
    ...changes,
    chunk: { index: 0, count: 1, holdings_total: holdings.length },
    holdings: holdings.map((h, index) => ({ ...h, index })),
  };
  return { ...actiam, key: accession, id: `rec_${accession.replace(/-/g, '').padEnd(32, '0')}`, provenance: { ...actiam.provenance, accession }, data };
}

// 13F-HR/A restatement of 2020Q4: only Apple and the two Alphabet rows.
const restatement = filing('0001619124-21-000005', { form: '13F-HR/A', filed_date: '2021-03-01', amendment: { number: 1, type: 'restatement' } }, [APPLE!, ALPHABET_C!, ALPHABET_A!]);
// 13F-HR/A new holdings, filed after the restatement: Microsoft, and Apple again (added to the restated Apple).
const newHoldings = filing('0001619124-21-000006', { form: '13F-HR/A', filed_date: '2021-03-15', amendment: { number: 2, type: 'new_holdings' } }, [MICROSOFT!, APPLE!]);
// 2021Q1: Apple +10 %, Alphabet C unchanged, Alphabet A -10 %, Microsoft gone, Amazon unchanged, and a new
// position: Amazon's row re-keyed to CUSIP 88160R101 (Tesla's). Same prices, so the units agree.
const q1 = filing('0001619124-21-000010', { period: '2021-03-31', quarter: '2021Q1', filed_date: '2021-05-14' }, [
  scaled(APPLE!, 1.1),
  ALPHABET_C!,
  scaled(ALPHABET_A!, 0.9),
  AMAZON!,
  { ...AMAZON!, issuer: 'TESLA INC', cusip: '88160R101' },
]);
// The same 2021Q1 filing with every value in dollars though filed when the rule says thousands.
const q1Dollars = filing('0001619124-21-000011', { period: '2021-03-31', quarter: '2021Q1', filed_date: '2021-05-14' }, [
  scaled(APPLE!, 1.1, 1000),
  scaled(ALPHABET_C!, 1, 1000),
  scaled(ALPHABET_A!, 0.9, 1000),
  scaled(AMAZON!, 1, 1000),
]);
// A 13F-NT for 2021Q2: no holdings; the SEC sample's other manager reports for ACTIAM.
const notice = filing(
  '0001619124-21-000020',
  {
    form: '13F-NT',
    period: '2021-06-30',
    quarter: '2021Q2',
    filed_date: '2021-08-13',
    report_type: 'notice',
    summary: { entry_total: null, value_total: null },
    other_managers: [{ sequence: null, cik: '0123456789', name: 'BIG FUND TRUST inc', file_number: '028-7844' }],
  },
  [],
);
/** ACTIAM's filing cut in two chunks (rows 0-2 and 3-4). */
const chunks = [0, 1].map((index) => ({
  ...actiam,
  id: `rec_actiam_chunk_${index}`,
  data: { ...actiam.data, chunk: { index, count: 2, holdings_total: 5 }, holdings: index === 0 ? actiam.data.holdings.slice(0, 3) : actiam.data.holdings.slice(3) },
}));

/** A filing cut into chunks of `size` rows (the ingestor's cut), one record per chunk. */
function chunked(base: RecordEnvelope<ThirteenFHoldingsData>, holdings: ThirteenFHoldingData[], size: number, id: string): RecordEnvelope<ThirteenFHoldingsData>[] {
  const count = Math.max(1, Math.ceil(holdings.length / size));
  return Array.from({ length: count }, (_, index) => ({
    ...base,
    id: `rec_${id}_${index}`,
    data: {
      ...base.data,
      chunk: { index, count, holdings_total: holdings.length },
      holdings: holdings.slice(index * size, (index + 1) * size).map((h, i) => ({ ...h, index: index * size + i })),
    },
  }));
}

/** An N-PORT record whose holdings map the given CUSIPs to companies by ticker (what the crosswalk is written from). */
const nport = (rows: Array<{ cusip: string; cik: string; symbol: string }>): RecordEnvelope<FundHoldingsData> => ({
  ...adx,
  data: {
    ...adx.data,
    holdings: rows.map((r, index) => ({ ...adx.data.holdings[0]!, index, cusip: r.cusip, match: { ...adx.data.holdings[0]!.match, cik: r.cik, symbol: r.symbol, method: 'ticker' } })),
  },
});
/** A third CUSIP of Alphabet's issuer prefix, here named for another company: the prefix no longer names one. */
const OTHER_02079K = `02079K20${cusipCheckDigit('02079K20')}`;
const ALPHABET = '0001652044';

let db: TestDatabase;
let ds: DataSource;
const project = (envelopes: RecordEnvelope<ThirteenFHoldingsData>[]): Promise<BatchOutcome> => ds.transaction((m) => projectThirteenFHoldings(m, envelopes));
const reset = () =>
  ds.query('TRUNCATE thirteenf_filings, thirteenf_holdings, institutional_positions, institutional_manager_quarters, institutional_managers, cusip_crosswalk');
type Position = { period: string; cusip: string; cik: string | null; match_method: string | null; shares: string; value_usd: string; prev_shares: string | null; share_delta: string | null; change: string | null; accession: string; holding_index: number };
const positions = (period: string) =>
  ds.query<Position[]>(
    `SELECT to_char(period, 'YYYY-MM-DD') AS period, cusip, cik, match_method, shares, value_usd, prev_shares, share_delta, change, accession, holding_index
     FROM institutional_positions WHERE manager_cik = $1 AND period = $2 ORDER BY cusip COLLATE "C"`,
    [MANAGER, period],
  );
const quarter = async (period: string) =>
  (
    await ds.query<Array<{ report_type: string; accessions: string[]; other_managers: unknown; positions: number; value_usd_total: string; unit_flag: string | null }>>(
      `SELECT report_type, accessions, other_managers, positions, value_usd_total, unit_flag FROM institutional_manager_quarters WHERE manager_cik = $1 AND period = $2`,
      [MANAGER, period],
    )
  )[0];
const snapshot = async () => ({
  filings: await ds.query<unknown[]>('SELECT accession, chunks_seen, chunk_count, chunk_hashes, superseded_by, unit_flag FROM thirteenf_filings ORDER BY accession'),
  holdings: await ds.query<unknown[]>('SELECT * FROM thirteenf_holdings ORDER BY accession, holding_index'),
  positions: await ds.query<unknown[]>('SELECT * FROM institutional_positions ORDER BY manager_cik, period, cusip'),
  quarters: await ds.query<unknown[]>('SELECT manager_cik, period, manager_name, report_type, accessions, other_managers, positions, value_usd_total, unit_flag FROM institutional_manager_quarters ORDER BY 1, 2'),
  managers: await ds.query<unknown[]>('SELECT cik, name, file_number, latest_period FROM institutional_managers ORDER BY cik'),
});

beforeAll(async () => {
  db = await createTestDatabase('thirteenf_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('projectThirteenFHoldings', () => {
  beforeEach(reset);

  it('projects a 13F-HR into one quarter of positions, the manager and its quarter, once however often it comes', async () => {
    expect(await project([actiam, actiam])).toEqual({ inserted: [actiam.key], updated: [], unchanged: 1 });
    const rows = await positions('2020-12-31');
    expect(rows.map((r) => [r.cusip, r.shares, r.value_usd, r.change])).toEqual([
      ['02079K107', '38127', '66793000', null],
      ['02079K305', '33532', '58769000', null],
      ['023135106', '46688', '152059000', null],
      ['037833100', '1733777', '230054000', null],
      ['594918104', '1009277', '224483000', null],
    ]);
    // No crosswalk yet: unmatched, still there by CUSIP; each row cites its own infoTable row.
    expect(rows.every((r) => r.cik === null && r.accession === actiam.key)).toBe(true);
    expect(rows.find((r) => r.cusip === '594918104')!.holding_index).toBe(3);
    expect(await quarter('2020-12-31')).toEqual({ report_type: 'holdings', accessions: [actiam.key], other_managers: [], positions: 5, value_usd_total: '732158000', unit_flag: null });
    expect(await ds.query('SELECT cik, name, file_number, to_char(latest_period, \'YYYY-MM-DD\') AS latest_period FROM institutional_managers')).toEqual([
      { cik: MANAGER, name: 'ACTIAM N.V.', file_number: '028-19140', latest_period: '2020-12-31' },
    ]);
    const before = await snapshot();
    expect(await project([actiam])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await snapshot()).toEqual(before);
  });

  it('counts a redelivered chunk once and serves a filing only when all its chunks are in', async () => {
    expect(await project([chunks[0]!, chunks[0]!])).toEqual({ inserted: [actiam.key], updated: [], unchanged: 1 });
    expect(await ds.query('SELECT chunks_seen, chunk_count FROM thirteenf_filings')).toEqual([{ chunks_seen: 1, chunk_count: 2 }]);
    expect(await positions('2020-12-31')).toEqual([]);
    expect(await ds.transaction((m) => thirteenFFilingsByAccessions(m, [actiam.key]))).toEqual([]);
    expect(await project([chunks[0]!])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await project([chunks[1]!])).toEqual({ inserted: [], updated: [actiam.key], unchanged: 0 });
    expect(await ds.query('SELECT chunks_seen, chunk_count FROM thirteenf_filings')).toEqual([{ chunks_seen: 2, chunk_count: 2 }]);
    expect(await positions('2020-12-31')).toHaveLength(5);
    const [summary] = await ds.transaction((m) => thirteenFFilingsByAccessions(m, [actiam.key]));
    expect(summary).toMatchObject({ accession: actiam.key, managerCik: MANAGER, period: '2020-12-31', holdingsTotal: 5, valueUsdTotal: '732158000' });
  });

  it('a restatement replaces the quarter; a new-holdings amendment filed after it adds to it', async () => {
    await project([actiam]);
    expect(await project([restatement])).toEqual({ inserted: [restatement.key], updated: [], unchanged: 0 });
    expect((await positions('2020-12-31')).map((r) => [r.cusip, r.shares, r.accession])).toEqual([
      ['02079K107', '38127', restatement.key],
      ['02079K305', '33532', restatement.key],
      ['037833100', '1733777', restatement.key],
    ]);
    expect(await ds.query('SELECT accession, superseded_by FROM thirteenf_filings ORDER BY accession')).toEqual([
      { accession: actiam.key, superseded_by: restatement.key },
      { accession: restatement.key, superseded_by: null },
    ]);
    expect(await quarter('2020-12-31')).toMatchObject({ accessions: [restatement.key], positions: 3 });

    await project([newHoldings]);
    const rows = await positions('2020-12-31');
    expect(rows.map((r) => [r.cusip, r.shares])).toEqual([
      ['02079K107', '38127'],
      ['02079K305', '33532'],
      ['037833100', String(2 * 1733777)],
      ['594918104', '1009277'],
    ]);
    // Apple's row cites the restatement's (the first current filing); Microsoft's the amendment's.
    expect(rows.find((r) => r.cusip === '037833100')).toMatchObject({ accession: restatement.key, holding_index: 0 });
    expect(rows.find((r) => r.cusip === '594918104')).toMatchObject({ accession: newHoldings.key, holding_index: 0 });
    expect(await quarter('2020-12-31')).toMatchObject({ accessions: [restatement.key, newHoldings.key], positions: 4 });
  });

  it('the same quarter whatever order the original, restatement and amendment arrive in', async () => {
    await project([newHoldings, restatement, actiam]);
    const outOfOrder = await snapshot();
    await reset();
    await project([actiam]);
    await project([restatement]);
    await project([newHoldings]);
    expect(await snapshot()).toEqual(outOfOrder);
  });

  it('two quarters give new, increased, decreased, unchanged and sold_out, in either arrival order', async () => {
    await project([actiam]);
    await project([q1]);
    const rows = await positions('2021-03-31');
    expect(rows.map((r) => [r.cusip, r.change, r.prev_shares, r.share_delta, r.shares])).toEqual([
      ['02079K107', 'unchanged', '38127', '0', '38127'],
      ['02079K305', 'decreased', '33532', String(Math.round(33532 * 0.9) - 33532), String(Math.round(33532 * 0.9))],
      ['023135106', 'unchanged', '46688', '0', '46688'],
      ['037833100', 'increased', '1733777', String(Math.round(1733777 * 1.1) - 1733777), String(Math.round(1733777 * 1.1))],
      ['594918104', 'sold_out', '1009277', '-1009277', '0'],
      ['88160R101', 'new', '0', '46688', '46688'],
    ]);
    // The sold-out row cites the last holding that showed it: 2020Q4's Microsoft row.
    expect(rows.find((r) => r.change === 'sold_out')).toMatchObject({ value_usd: '0', accession: actiam.key, holding_index: 3 });
    // The first quarter has no previous one filed: no change.
    expect((await positions('2020-12-31')).every((r) => r.change === null && r.prev_shares === null && r.share_delta === null)).toBe(true);
    expect(await quarter('2021-03-31')).toMatchObject({ positions: 5, unit_flag: null });
    expect(await ds.query("SELECT to_char(latest_period, 'YYYY-MM-DD') AS p FROM institutional_managers")).toEqual([{ p: '2021-03-31' }]);
    const inOrder = await snapshot();

    // The later quarter first: its changes wait for the earlier one, then are computed.
    await reset();
    await project([q1]);
    expect((await positions('2021-03-31')).map((r) => r.change)).toEqual([null, null, null, null, null]);
    await project([actiam]);
    expect(await snapshot()).toEqual(inOrder);
    // And both in one batch.
    await reset();
    await project([q1, actiam]);
    expect(await snapshot()).toEqual(inOrder);
  });

  it('flags a quarter whose values per share are 1000 times the previous quarter', async () => {
    await project([actiam, q1Dollars]);
    expect(await quarter('2021-03-31')).toMatchObject({ unit_flag: UNIT_CONTRADICTS_PREVIOUS_QUARTER });
    expect(await ds.query('SELECT accession, unit_flag FROM thirteenf_filings ORDER BY accession')).toEqual([
      { accession: actiam.key, unit_flag: null },
      { accession: q1Dollars.key, unit_flag: UNIT_CONTRADICTS_PREVIOUS_QUARTER },
    ]);
    // Never rescaled: the values stay as filed x 1000.
    expect((await positions('2021-03-31')).find((r) => r.cusip === '023135106')!.value_usd).toBe(String(152059 * 1000 * 1000));
    expect(await quarter('2020-12-31')).toMatchObject({ unit_flag: null });
  });

  it('a notice: no positions, the manager quarter names who reports for this manager, and the next quarter has no change', async () => {
    await project([notice]);
    expect(await quarter('2021-06-30')).toEqual({
      report_type: 'notice',
      accessions: [notice.key],
      other_managers: [{ sequence: null, cik: '0123456789', name: 'BIG FUND TRUST inc', file_number: '028-7844' }],
      positions: 0,
      value_usd_total: '0',
      unit_flag: null,
    });
    expect(await positions('2021-06-30')).toEqual([]);
    // 2021Q3 after the notice: the previous quarter has no holdings of this manager's own, so no change (and nothing sold out).
    const q3 = filing('0001619124-21-000030', { period: '2021-09-30', quarter: '2021Q3', filed_date: '2021-11-12' }, actiam.data.holdings);
    await project([q3]);
    expect((await positions('2021-09-30')).map((r) => r.change)).toEqual([null, null, null, null, null]);
  });

  it('a filing read again with fewer rows in as many chunks serves none of the dropped ones', async () => {
    const first = chunked(actiam, [APPLE!, ALPHABET_C!, ALPHABET_A!, MICROSOFT!], 2, 'first');
    await project(first);
    expect((await positions('2020-12-31')).map((r) => r.cusip)).toEqual(['02079K107', '02079K305', '037833100', '594918104']);
    // Read again: Microsoft dropped, still two chunks (rows 0-1, then row 2 alone).
    const again = chunked(actiam, [APPLE!, ALPHABET_C!, ALPHABET_A!], 2, 'again');
    expect(await project([again[0]!])).toEqual({ inserted: [], updated: [actiam.key], unchanged: 0 });
    // The first chunk's header says 3 rows: row 3 (the old second chunk's Microsoft) goes at once.
    expect(await ds.query('SELECT holding_index, cusip FROM thirteenf_holdings ORDER BY holding_index')).toEqual([
      { holding_index: 0, cusip: '037833100' },
      { holding_index: 1, cusip: '02079K107' },
      { holding_index: 2, cusip: '02079K305' },
    ]);
    expect((await positions('2020-12-31')).map((r) => r.cusip)).toEqual(['02079K107', '02079K305', '037833100']);
    await project([again[1]!]);
    expect(await ds.query('SELECT holding_index, cusip FROM thirteenf_holdings ORDER BY holding_index')).toHaveLength(3);
    expect(await ds.query('SELECT holdings_total, chunks_seen, chunk_count FROM thirteenf_filings')).toEqual([{ holdings_total: 3, chunks_seen: 2, chunk_count: 2 }]);
    const both = await snapshot();
    // Both chunks of the new reading in one batch: the same.
    await reset();
    await project(first);
    await project(again);
    expect(await snapshot()).toEqual(both);
    expect((await positions('2020-12-31')).map((r) => r.cusip)).toEqual(['02079K107', '02079K305', '037833100']);
  });

  it('change follows the long position: options alone are sold_out after shares, else no change', async () => {
    const option = (h: ThirteenFHoldingData, put_call: 'put' | 'call'): ThirteenFHoldingData => ({ ...h, put_call });
    // 2020Q4: Apple long, Microsoft puts, Alphabet C puts.
    const q4 = filing('0001619124-21-000001', {}, [APPLE!, option(MICROSOFT!, 'put'), option(ALPHABET_C!, 'put')]);
    // 2021Q1: Apple calls only, Microsoft puts again, Amazon puts (new), Alphabet C gone.
    const q1Options = filing('0001619124-21-000010', { period: '2021-03-31', quarter: '2021Q1', filed_date: '2021-05-14' }, [
      option(APPLE!, 'call'),
      option(MICROSOFT!, 'put'),
      option(AMAZON!, 'put'),
    ]);
    const rowsOf = async () =>
      (
        await ds.query<Array<Position & { call_shares: string; put_shares: string }>>(
          `SELECT cusip, shares, call_shares, put_shares, prev_shares, share_delta, change, accession FROM institutional_positions
           WHERE manager_cik = $1 AND period = '2021-03-31' ORDER BY cusip COLLATE "C"`,
          [MANAGER],
        )
      ).map((r) => [r.cusip, r.shares, r.call_shares, r.put_shares, r.prev_shares, r.share_delta, r.change, r.accession]);
    const expected = [
      ['023135106', '0', '0', '46688', '0', '0', null, q1Options.key],
      // Long 1,733,777 shares, then calls only: sold out, the row kept (its own holding) for the calls.
      ['037833100', '0', '1733777', '0', '1733777', '-1733777', 'sold_out', q1Options.key],
      ['594918104', '0', '0', '1009277', '0', '0', null, q1Options.key],
    ];
    await project([q4]);
    await project([q1Options]);
    // Alphabet C's puts are gone: no long position was held, so no sold_out row.
    expect(await rowsOf()).toEqual(expected);
    const inOrder = await snapshot();
    // The earlier quarter recomputed (a restatement of the same rows) keeps the sold_out row that is a holding of 2021Q1.
    await project([filing('0001619124-21-000005', { form: '13F-HR/A', filed_date: '2021-03-01', amendment: { number: 1, type: 'restatement' } }, q4.data.holdings)]);
    expect(await rowsOf()).toEqual(expected);
    // Either arrival order.
    await reset();
    await project([q1Options]);
    await project([q4]);
    expect(await snapshot()).toEqual(inOrder);
  });

  it('matches positions through the crosswalk when N-PORT arrives after the 13F: by CUSIP, else by an unambiguous issuer', async () => {
    await project([actiam]);
    await ds.transaction((m) => projectFundHoldings(m, [adx]));
    expect((await positions('2020-12-31')).map((r) => [r.cusip, r.cik, r.match_method])).toEqual([
      // ADX holds Alphabet class A only: class C shares its issuer prefix 02079K.
      ['02079K107', '0001652044', 'cusip_issuer'],
      ['02079K305', '0001652044', 'cusip'],
      ['023135106', '0001018724', 'cusip'],
      ['037833100', '0000320193', 'cusip'],
      ['594918104', '0000789019', 'cusip'],
    ]);
    expect(await ds.query("SELECT cik, symbol, method, accession, holding_index FROM cusip_crosswalk WHERE cusip = '594918104'")).toEqual([
      { cik: '0000789019', symbol: 'MSFT:US', method: 'ticker', accession: adx.data.accession, holding_index: 72 },
    ]);
    // A quarter projected after the crosswalk is matched as it is written (ADX holds Tesla too).
    await project([q1]);
    expect((await positions('2021-03-31')).map((r) => [r.cusip, r.cik])).toEqual([
      ['02079K107', '0001652044'],
      ['02079K305', '0001652044'],
      ['023135106', '0001018724'],
      ['037833100', '0000320193'],
      ['594918104', '0000789019'],
      ['88160R101', '0001318605'],
    ]);
  });
});

describe('the crosswalk and the 13F positions', () => {
  beforeEach(reset);
  const crosswalk = (rows: Parameters<typeof nport>[0]) => ds.transaction((m) => upsertCusipCrosswalk(m, [nport(rows)]));
  const matches = async () => (await positions('2020-12-31')).map((r) => [r.cusip, r.cik, r.match_method]);

  it('re-matches every position of the issuers written: a prefix that names two companies unmatches, in either arrival order', async () => {
    await project([actiam]);
    await crosswalk([{ cusip: '02079K305', cik: ALPHABET, symbol: 'GOOGL:US' }]);
    expect((await matches()).slice(0, 2)).toEqual([
      ['02079K107', ALPHABET, 'cusip_issuer'],
      ['02079K305', ALPHABET, 'cusip'],
    ]);
    await crosswalk([{ cusip: OTHER_02079K, cik: '0000000099', symbol: 'OTHER:US' }]);
    const after = await matches();
    expect(after.slice(0, 2)).toEqual([
      ['02079K107', null, null],
      ['02079K305', ALPHABET, 'cusip'],
    ]);
    // The crosswalk first, then the 13F: the same.
    await reset();
    await crosswalk([{ cusip: '02079K305', cik: ALPHABET, symbol: 'GOOGL:US' }]);
    await crosswalk([{ cusip: OTHER_02079K, cik: '0000000099', symbol: 'OTHER:US' }]);
    await project([actiam]);
    expect(await matches()).toEqual(after);
    // The exact CUSIP of a position once matched by its issuer takes over.
    await crosswalk([{ cusip: '02079K107', cik: ALPHABET, symbol: 'GOOG:US' }]);
    expect((await matches())[0]).toEqual(['02079K107', ALPHABET, 'cusip']);
  });

  it('a crosswalk write in flight: a quarter recompute waits for it and matches its rows', async () => {
    const writer = ds.createQueryRunner();
    await writer.connect();
    try {
      await writer.startTransaction();
      await upsertCusipCrosswalk(writer.manager, [nport([{ cusip: '037833100', cik: '0000320193', symbol: 'AAPL:US' }])]);
      let done = false;
      const recompute = project([actiam]).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      await writer.commitTransaction();
      await recompute;
    } finally {
      await writer.release();
    }
    expect((await matches()).find((r) => r[0] === '037833100')).toEqual(['037833100', '0000320193', 'cusip']);
  });

  it('a quarter recompute in flight: a crosswalk write waits for it and re-matches its positions', async () => {
    const recompute = ds.createQueryRunner();
    await recompute.connect();
    try {
      await recompute.startTransaction();
      await projectThirteenFHoldings(recompute.manager, [actiam]);
      let done = false;
      const write = crosswalk([{ cusip: '037833100', cik: '0000320193', symbol: 'AAPL:US' }]).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      await recompute.commitTransaction();
      await write;
    } finally {
      await recompute.release();
    }
    expect((await matches()).find((r) => r[0] === '037833100')).toEqual(['037833100', '0000320193', 'cusip']);
  });
});

describe('projectThirteenFSecurities', () => {
  it('upserts the list rows once', async () => {
    await ds.query('TRUNCATE thirteenf_securities');
    expect(await ds.transaction((m) => projectThirteenFSecurities(m, [list, list]))).toEqual({ inserted: [list.key], updated: [], unchanged: 1 });
    expect(await ds.transaction((m) => projectThirteenFSecurities(m, [list]))).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await ds.query("SELECT cusip, has_options, issuer, description, status FROM thirteenf_securities WHERE quarter = '2020Q3' ORDER BY cusip LIMIT 1")).toEqual([
      { cusip: 'B38564108', has_options: true, issuer: 'EURONAV NV', description: 'SHS', status: null },
    ]);
    expect(await ds.query("SELECT count(*)::int AS n FROM thirteenf_securities WHERE status = 'ADDED'")).toEqual([{ n: 1 }]);
  });
});
