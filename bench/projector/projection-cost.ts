import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { TOPICS, type RecordEnvelope } from '@app/contracts';
import { decodeRecord } from '@app/messaging';
import { BATCH_PROJECTIONS, createDataSource, runMigrations } from '@app/persistence';
import { cleanup, cleanups, cleanUpOnSignals, positiveNumberEnv } from '../bench-support';
import { tablesOf } from './copy-baseline';
import { copyFrom } from './copy-from';
import { BenchRecords, fixturesDir } from './records.generator';

/*
 * Scratch measurement of where a replay's CPU goes, per topic, without Kafka and without webhook
 * events (what a backfill replay will do): the bench's records, JSON-encoded as the producer sends
 * them, are decoded and validated (`decodeRecord`, what the consumer runs) and projected
 * (`BATCH_PROJECTIONS`) in batches of BENCH_BATCH records, one transaction each, on one connection,
 * into a fresh migrated database. Node's CPU is split in decode and projection; Postgres' backend
 * CPU (from /proc, same host) is split per statement run through the manager's `query` (named
 * statements, run on the pg client itself, count in the total only). Prints µs per record and per row.
 * Run from the repository root on a build: node dist/bench/projector/projection-cost.js
 * (env: BENCH_RECORDS, BENCH_BATCH, BENCH_FORM4_SHARE, DATABASE_URL; BENCH_KEEP_DB=1 keeps the database).
 */

const settings = {
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  records: positiveNumberEnv('BENCH_RECORDS', 100_000),
  batch: positiveNumberEnv('BENCH_BATCH', 500),
  form4Share: Number(process.env.BENCH_FORM4_SHARE ?? 0.02),
};

function ticksOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

interface Cost {
  records: number;
  decodeUs: number;
  projectUs: number;
  wallMs: number;
  backendTicks: number;
  statements: Map<string, { calls: number; ticks: number; ms: number }>;
}

async function main(): Promise<void> {
  cleanUpOnSignals();
  const name = `bench_projection_cost_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${name}`;
  await runMigrations({ url: url.toString(), applicationName: 'projection-cost-migrate' });
  const ds = createDataSource({ url: url.toString(), poolSize: 1, applicationName: 'projection-cost' });
  await ds.initialize();
  cleanups.unshift(() => ds.destroy());
  await admin.query('CHECKPOINT');

  const gen = new BenchRecords(fixturesDir(process.cwd()), settings.records, settings.form4Share);
  const costs = new Map<string, Cost>();
  for (const chunk of gen.chunks(settings.batch)) {
    const topic = TOPICS[chunk.topic];
    const bytes = chunk.records.map((r: RecordEnvelope) => Buffer.from(JSON.stringify(r)));
    const c0 = cpuUs();
    const envelopes = bytes.map((b) => {
      const d = decodeRecord(topic, b);
      if (!d.ok) throw new Error(d.error);
      return d.envelope;
    });
    const c1 = cpuUs();
    const schema = envelopes[0]!.schema;
    let cost = costs.get(schema);
    if (!cost) costs.set(schema, (cost = { records: 0, decodeUs: 0, projectUs: 0, wallMs: 0, backendTicks: 0, statements: new Map() }));
    const t0 = performance.now();
    let backend = 0;
    let b0 = 0;
    await ds.transaction(async (m) => {
      backend = (await m.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
      b0 = ticksOf(backend);
      await BATCH_PROJECTIONS[schema]!(timed(m, backend, cost), envelopes);
    });
    const c2 = cpuUs();
    cost.wallMs += performance.now() - t0;
    cost.backendTicks += ticksOf(backend) - b0;
    cost.records += envelopes.length;
    cost.decodeUs += c1 - c0;
    cost.projectUs += c2 - c1;
  }

  const rows = new Map<string, number>();
  for (const { relname, n } of await ds.query<Array<{ relname: string; n: number }>>(`SELECT relname, n_tup_ins::int AS n FROM pg_stat_user_tables WHERE n_tup_ins > 0`)) rows.set(relname, n);
  console.log(`projection cost: ${settings.records} records, batches of ${settings.batch}; rows inserted: ${JSON.stringify(Object.fromEntries(rows))}`);
  for (const [schema, c] of costs) {
    const per = (us: number) => (us / c.records).toFixed(1);
    console.log(
      `${schema}: ${c.records} records, wall ${(c.wallMs / 1000).toFixed(1)} s; µs/record: decode+validate ${per(c.decodeUs)}, projection (node) ${per(c.projectUs)}, backend ${per(c.backendTicks * 10_000)}, wall ${per(c.wallMs * 1000)}`,
    );
    for (const [sql, s] of [...c.statements].sort((a, b) => b[1].ticks - a[1].ticks)) {
      console.log(`    ${s.calls} x ${sql}: backend ${per(s.ticks * 10_000)} µs/record, wall ${per(s.ms * 1000)} µs/record`);
    }
  }
  await copyReference(url.toString(), ['filings', 'insider_transactions', 'companies', 'form4_filings']);
}

/**
 * The same rows by COPY: each table's rows dumped (psql, untimed) and loaded in one COPY FROM STDIN
 * into a copy of the table (LIKE ... INCLUDING ALL: same indexes, same generated column), with the
 * backend's CPU measured as above.
 */
async function copyReference(url: string, names: string[]): Promise<void> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    const tables = await tablesOf(pg);
    const pid = (await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    for (const name of names) {
      const columns = tables.get(name)!.columns.join(', ');
      const text = execFileSync('psql', ['-X', '-q', '-d', url, '-c', `COPY ${name} (${columns}) TO STDOUT`], { maxBuffer: 1 << 30 }).toString();
      const rows = text.split('\n').length - 1;
      if (rows === 0) continue;
      await pg.query(`CREATE TABLE copy_${name} (LIKE ${name} INCLUDING ALL)`);
      await pg.query('CHECKPOINT');
      const k0 = ticksOf(pid);
      const t0 = performance.now();
      await copyFrom(pg, `COPY copy_${name} (${columns}) FROM STDIN`, text);
      const ms = performance.now() - t0;
      console.log(`COPY ${name}: ${rows} rows, backend ${((ticksOf(pid) - k0) * 10_000 / rows).toFixed(1)} µs/row, wall ${((ms * 1000) / rows).toFixed(1)} µs/row`);
    }
  } finally {
    await pg.end();
  }
}

/** The manager with its `query` timed per statement (wall and the backend's CPU ticks). */
function timed(m: EntityManager, backend: number, cost: Cost): EntityManager {
  const query = m.query.bind(m);
  return new Proxy(m, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
      return async (sql: string, params?: unknown[]) => {
        const label = sql.replace(/\s+/g, ' ').trim().slice(0, 70);
        const t0 = performance.now();
        const k0 = ticksOf(backend);
        try {
          return (await query(sql, params)) as unknown;
        } finally {
          const s = cost.statements.get(label) ?? { calls: 0, ticks: 0, ms: 0 };
          s.calls += 1;
          s.ticks += ticksOf(backend) - k0;
          s.ms += performance.now() - t0;
          cost.statements.set(label, s);
        }
      };
    },
  });
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
