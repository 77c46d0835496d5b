import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { columnArrays, createDataSource, FILING_COLUMNS, filingRow, projectFilings, runMigrations, unnestUpsertSql } from '@app/persistence';
import { cleanup, cleanups, cleanUpOnSignals, positiveNumberEnv } from '../bench-support';
import { copyFrom } from './copy-from';

/*
 * Scratch measurement behind the choice in README.md ("Choosing multi-row upsert or COPY + merge"):
 * the same filing rows, derived from the real example filing@1.msft-10-k.json, written in batches
 * (one transaction per batch) to an empty `filings` table, then again with every row changed, by
 *   copy         plain COPY FROM STDIN (text format), no conflict handling: the reference;
 *   copy+merge   COPY into a temp table, then one INSERT ... SELECT ... ON CONFLICT DO UPDATE;
 *   jsonb        one INSERT ... SELECT FROM jsonb_to_recordset($1) ... ON CONFLICT;
 *   unnest       one INSERT ... SELECT FROM unnest($1::text[], ...) ... ON CONFLICT (what projectFilings runs);
 *   projectFilings  the real batch projection, rows built (and hashed) from the envelopes inside the timing.
 * Rows are prebuilt for the first four. COPY FROM STDIN is spoken through pg's Submittable hook
 * (what pg-copy-streams does) so that no dependency is added for a measurement.
 * Run: node -r <a TS loader> bench/projector/upsert-vs-copy.ts  (env: BENCH_ROWS, BENCH_ROUNDS, DATABASE_URL)
 */

const settings = {
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  rows: positiveNumberEnv('BENCH_ROWS', 20000),
  rounds: positiveNumberEnv('BENCH_ROUNDS', 3),
  batches: (process.env.BENCH_BATCHES || '500,1000,2000').split(',').map(Number),
};

const example = JSON.parse(
  readFileSync(join(process.cwd(), 'libs', 'contracts', 'src', 'examples', 'filing@1.msft-10-k.json'), 'utf8'),
) as RecordEnvelope<FilingData>;

function variant(i: number, pass: number): RecordEnvelope<FilingData> {
  const accession = `0000950170-25-${String(i).padStart(6, '0')}`;
  return {
    ...example,
    key: accession,
    id: `rec_${pass}_${i}`,
    observed_at: new Date(Date.parse(example.observed_at) + pass * 1000).toISOString(),
    provenance: { ...example.provenance, accession },
    data: { ...example.data, accession, cik: String(789019 + (i % 5000)).padStart(10, '0'), size: example.data.size! + pass },
  };
}

type Row = ReturnType<typeof filingRow>;
const NAMES = FILING_COLUMNS.map(([n]) => n);
const JSONB = new Set(FILING_COLUMNS.filter(([, t]) => t === 'jsonb').map(([n]) => n));

/** COPY text format: tab-separated, \N for NULL, backslash escapes. */
function copyText(rows: Row[]): string {
  const esc = (v: unknown, json: boolean): string => {
    if (v === null || v === undefined) return '\\N';
    const s = typeof v === 'string' && !json ? v : JSON.stringify(v);
    return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  };
  return rows.map((r) => NAMES.map((n) => esc((r as Record<string, unknown>)[n], JSONB.has(n))).join('\t')).join('\n') + '\n';
}

const SET = NAMES.filter((n) => n !== 'accession').map((n) => `${n} = EXCLUDED.${n}`).join(', ');
const GUARD = `WHERE filings.data_hash IS DISTINCT FROM EXCLUDED.data_hash AND filings.observed_at <= EXCLUDED.observed_at
  AND (CASE filings.source WHEN 'submissions' THEN 3 WHEN 'current_events' THEN 2 ELSE 1 END) <= (CASE EXCLUDED.source WHEN 'submissions' THEN 3 WHEN 'current_events' THEN 2 ELSE 1 END)`;
const RECORDSET = FILING_COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ');
const JSONB_SQL = `INSERT INTO filings (${NAMES.join(', ')}, updated_at) SELECT ${NAMES.map((n) => `x.${n}`).join(', ')}, now()
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET}) ON CONFLICT (accession) DO UPDATE SET ${SET}, updated_at = now() ${GUARD}
  RETURNING accession AS key, (xmax = 0) AS inserted`;
const MERGE_SQL = `INSERT INTO filings (${NAMES.join(', ')}, updated_at) SELECT ${NAMES.join(', ')}, now() FROM batch ORDER BY accession
  ON CONFLICT (accession) DO UPDATE SET ${SET}, updated_at = now() ${GUARD}
  RETURNING accession AS key, (xmax = 0) AS inserted`;

const UNNEST_SQL = unnestUpsertSql('filings', FILING_COLUMNS, 'accession', GUARD.replace(/^WHERE /, ''), 'accession AS key, (xmax = 0) AS inserted');

/* No ON CONFLICT: existing keys are updated, the others inserted by a plain INSERT, in one statement (both see the statement's snapshot). */
const UNNEST_ARGS = FILING_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ');
const SPLIT_SQL = `WITH x AS (SELECT * FROM unnest(${UNNEST_ARGS}) AS x(${NAMES.join(', ')})),
  upd AS (UPDATE filings SET ${NAMES.filter((n) => n !== 'accession').map((n) => `${n} = x.${n}`).join(', ')}, updated_at = now()
    FROM x WHERE filings.accession = x.accession AND ${GUARD.replace(/^WHERE /, '').replace(/EXCLUDED\./g, 'x.')}
    RETURNING filings.accession AS key, false AS inserted),
  ins AS (INSERT INTO filings (${NAMES.join(', ')}, updated_at) SELECT ${NAMES.map((n) => `x.${n}`).join(', ')}, now() FROM x
    WHERE NOT EXISTS (SELECT 1 FROM filings f WHERE f.accession = x.accession)
    RETURNING accession AS key, true AS inserted)
  SELECT * FROM upd UNION ALL SELECT * FROM ins`;

type Method = 'copy' | 'copy+merge' | 'jsonb' | 'unnest' | 'split' | 'projectFilings';
const METHODS: Method[] = ['copy', 'copy+merge', 'jsonb', 'unnest', 'split', 'projectFilings'];

async function main(): Promise<void> {
  cleanUpOnSignals();
  const dbName = `bench_projector_${process.pid}`;
  const admin = new Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${dbName}`;
  await runMigrations({ url: url.toString(), applicationName: 'bench-migrate' });
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  cleanups.push(() => client.end());
  const ds = createDataSource({ url: url.toString() });
  await ds.initialize();
  cleanups.push(() => ds.destroy());

  const envelopes = [0, 1].map((pass) => Array.from({ length: settings.rows }, (_, i) => variant(i, pass)));
  const rows = envelopes.map((pass) => pass.map(filingRow).sort((a, b) => (a.accession < b.accession ? -1 : 1)));

  async function runBatch(method: Method, batchRows: Row[], batchEnvelopes: RecordEnvelope<FilingData>[]): Promise<void> {
    if (method === 'projectFilings') {
      await ds.transaction((m) => projectFilings(m, batchEnvelopes));
      return;
    }
    await client.query('BEGIN');
    if (method === 'copy') {
      await copyFrom(client, `COPY filings (${NAMES.join(', ')}) FROM STDIN`, copyText(batchRows));
    } else if (method === 'copy+merge') {
      await client.query('CREATE TEMP TABLE batch (LIKE filings INCLUDING DEFAULTS) ON COMMIT DROP');
      await copyFrom(client, `COPY batch (${NAMES.join(', ')}) FROM STDIN`, copyText(batchRows));
      await client.query(MERGE_SQL);
    } else if (method === 'jsonb') {
      await client.query(JSONB_SQL, [JSON.stringify(batchRows)]);
    } else if (method === 'split') {
      await client.query(SPLIT_SQL, columnArrays(batchRows, FILING_COLUMNS));
    } else {
      await client.query(UNNEST_SQL, columnArrays(batchRows, FILING_COLUMNS));
    }
    await client.query('COMMIT');
  }

  console.log(`filings: ${settings.rows} rows per pass, best of ${settings.rounds} rounds; rows/s`);
  console.log(['batch', 'method', 'insert (empty table)', 'update (every row changed)'].join('\t'));
  for (const size of settings.batches) {
    // Rounds interleave the methods, so that noise from other work on the machine spreads over all of them.
    const best = new Map<Method, number[]>(METHODS.map((m) => [m, [0, 0]]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const method of METHODS) {
        await client.query('TRUNCATE filings');
        await client.query('VACUUM ANALYZE filings');
        for (const pass of [0, 1]) {
          // plain COPY cannot update: its "update" pass is a second COPY after a TRUNCATE.
          if (method === 'copy' && pass === 1) await client.query('TRUNCATE filings');
          const started = process.hrtime.bigint();
          for (let i = 0; i < settings.rows; i += size) {
            await runBatch(method, rows[pass]!.slice(i, i + size), envelopes[pass]!.slice(i, i + size));
          }
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const b = best.get(method)!;
          b[pass] = Math.max(b[pass]!, settings.rows / seconds);
        }
      }
    }
    for (const method of METHODS) {
      const [insert, update] = best.get(method)!;
      console.log([size, method, Math.round(insert!), Math.round(update!)].join('\t'));
    }
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
