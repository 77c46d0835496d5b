import { performance } from 'node:perf_hooks';
import { Pool, type Client } from 'pg';
import { type HoldersSort, CUSIP_CROSSWALK_TABLE, INSTITUTIONAL_MANAGER_QUARTERS_TABLE, INSTITUTIONAL_MANAGERS_TABLE, INSTITUTIONAL_POSITIONS_TABLE, THIRTEENF_FILINGS_TABLE, THIRTEENF_HOLDINGS_TABLE } from '@app/persistence';
import { CopyStream } from './copy.stream';
import { dropSecondaryIndexes, rebuildIndexes, withClient } from './scale-data';

/*
 * The 13F read model at a year's volume: institutional_positions over four quarters (SEC's data
 * sets hold ~3M infoTable rows a quarter), `managers` managers each holding `positions / 4 /
 * managers` securities a quarter out of a pool of 20,000 (those of the ticker map's companies
 * matched to a CIK, the rest unmatched, as the CUSIP crosswalk leaves them), and one stock (the
 * bench symbol's company) held by `holders` managers every quarter. Rows are generated (the 13F
 * projection writes them from 13f-holdings@1 records; none is in the fixtures at this scale), in
 * primary-key order, streamed into COPY; secondary indexes are rebuilt after the load. Each
 * position has its filing row (thirteenf_holdings, with an infoTable quote) and its filing
 * (thirteenf_filings), and matched CUSIPs their crosswalk row: the holders list joins them all.
 */

export interface ThirteenFSizes {
  positions: number;
  managers: number;
  holders: number;
}

export const THIRTEENF_PERIODS = ['2024-06-30', '2024-09-30', '2024-12-31', '2025-03-31'] as const;
const SECURITIES = 20_000;
const STRIDE = 53; // coprime with SECURITIES: a manager's securities are distinct

const managerCik = (m: number) => String(9_000_000 + m).padStart(10, '0');
const cusipOf = (i: number) => `${String(i).padStart(8, '0')}0`;
const hash = (...xs: number[]) => xs.reduce((h, x) => Math.imul(h ^ x, 0x9e3779b1) >>> 0, 0x811c9dc5) >>> 15;
const firstShares = (m: number, i: number) => 100 + (hash(m, i) % 100_000) * 10;
/** A quarter's change of a position: 15 % unchanged (ties at delta 0, as real quarters have), 45 % up to +45 %, 40 % down to -40 %. */
function nextShares(shares: number, m: number, i: number, q: number): number {
  const r = hash(m, i, q) % 100;
  if (r < 15) return shares;
  return r < 60 ? Math.round(shares * (1 + (r - 14) / 100)) : Math.max(1, Math.round(shares * (1 - (r - 59) / 100)));
}
const priceOf = (i: number) => 10 + (i % 500);

/** Loads the positions, managers and manager quarters; returns the rows loaded. */
export async function fillThirteenF(url: string, sizes: ThirteenFSizes, target: { cik: string; cusip: string }, companyCiks: readonly string[], log: (line: string) => void): Promise<{ positions: number; phases: Array<{ name: string; seconds: number }> }> {
  const phases: Array<{ name: string; seconds: number }> = [];
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    const seconds = (performance.now() - t) / 1000;
    phases.push({ name, seconds });
    log(`  ${name}: ${seconds.toFixed(1)} s`);
    return out;
  };
  const perManager = Math.ceil(sizes.positions / THIRTEENF_PERIODS.length / sizes.managers);
  if (perManager >= SECURITIES) throw new Error(`${perManager} positions per manager exceed the ${SECURITIES} securities`);
  if (sizes.holders > sizes.managers) throw new Error(`BENCH_SCALE_13F_HOLDERS ${sizes.holders} > managers ${sizes.managers}`);
  // Security i: the target at 0, the companies' next, then unmatched CUSIPs.
  const ciks = [target.cik, ...companyCiks.filter((c) => c !== target.cik)];
  const cusips = Array.from({ length: SECURITIES }, (_, i) => (i === 0 ? target.cusip : cusipOf(i)));
  const tables = ['institutional_positions', 'institutional_managers', 'institutional_manager_quarters', 'thirteenf_holdings', 'thirteenf_filings', 'cusip_crosswalk'];
  const indexes = await dropSecondaryIndexes(url, tables);
  let positions = 0;
  await timed(`institutional_positions + thirteenf_holdings (COPY, ${perManager} a manager a quarter), thirteenf_filings, managers`, async () => {
    // change_rank is generated: Postgres computes it from share_delta.
    const copy = new CopyStream(url, 'institutional_positions', Object.entries(INSTITUTIONAL_POSITIONS_TABLE.columns).filter(([, c]) => !c.generated).map(([name]) => name));
    const holdings = new CopyStream(url, 'thirteenf_holdings', Object.keys(THIRTEENF_HOLDINGS_TABLE.columns));
    const filingRows = new CopyStream(url, 'thirteenf_filings', Object.keys(THIRTEENF_FILINGS_TABLE.columns));
    const managers = new CopyStream(url, 'institutional_managers', Object.keys(INSTITUTIONAL_MANAGERS_TABLE.columns));
    const quarters = new CopyStream(url, 'institutional_manager_quarters', Object.keys(INSTITUTIONAL_MANAGER_QUARTERS_TABLE.columns));
    try {
      for (let m = 0; m < sizes.managers; m += 1) {
        const cik = managerCik(m);
        await managers.write({ cik, name: `MANAGER ${m} CAPITAL MANAGEMENT LLC`, file_number: `028-${String(m).padStart(5, '0')}`, latest_period: THIRTEENF_PERIODS.at(-1), updated_at: '2025-05-15T00:00:00Z' });
        const start = (m * 7919) % SECURITIES;
        const held = Array.from({ length: perManager }, (_, k) => (start + k * STRIDE) % SECURITIES).filter((i) => i !== 0);
        if (m < sizes.holders) held.push(0);
        else held.push((start + perManager * STRIDE) % SECURITIES || 1);
        held.sort((a, b) => (cusips[a]! < cusips[b]! ? -1 : 1));
        const last: number[] = held.map((i) => firstShares(m, i));
        for (let q = 0; q < THIRTEENF_PERIODS.length; q += 1) {
          const period = THIRTEENF_PERIODS[q]!;
          const accession = `98${String(m).padStart(8, '0')}-2${q}-000001`;
          let total = 0;
          for (let k = 0; k < held.length; k += 1) {
            const i = held[k]!;
            const prev = q === 0 ? null : last[k]!;
            const shares = prev === null ? last[k]! : nextShares(prev, m, i, q);
            last[k] = shares;
            const value = shares * priceOf(i);
            total += value;
            await copy.write({
              manager_cik: cik,
              period,
              cusip: cusips[i],
              cik: ciks[i] ?? null,
              match_method: ciks[i] ? 'nport' : null,
              issuer: `ISSUER ${i}`,
              class_title: 'COM',
              shares,
              principal: 0,
              value_usd: value,
              put_shares: 0,
              put_value_usd: 0,
              call_shares: 0,
              call_value_usd: 0,
              prev_shares: prev,
              share_delta: shares - (prev ?? 0),
              change: prev === null ? 'new' : shares > prev ? 'increased' : shares < prev ? 'decreased' : 'unchanged',
              accession,
              holding_index: k,
            });
            await holdings.write({
              accession,
              holding_index: k,
              cusip: cusips[i],
              issuer: `ISSUER ${i}`,
              class_title: 'COM',
              figi: null,
              value_filed: value,
              value_usd: value,
              shares,
              share_type: 'SH',
              put_call: null,
              discretion: 'SOLE',
              other_managers: '{}',
              voting_sole: shares,
              voting_shared: 0,
              voting_none: 0,
              quote: `<infoTable><nameOfIssuer>ISSUER ${i}</nameOfIssuer><titleOfClass>COM</titleOfClass><cusip>${cusips[i]}</cusip><value>${value}</value><shrsOrPrnAmt><sshPrnamt>${shares}</sshPrnamt><sshPrnamtType>SH</sshPrnamtType></shrsOrPrnAmt><investmentDiscretion>SOLE</investmentDiscretion><votingAuthority><Sole>${shares}</Sole><Shared>0</Shared><None>0</None></votingAuthority></infoTable>`,
            });
            positions += 1;
          }
          await filingRows.write({
            accession,
            manager_cik: cik,
            manager_name: `MANAGER ${m} CAPITAL MANAGEMENT LLC`,
            form: '13F-HR',
            report_type: 'holdings',
            amendment_number: null,
            amendment_type: null,
            period,
            filed_date: period,
            accepted_at: null,
            file_number: `028-${String(m).padStart(5, '0')}`,
            other_managers: [],
            included_managers: [],
            entry_total: held.length,
            value_total: total,
            value_unit: 'dollars',
            unit_basis: 'filing_date',
            unit_flag: null,
            holdings_total: held.length,
            chunks_seen: 1,
            chunk_count: 1,
            chunk_hashes: '{sha256:bench}',
            superseded_by: null,
            source_url: 'https://www.sec.gov/files/structureddata/data/form-13f-data-sets/bench_form13f.zip',
            provenance: { src_id: 'src_bench', source_provider: 'sec', source_url: 'https://www.sec.gov/files/structureddata/data/form-13f-data-sets/bench_form13f.zip', accession, quote: null, content_hash: 'sha256:bench', extracted_at: '2025-05-15T00:00:00Z' },
            record_id: `rec_${accession}`,
            updated_at: '2025-05-15T00:00:00Z',
          });
          await quarters.write({ manager_cik: cik, period, manager_name: `MANAGER ${m} CAPITAL MANAGEMENT LLC`, report_type: 'holdings', accessions: `{${accession}}`, other_managers: [], positions: held.length, value_usd_total: total, unit_flag: null, updated_at: '2025-05-15T00:00:00Z' });
        }
      }
      const crosswalk = new CopyStream(url, 'cusip_crosswalk', Object.keys(CUSIP_CROSSWALK_TABLE.columns));
      for (let i = 0; i < SECURITIES; i += 1) {
        if (ciks[i]) await crosswalk.write({ cusip: cusips[i], cik: ciks[i], symbol: null, method: 'nport', accession: '9700000000-25-000001', holding_index: i, updated_at: '2025-05-15T00:00:00Z' });
      }
      await Promise.all([copy.end(), holdings.end(), filingRows.end(), managers.end(), quarters.end(), crosswalk.end()]);
    } catch (error) {
      for (const s of [copy, holdings, filingRows, managers, quarters]) s.kill();
      throw error;
    }
  });
  await timed('secondary indexes rebuilt', () => rebuildIndexes(url, indexes));
  await timed('VACUUM ANALYZE', () => withClient(url, (c) => c.query(`VACUUM ANALYZE ${tables.join(', ')}`)));
  return { positions, phases };
}

export const HOLDERS_SORTS: readonly HoldersSort[] = ['value', 'shares', 'change'];
const SORT_COLUMN: Record<HoldersSort, string> = { value: 'value_usd', shares: 'shares', change: 'change_rank' };
export const holdersIndexOf = (sort: HoldersSort) => `institutional_positions_holders_${sort}_idx`;

/** The keyset of the row at `fraction` of the holders list (SQL of the list's own order). */
export async function holdersKeyAt(c: Client, cik: string, period: string, sort: HoldersSort, fraction: number): Promise<{ total: number; offset: number; after: [number, string, string] }> {
  const col = SORT_COLUMN[sort];
  const where = `WHERE cik = $1 AND period = $2`;
  const total = Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM institutional_positions ${where}`, [cik, period])).rows[0]!.n);
  const offset = Math.max(0, Math.floor(total * fraction) - 1);
  const k = (await c.query<{ v: string; m: string; c: string }>(`SELECT ${col}::text AS v, manager_cik AS m, cusip AS c FROM institutional_positions ${where} ORDER BY ${col} DESC, manager_cik, cusip OFFSET ${offset} LIMIT 1`, [cik, period])).rows[0]!;
  return { total, offset, after: [Number(k.v), k.m, k.c] };
}

export interface LatencyRun {
  reqPerSec: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
}

/** `concurrency` loops calling `fn` (one repository call) for `seconds`; the latency of each call as its caller sees it (pool waits included). */
export async function measureCalls(fn: () => Promise<unknown>, concurrency: number, seconds: number): Promise<LatencyRun> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await fn();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  return { reqPerSec: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), mean: latencies.reduce((a, b) => a + b, 0) / latencies.length, requests: latencies.length };
}

export function statementPool(url: string, size: number): Pool {
  return new Pool({ connectionString: url, max: size, application_name: 'bench-scale-13f' });
}
