import { join } from 'node:path';
import { Client } from 'pg';
import { contentHash, padCik, stableStringify, type FilingRecordV1, type Form4RecordV1, type FundHoldingsRecordV1 } from '@app/contracts';
import { filingRow, form4FilingRow, fundHoldingRows, insiderTransactionRows, rebuildCompanyFundCounts } from '@app/persistence';
import { loadCompanies, tickerMapRecords } from '../api-companies/scratch-db';
import { BenchRecords, fixturesDir } from '../projector/records.generator';
import { CopyStream } from './copy.stream';

/*
 * The scale database's contents, all rows made by the projection's own row builders from real
 * fixture records (bench/projector/records.generator.ts), repeated under distinct keys:
 * - companies: the ticker map, through the projector's batch projection (as bench/api-companies);
 * - filings: the fixture filings, then copies under distinct accessions. A copy is filed by a
 *   listed company of the ticker map in turn (its CIK and name), so filings spread over ~10,000
 *   issuers as EDGAR's do, and a name search matches one issuer's filings, not a third of the table;
 * - form4_filings + insider_transactions: the fixture Form 4s and their copies (copies keep their
 *   issuer: the few fixture issuers, MSFT among them, get hundreds of thousands of rows each, the
 *   worst case of the per-company insider list);
 * - funds + fund_holdings: `funds` funds, each a copy of a fixture N-PORT filing's holdings cycled
 *   to `fundHoldings / funds` rows, every one holding the exposure company (one row each, weight
 *   varied), all current.
 * Secondary indexes are dropped before the load and rebuilt from their own definitions after it
 * (faster than maintaining them row by row), then VACUUM ANALYZE.
 */

export interface ScaleSizes {
  filings: number;
  insiderRows: number;
  fundHoldings: number;
  funds: number;
}

export interface ScaleCounts {
  companies: number;
  filings: number;
  form4Filings: number;
  insiderRows: number;
  funds: number;
  fundHoldings: number;
  /** The company held by every fund. */
  exposureCik: string;
  phases: Array<{ name: string; seconds: number }>;
}

const LOADED_TABLES = ['filings', 'form4_filings', 'insider_transactions', 'funds', 'fund_holdings'];

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url, application_name: 'bench-scale-load' });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Fills a migrated database; `log` gets one line per phase. */
export async function fillScaleDatabase(url: string, root: string, sizes: ScaleSizes, symbol: string, log: (line: string) => void): Promise<ScaleCounts> {
  const phases: ScaleCounts['phases'] = [];
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    const seconds = (performance.now() - t) / 1000;
    phases.push({ name, seconds });
    log(`  ${name}: ${seconds.toFixed(1)} s`);
    return out;
  };

  const dir = fixturesDir(root);
  const companies = await timed('companies (ticker map, batch projection)', async () =>
    (await loadCompanies(url, tickerMapRecords(join(dir, 'tickers', 'company_tickers_exchange.json'), '2025-08-02T12:00:00.000Z'))).rows,
  );
  const exposureCik = await withClient(url, async (c) => (await c.query<{ cik: string }>('SELECT cik FROM companies WHERE symbol = $1', [symbol])).rows[0]?.cik);
  if (!exposureCik) throw new Error(`no company ${symbol} in the ticker map`);

  // Secondary indexes off during the load; their definitions are replayed after it.
  const indexes = await dropSecondaryIndexes(url, LOADED_TABLES);

  // How many Form 4 records give at least the insider rows asked for: rows per record, measured on
  // a probe plan, is an estimate (the full plan cycles the fixtures differently), hence 0.1 % more.
  const probe = new BenchRecords(dir, 1_000_000, 0.1);
  const rowsPerForm4 = probe.expected().form4Rows / probe.plan.form4;
  const form4Records = Math.max(1, Math.ceil((sizes.insiderRows * 1.001) / rowsPerForm4));
  const total = sizes.filings + probe.companies.length + probe.fundHoldings.length + form4Records;
  const gen = new BenchRecords(dir, total, form4Records / total);
  log(`  plan: ${gen.plan.filings} filing@1, ${gen.plan.form4} form4@1 (~${rowsPerForm4.toFixed(1)} rows each) from ${dir}`);

  // Filers of the copied filings: the ticker map's issuers, each once.
  const filers = [...new Map(gen.companies.map((c) => [padCik(c.data.cik), c.data.name])).entries()];

  const streams: CopyStream[] = [];
  const open = (table: string, columns: readonly string[]): CopyStream => {
    const s = new CopyStream(url, table, columns);
    streams.push(s);
    return s;
  };
  let filingsCopy: CopyStream | null = null;
  let form4Copy: CopyStream | null = null;
  let insiderCopy: CopyStream | null = null;
  let insiderRows = 0;
  try {
    await timed('filings, form4_filings, insider_transactions (COPY)', async () => {
      let copies = 0;
      for (const chunk of gen.chunks(5000)) {
        if (chunk.topic === 'form4') {
          for (const r of chunk.records as Form4RecordV1[]) {
            const f = form4FilingRow(r);
            form4Copy ??= open('form4_filings', Object.keys(f));
            await form4Copy.write(f);
            for (const row of insiderTransactionRows(r)) {
              insiderCopy ??= open('insider_transactions', Object.keys(row));
              await insiderCopy.write(row);
              insiderRows += 1;
            }
          }
        } else if (chunk.topic === 'filings') {
          for (const r of chunk.records as FilingRecordV1[]) {
            const row = filingRow(r);
            // Copies carry accessions starting 99 (no real filer id does): they go to the next listed issuer.
            if (row.accession.startsWith('99')) {
              const [cik, name] = filers[copies++ % filers.length]!;
              row.cik = cik;
              row.company_name = name;
            }
            filingsCopy ??= open('filings', Object.keys(row));
            await filingsCopy.write(row);
          }
        }
      }
      await Promise.all(streams.map((s) => s.end()));
    });

    await timed('funds, fund_holdings (COPY)', () => copyFunds(url, gen.fundHoldings, sizes, exposureCik, open));

    await timed('secondary indexes rebuilt', () => rebuildIndexes(url, indexes));
    // Loaded around the projection, so the counts it keeps are counted here once.
    await timed('company fund counts', () => withClient(url, (c) => rebuildCompanyFundCounts(c)));
    await timed('VACUUM ANALYZE', () => withClient(url, (c) => c.query('VACUUM ANALYZE')));
  } finally {
    for (const s of streams) s.kill();
  }

  const counts = await withClient(url, async (c) => {
    const n = async (table: string) => Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    return { filings: await n('filings'), form4Filings: await n('form4_filings'), funds: await n('funds'), fundHoldings: await n('fund_holdings') };
  });
  return { companies, ...counts, insiderRows, exposureCik, phases };
}

/** Drops the secondary indexes of `tables` (constraints' own indexes stay) and returns their definitions, for rebuildIndexes after a load. */
export async function dropSecondaryIndexes(url: string, tables: readonly string[]): Promise<Array<{ name: string; def: string }>> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
      [tables],
    );
    for (const r of rows) await c.query(`DROP INDEX ${r.name}`);
    return rows;
  });
}

/** Replays index definitions dropSecondaryIndexes returned (one build after a load is faster than maintaining them row by row). */
export async function rebuildIndexes(url: string, indexes: ReadonlyArray<{ def: string }>): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(`SET maintenance_work_mem = '512MB'`);
    for (const r of indexes) await c.query(r.def);
  });
}

/** The counts of a database an earlier run loaded and kept (BENCH_SCALE_DATABASE): read, not loaded. */
export async function readScaleCounts(url: string, symbol: string): Promise<ScaleCounts> {
  return withClient(url, async (c) => {
    const n = async (table: string) => Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    const exposureCik = (await c.query<{ cik: string }>('SELECT cik FROM companies WHERE symbol = $1', [symbol])).rows[0]?.cik;
    if (!exposureCik) throw new Error(`no company ${symbol} in the database`);
    return {
      companies: await n('companies'),
      filings: await n('filings'),
      form4Filings: await n('form4_filings'),
      insiderRows: await n('insider_transactions'),
      funds: await n('funds'),
      fundHoldings: await n('fund_holdings'),
      exposureCik,
      phases: [],
    };
  });
}

/** Funds and their holdings, copies of the fixture N-PORT holdings; every fund holds the exposure company once. */
async function copyFunds(
  url: string,
  records: readonly FundHoldingsRecordV1[],
  sizes: ScaleSizes,
  exposureCik: string,
  open: (table: string, columns: readonly string[]) => CopyStream,
): Promise<void> {
  const pool = records.flatMap((r) => fundHoldingRows(r).map((row) => ({ row, record: r })));
  if (pool.length === 0) throw new Error('no fixture N-PORT holdings');
  const held = pool.find((p) => p.row.match_cik === exposureCik) ?? pool.find((p) => p.row.asset_cat === 'EC') ?? pool[0]!;
  const perFund = Math.max(1, Math.round(sizes.fundHoldings / sizes.funds));
  let holdings: CopyStream | null = null;
  let funds: CopyStream | null = null;
  for (let f = 0; f < sizes.funds; f += 1) {
    const base = pool[f % pool.length]!.record;
    const key = `S9${String(f).padStart(8, '0')}`;
    const accession = `97${String(Math.floor(f / 1_000_000)).padStart(8, '0')}-25-${String(f % 1_000_000).padStart(6, '0')}`;
    const header = { ...base.data.fund, key, series_id: key, series_name: `${base.data.fund.series_name ?? base.data.fund.registrant_name ?? 'Fund'} ${f}` };
    const fundRow = {
      fund_key: key,
      registrant_cik: header.registrant_cik,
      registrant_name: header.registrant_name,
      series_id: header.series_id,
      series_name: header.series_name,
      fund_ticker: header.fund_ticker,
      is_etf: f % 4 === 0,
      header,
      accession,
      report_date: header.report_date,
      net_assets: header.net_assets,
      provenance: { ...base.provenance, quote: null },
      data_hash: contentHash(stableStringify({ fund: header, accession })),
    };
    funds ??= open('funds', Object.keys(fundRow));
    await funds.write(fundRow);
    for (let i = 0; i < perFund; i += 1) {
      // Row 0 is the exposure company's holding, its weight varied per fund so the order means something.
      const template = i === 0 ? held.row : pool[(f + i) % pool.length]!.row;
      const row = {
        ...template,
        accession,
        holding_index: i,
        fund_key: key,
        report_date: header.report_date,
        is_current: true,
        ...(i === 0 ? { match_cik: exposureCik, asset_cat: 'EC', pct_val: (0.01 + ((f * 7919) % 10_000) / 1000).toFixed(4), val_usd: String(1_000_000 + ((f * 104_729) % 1_000_000_000)) } : {}),
      };
      holdings ??= open('fund_holdings', Object.keys(row));
      await holdings.write(row);
    }
  }
  await Promise.all([funds?.end(), holdings?.end()]);
}

/** Database size, pretty-printed by Postgres. */
export async function databaseSize(url: string): Promise<string> {
  return withClient(url, async (c) => (await c.query<{ s: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS s')).rows[0]!.s);
}
