import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';

/*
 * The COPY side of the projector bench, and its correctness checks: the rows the replay wrote are
 * dumped table by table (`\copy ... TO` a file) and loaded into a second freshly migrated
 * database (`\copy ... FROM` the file, through psql: pg-copy-streams is not a dependency); only the
 * loads are timed. Then each table's row count and content hash must be equal in both databases.
 */

/** Tables a migration fills, never the projector. */
const NOT_READ_MODELS = new Set(['migrations', 'typeorm_metadata']);

export interface TableInfo {
  name: string;
  /** Columns COPY can write (stored generated columns are computed again on load). */
  columns: string[];
  primaryKey: string[];
  /** Tables this one references (loaded first). */
  references: string[];
}

/** Every table of the public schema, with what COPY and the hash need. */
export async function tablesOf(pg: Client): Promise<Map<string, TableInfo>> {
  const { rows } = await pg.query<{ name: string; columns: string[]; pk: string[] | null; refs: string[] | null }>(`
    SELECT c.relname AS name,
      (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM pg_index i
        CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE i.indrelid = c.oid AND i.indisprimary) AS pk,
      (SELECT array_agg(DISTINCT r.relname::text) FROM pg_constraint f JOIN pg_class r ON r.oid = f.confrelid
        WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS refs
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
    ORDER BY c.relname`);
  return new Map(rows.map((r) => [r.name, { name: r.name, columns: r.columns ?? [], primaryKey: r.pk ?? [], references: r.refs ?? [] }]));
}

/** Exact row count of every read-model table. */
export async function rowCounts(pg: Client, tables: Iterable<TableInfo>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of tables) {
    if (NOT_READ_MODELS.has(t.name)) continue;
    const { rows } = await pg.query<{ n: string }>(`SELECT count(*) AS n FROM ${ident(t.name)}`);
    out.set(t.name, Number(rows[0]!.n));
  }
  return out;
}

/** One query that is true once any of the tables has a row (cheap enough to ask every 50 ms). */
export function anyRowSql(tables: Iterable<string>): string {
  return `SELECT ${[...tables].map((t) => `EXISTS (SELECT 1 FROM ${ident(t)})`).join(' OR ')} AS any`;
}

/** Referenced tables before the tables that reference them. */
export function loadOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: TableInfo[] = [];
  const seen = new Set<string>();
  const visit = (t: TableInfo) => {
    if (seen.has(t.name)) return;
    seen.add(t.name);
    for (const r of t.references) {
      const ref = byName.get(r);
      if (ref) visit(ref);
    }
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** Count and content hash of a table: md5 over each row's text (every column, generated ones too) in primary-key order. */
export async function tableHash(pg: Client, t: TableInfo): Promise<{ rows: number; hash: string }> {
  const order = t.primaryKey.length ? t.primaryKey.map((c) => `t.${ident(c)}`).join(', ') : 'md5(t::text)';
  const { rows } = await pg.query<{ n: string; h: string | null }>(`SELECT count(*) AS n, md5(string_agg(md5(t::text), '' ORDER BY ${order})) AS h FROM ${ident(t.name)} t`);
  return { rows: Number(rows[0]!.n), hash: rows[0]!.h ?? 'empty' };
}

export interface CopyLoad {
  table: string;
  rows: number;
  ms: number;
}

/**
 * Dumps each table from `fromUrl` to a file under `dir` (untimed), then loads the files into
 * `toUrl` in one psql session, each load timed by psql's own `\\timing` (no process start or
 * connection in the figure).
 */
export async function copyTables(fromUrl: string, toUrl: string, tables: TableInfo[], counts: Map<string, number>, dir: string): Promise<CopyLoad[]> {
  const copy = (t: TableInfo, direction: 'TO' | 'FROM') => `\\copy ${ident(t.name)} (${t.columns.map(ident).join(', ')}) ${direction} '${join(dir, `${t.name}.copy`)}'`;
  await psql(fromUrl, tables.map((t) => copy(t, 'TO')));
  // Untimed: the loads start with no dirty buffers of the replay left to write (as the replay started).
  await psql(toUrl, ['CHECKPOINT']);
  const out = await psql(toUrl, ['\\timing on', ...tables.map((t) => copy(t, 'FROM'))]);
  const times = [...out.matchAll(/^Time: ([\d.]+) ms/gm)].map((m) => Number(m[1]));
  if (times.length !== tables.length) throw new Error(`psql printed ${times.length} timings for ${tables.length} loads:\n${out}`);
  return tables.map((t, i) => ({ table: t.name, rows: counts.get(t.name) ?? 0, ms: times[i]! }));
}

/** Runs psql commands (one a line) in one session, stopping at the first error; resolves with its output. */
function psql(url: string, commands: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`psql exited with ${code}: ${err.trim()}`))));
    child.stdin.end(`${commands.join('\n')}\n`);
  });
}

function ident(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
