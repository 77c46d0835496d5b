import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import { namespacedTopic, TOPICS, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { RequestLimiter } from '@app/edgar';
import { ensureTopics, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { emptyThirteenFDatasetRows, thirteenFDatasetRowsFromFixtures, writeThirteenFDataset, type ThirteenFDatasetRows } from '@app/testing';
// The bench runs the loader in process, once without a broker (parse + map) and once with it.
// eslint-disable-next-line no-restricted-imports
import { thirteenFDatasetConfigSchema } from '../../apps/ingest-sec/src/bulk/thirteenf-dataset.config';
// eslint-disable-next-line no-restricted-imports
import { ThirteenFDatasetService, type ThirteenFDatasetSummary } from '../../apps/ingest-sec/src/bulk/thirteenf-dataset.service';
import { createScratchDb, loadCompanies, migrate, tickerMapRecords } from '../api-companies/scratch-db';
import { cleanups } from '../bench-support';
import { fixturesDir } from '../projector/records.generator';
import { deleteNamespacedTopics } from '../projector/topics-cleanup';
import { InstitutionalHoldersRepository } from '@app/persistence';
import { explain, listVerdict, poolDataSource, recordingDataSource, type Statement } from './plans';
import { databaseSize, withClient } from './scale-data';
import { fillThirteenF, holdersIndexOf, holdersKeyAt, HOLDERS_SORTS, measureCalls, statementPool, THIRTEENF_PERIODS, type LatencyRun } from './thirteenf-scale';

/*
 * The 13F part of bench:scale (issue 34): holders of one stock held by 5,000 managers, over
 * institutional_positions of four quarters (12,000,000 rows by default), p99 at page 1 and 90 %
 * deep for each sort with EXPLAIN of each; and the data-set loader's rates. See README.md.
 */

export interface ThirteenFBenchSettings {
  databaseUrl: string;
  brokers: string[];
  symbol: string;
  positions: number;
  managers: number;
  holders: number;
  datasetRows: number;
  limit: number;
  deep: number;
  rounds: number;
  seconds: number;
  connections: number;
  poolSize: number;
  database: string | null;
  keep: boolean;
}

const P99_TARGET_MS = 100;
const REAL_QUARTER_ROWS = 3_000_000;
const LOADER_HEAP_MB = 160;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const WIDTHS = [30, 9, 9, 9, 9, 9];
const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');
const verdict = (text: string, met: boolean) => `${met ? 'met    ' : 'NOT met'} ${text}`;

/** The symbol's company (from the ticker map) and the CUSIP its holders report: MSFT's by default. */
const TARGET_CUSIPS: Record<string, string> = { 'MSFT:US': '594918104', 'AAPL:US': '037833100', 'NVDA:US': '67066G104' };

export async function thirteenFHoldersPart(s: ThirteenFBenchSettings, root: string, tag: string): Promise<void> {
  let db: { name: string; url: string };
  if (s.database) {
    if (!/^bench_scale_13f_[a-z0-9_]+$/.test(s.database)) throw new Error(`BENCH_SCALE_13F_DATABASE must be a bench_scale_13f_* database, not ${s.database}`);
    const url = new URL(s.databaseUrl);
    url.pathname = `/${s.database}`;
    db = { name: s.database, url: url.toString() };
  } else {
    const created = await createScratchDb(s.databaseUrl, `bench_scale_13f_${tag}`);
    if (!s.keep) cleanups.push(() => created.drop());
    db = created;
  }
  console.log(`\n== 13F holders: database ${db.name}${s.database ? ' (BENCH_SCALE_13F_DATABASE: already loaded, kept)' : s.keep ? ' (BENCH_SCALE_KEEP: kept at the end)' : ''}`);
  await migrate(db.url);
  const cusip = TARGET_CUSIPS[s.symbol] ?? '594918104';
  let cik: string;
  if (s.database) {
    cik = await withClient(db.url, async (c) => (await c.query<{ cik: string }>('SELECT cik FROM companies WHERE symbol = $1', [s.symbol])).rows[0]!.cik);
  } else {
    const t = performance.now();
    const companies = (await loadCompanies(db.url, tickerMapRecords(join(fixturesDir(root), 'tickers', 'company_tickers_exchange.json'), '2025-08-02T12:00:00.000Z'))).rows;
    const ciks = await withClient(db.url, async (c) => (await c.query<{ cik: string; symbol: string }>('SELECT DISTINCT ON (cik) cik, symbol FROM companies ORDER BY cik, symbol')).rows);
    const target = ciks.find((r) => r.symbol === s.symbol)?.cik ?? (await withClient(db.url, async (c) => (await c.query<{ cik: string }>('SELECT cik FROM companies WHERE symbol = $1', [s.symbol])).rows[0]?.cik));
    if (!target) throw new Error(`no company ${s.symbol} in the ticker map`);
    cik = target;
    console.log(`  companies (ticker map): ${int(companies)}`);
    const loaded = await fillThirteenF(db.url, { positions: s.positions, managers: s.managers, holders: s.holders }, { cik, cusip }, ciks.map((r) => r.cik), (l) => console.log(l));
    console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(0)} s: ${int(loaded.positions)} institutional_positions rows over ${THIRTEENF_PERIODS.length} quarters, ${int(s.managers)} managers, ${s.symbol} (CIK ${cik}, CUSIP ${cusip}) held by ${int(s.holders)} managers each quarter`);
    if (s.keep) console.log(`kept database: ${db.name} (measure it again with BENCH_SCALE_13F_DATABASE=${db.name})`);
  }
  console.log(`database size: ${await databaseSize(db.url)}`);

  const period = THIRTEENF_PERIODS.at(-1)!;
  const pg = new Client({ connectionString: db.url, application_name: 'bench-scale-13f' });
  await pg.connect();
  cleanups.push(() => pg.end());
  const pool = statementPool(db.url, s.poolSize);
  cleanups.push(() => pool.end());
  // The api's own repository, on a pool like the api's; its statements recorded for EXPLAIN.
  const repo = new InstitutionalHoldersRepository(poolDataSource(pool));
  const statementOf = async (sort: (typeof HOLDERS_SORTS)[number], after?: [number, string, string]): Promise<Statement> => {
    const out: Statement[] = [];
    await new InstitutionalHoldersRepository(recordingDataSource(out)).holders({ cik }, period, sort, { direction: 'desc', limit: s.limit, ...(after ? { after } : {}) });
    return out[0]!;
  };
  const pages = [];
  for (const sort of HOLDERS_SORTS) {
    const key = await holdersKeyAt(pg, cik, period, sort, s.deep);
    const call = (after?: [number, string, string]) => async () => {
      const page = await repo.holders({ cik }, period, sort, { direction: 'desc', limit: s.limit, ...(after ? { after } : {}) });
      if (page.rows.length !== s.limit) throw new Error(`holders by ${sort}: ${page.rows.length} rows, not ${s.limit}`);
    };
    pages.push({ sort, first: call(), deep: call(key.after), statements: { first: await statementOf(sort), deep: await statementOf(sort, key.after) }, note: `after row ${int(key.offset + 1)} of ${int(key.total)}` });
  }
  console.log(`\n== 13F holders of ${s.symbol} in ${period}, InstitutionalHoldersRepository.holders: ${s.connections} concurrent calls on a pool of ${s.poolSize}, ${s.rounds} rounds of page 1 and the deep page back to back (order alternating), ${s.seconds} s each, limit=${s.limit}`);
  for (const p of pages) console.log(`  ${p.sort}: deep page ${p.note}`);
  console.log(row(['sort / page / round', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'requests']));
  const results = new Map<string, { p1: LatencyRun[]; deep: LatencyRun[] }>();
  for (const p of pages) {
    for (const page of ['p1', 'deep'] as const) await measureCalls(page === 'p1' ? p.first : p.deep, s.connections, 1);
    const out = { p1: [] as LatencyRun[], deep: [] as LatencyRun[] };
    for (let round = 1; round <= s.rounds; round += 1) {
      for (const page of round % 2 === 1 ? (['p1', 'deep'] as const) : (['deep', 'p1'] as const)) {
        const r = await measureCalls(page === 'p1' ? p.first : p.deep, s.connections, s.seconds);
        out[page].push(r);
        console.log(row([`${p.sort} ${page} #${round}`, r.reqPerSec.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), r.mean.toFixed(2), String(r.requests)]));
      }
    }
    results.set(p.sort, out);
  }
  console.log(`\n== 13F holders: p99 (target < ${P99_TARGET_MS} ms at page 1 and 90 % deep, worst round) and deep/page-1 (median of the rounds' ratios of mean latency)`);
  for (const p of pages) {
    const r = results.get(p.sort)!;
    const worst = (runs: LatencyRun[]) => Math.max(...runs.map((x) => x.p99));
    const ratios = r.deep.map((d, i) => d.mean / r.p1[i]!.mean).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    console.log(`  ${verdict(`${p.sort}: p99 page 1 ${worst(r.p1).toFixed(1)} ms, deep ${worst(r.deep).toFixed(1)} ms; deep/page-1 ${median.toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(', ')}]; ${r.p1.at(-1)!.reqPerSec.toFixed(0)} / ${r.deep.at(-1)!.reqPerSec.toFixed(0)} calls/s`, Math.max(worst(r.p1), worst(r.deep)) < P99_TARGET_MS)}`);
  }

  console.log('\n== EXPLAIN (ANALYZE, BUFFERS) of the repository\'s holders statement, custom and generic plan');
  for (const p of pages) {
    for (const [which, st] of [['page 1', p.statements.first], ['deep', p.statements.deep]] as const) {
      const custom = await explain(pg, st, false);
      const generic = await explain(pg, st, true);
      console.log(`\nholders by ${p.sort}, ${which}:`);
      for (const l of custom.lines) console.log(`  ${l}`);
      for (const [mode, plan] of [['custom plan', custom], ['generic plan', generic]] as const) {
        const v = listVerdict(plan, holdersIndexOf(p.sort));
        console.log(`  ${v.pass ? 'PASS' : 'FAIL'} ${mode} (${plan.ms.toFixed(2)} ms): ${v.why}`);
      }
    }
  }
  console.log(`\ndatabase size at the end: ${await databaseSize(db.url)}`);
}

/** Discards what it is given: the loader's parse + map rate, without a broker. */
class CountingPublisher {
  records = 0;
  publish(_topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.records += records.length;
    return Promise.resolve();
  }
}

/** A data set of `rows` INFOTABLE rows: LTS One's filing copied under distinct accessions and CIKs, ~330 rows each (a real quarter's mean), its and ACTIAM's 19 rows cycled. */
function syntheticDataset(root: string, rows: number): { data: ThirteenFDatasetRows; filings: number } {
  const base = thirteenFDatasetRowsFromFixtures(['LTSONE-0001894188-23-000007.txt', 'ACTIAM-0001619124-21-000002.txt'], fixturesDir(root));
  const templates = base.INFOTABLE;
  const perFiling = 330;
  const filings = Math.max(1, Math.ceil(rows / perFiling));
  const out = emptyThirteenFDatasetRows();
  let sk = 1;
  for (let f = 0; f < filings; f += 1) {
    const accession = `97${String(f).padStart(8, '0')}-24-000001`;
    const n = Math.min(perFiling, rows - f * perFiling);
    const total = Array.from({ length: n }, (_, i) => Number(templates[i % templates.length]!.VALUE)).reduce((a, b) => a + b, 0);
    out.SUBMISSION.push({ ...base.SUBMISSION[0]!, ACCESSION_NUMBER: accession, CIK: String(7_000_000 + f), FILING_DATE: '14-NOV-2024', PERIODOFREPORT: '30-SEP-2024' });
    out.COVERPAGE.push({ ...base.COVERPAGE[0]!, ACCESSION_NUMBER: accession, FILINGMANAGER_NAME: `MANAGER ${f}` });
    out.SUMMARYPAGE.push({ ...base.SUMMARYPAGE[0]!, ACCESSION_NUMBER: accession, TABLEENTRYTOTAL: n, TABLEVALUETOTAL: total });
    out.SIGNATURE.push({ ...base.SIGNATURE[0]!, ACCESSION_NUMBER: accession });
    for (let i = 0; i < n; i += 1) out.INFOTABLE.push({ ...templates[i % templates.length]!, ACCESSION_NUMBER: accession, INFOTABLE_SK: sk++ });
  }
  return { data: out, filings };
}

/** Runs a built script as a child and resolves with its stdout (bench.ts's runner). */
export type RunChild = (script: string, args: string[], env: Record<string, string>) => Promise<string>;

export async function thirteenFBulkPart(s: ThirteenFBenchSettings, root: string, tag: string, runChild: RunChild): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `bench-scale-13f-${tag}-`));
  cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  console.log(`\n== 13F data-set loader over a generated data set`);
  const t = performance.now();
  const { data, filings } = syntheticDataset(root, s.datasetRows);
  const zip = join(dir, '01sep2024-30nov2024_form13f.zip');
  await writeThirteenFDataset(zip, data, '01SEP2024-30NOV2024_form13f');
  console.log(`generated ${zip}: ${int(filings)} filings, ${int(data.INFOTABLE.length)} INFOTABLE rows, ${(statSync(zip).size / 1e6).toFixed(1)} MB, in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const namespace = `benchscale13f${randomBytes(4).toString('hex')}`;
  const kafka: KafkaSettings = { brokers: s.brokers, clientId: 'bench-scale-13f', logLevel: 'warn' };
  cleanups.push(() => deleteNamespacedTopics(kafka, namespace));
  const topic = namespacedTopic(TOPICS.thirteenFHoldings, namespace);
  await ensureTopics(kafka, [topic]);
  const config = thirteenFDatasetConfigSchema.parse({ KAFKA_BROKERS: s.brokers.join(','), LOG_LEVEL: 'warn' });
  const logger = createLogger({ level: 'warn', name: 'bench-13f-bulk' });
  const sourceUrl = `https://www.sec.gov/files/structureddata/data/form-13f-data-sets/${basename(zip)}`;
  const line = (label: string, r: ThirteenFDatasetSummary) =>
    `${label}: ${int(r.filings_done)} filings, ${int(r.records_published)} records, ${int(r.holdings_published)} holdings in ${r.seconds.toFixed(1)} s: ${int(r.records_per_s)} records/s, ${int(r.holdings_per_s)} holdings/s; INFOTABLE grouped: ${r.infotable_grouped}, peak rows held ${int(r.peak_rows_held)}, peak RSS ${r.peak_rss_mb} MB`;
  // In this process, with a publisher that only counts: the parser and mapper's own rate.
  const parse = await new ThirteenFDatasetService(config, new CountingPublisher(), topic, logger).execute({ source: zip, sourceUrl, checkpointPath: join(dir, 'parse.json'), budget: new RequestLimiter(10) });
  console.log(line('parse + map, in the bench process (two INFOTABLE passes, records counted, not sent; RSS is the bench\'s)', parse));
  // The command as an operator runs it, in a process of its own (its RSS is the loader's alone),
  // its heap capped: memory that grew with the data set would fail the run here.
  const out = await runChild(join(root, 'dist/apps/ingest-sec/src/thirteenf-bulk.main.js'), ['--file', zip, '--checkpoint', join(dir, 'kafka.json')], {
    PATH: process.env.PATH ?? '',
    NODE_OPTIONS: `--max-old-space-size=${LOADER_HEAP_MB}`,
    KAFKA_BROKERS: s.brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
  });
  const json = /^\{\n[\s\S]*?\n\}$/m.exec(out)?.[0];
  if (!json) throw new Error(`13f-bulk printed no summary:\n${out.slice(-2000)}`);
  const full = JSON.parse(json) as ThirteenFDatasetSummary;
  console.log(line(`npm run ingest-sec -- 13f-bulk --file (child process, heap capped at ${LOADER_HEAP_MB} MB, to Kafka)`, full));
  console.log(`publish / parse + map, holdings/s: ${(full.holdings_per_s / parse.holdings_per_s).toFixed(3)}`);
  const minutes = (perS: number) => (REAL_QUARTER_ROWS / perS / 60).toFixed(1);
  console.log(`a real quarter (~${int(REAL_QUARTER_ROWS)} INFOTABLE rows): ${minutes(parse.holdings_per_s)} min to parse + map, ${minutes(full.holdings_per_s)} min with the broker, at these rates (a year of four quarters: ${(Number(minutes(full.holdings_per_s)) * 4).toFixed(1)} min)`);
}
