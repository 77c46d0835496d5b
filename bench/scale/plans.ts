import type { Client, QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';

/*
 * EXPLAIN of the list statements exactly as the repositories issue them: a repository is given a
 * DataSource whose pool only records the statement (text and values) and returns no rows; the
 * recorded statement is then explained on the scale database, as the api's first executions plan
 * it (custom plan, the values bound) and as a prepared statement may be planned from its sixth
 * execution on (generic plan, `plan_cache_mode = force_generic_plan`).
 */

export interface Statement {
  text: string;
  values: unknown[];
  /** Settings the repository's transaction sets around the statement (`jit = off`), set for the EXPLAIN too. */
  settings?: string[];
}

/** A DataSource stand-in for the repositories' read side: `statements` gets each query. */
export function recordingDataSource(statements: Statement[]): DataSource {
  const pool = {
    query(config: QueryConfig) {
      statements.push({ text: config.text, values: [...((config.values as unknown[] | undefined) ?? [])] });
      return Promise.resolve({ rows: [], rowCount: 0 });
    },
  };
  return { driver: { master: pool } } as unknown as DataSource;
}

/** A DataSource stand-in whose pool is a real pg Pool: the repositories' read side, without TypeORM's connection. */
export function poolDataSource(pool: { query: (config: QueryConfig) => Promise<unknown> }): DataSource {
  return { driver: { master: pool } } as unknown as DataSource;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows'?: number;
  'Actual Total Time'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface PlanCheck {
  /** The plan, one node a line. */
  lines: string[];
  ms: number;
  nodes: string[];
  indexes: string[];
  sorts: number;
  seqScans: string[];
  /** The node that feeds the top Limit in order (walking through joins' outer side and Limit/Result). */
  orderSource: string;
}

function walk(node: PlanNode, depth: number, lines: string[], all: PlanNode[]): void {
  all.push(node);
  const on = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const rel = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const dir = node['Scan Direction'] && node['Scan Direction'] !== 'NoMovement' ? ` ${node['Scan Direction']}` : '';
  const actual = node['Actual Rows'] !== undefined ? `  (rows ${node['Actual Rows']}, ${node['Actual Total Time']?.toFixed(3)} ms, buffers hit ${node['Shared Hit Blocks'] ?? 0} read ${node['Shared Read Blocks'] ?? 0})` : '';
  lines.push(`${'  '.repeat(depth)}-> ${node['Node Type']}${dir}${on}${rel}${actual}`);
  for (const child of node.Plans ?? []) walk(child, depth + 1, lines, all);
}

/** The first node under Limit that yields the rows in order: through Limit, Result, Gather Merge, a join's outer (first) input. */
function orderSourceOf(root: PlanNode): PlanNode {
  let node = root;
  for (;;) {
    const t = node['Node Type'];
    if ((t === 'Limit' || t === 'Result' || t === 'Nested Loop' || t === 'Merge Join' || t === 'Subquery Scan') && node.Plans?.[0]) node = node.Plans[0];
    else return node;
  }
}

/** A value as an SQL literal for EXECUTE (arrays in their text form, coerced to the parameter's type). */
function literal(c: Client, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return c.escapeLiteral(`{${v.map((x) => `"${String(x).replace(/["\\]/g, (ch) => `\\${ch}`)}"`).join(',')}}`);
  return c.escapeLiteral(typeof v === 'string' ? v : JSON.stringify(v));
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, custom or generic plan. */
export async function explain(c: Client, s: Statement, generic: boolean): Promise<PlanCheck> {
  await c.query('BEGIN READ ONLY');
  try {
    for (const setting of s.settings ?? []) await c.query(`SET LOCAL ${setting}`);
    return await explainIn(c, s, generic);
  } finally {
    await c.query('ROLLBACK');
    // A prepared statement outlives its transaction.
    if (generic) await c.query('DEALLOCATE ALL');
  }
}

async function explainIn(c: Client, s: Statement, generic: boolean): Promise<PlanCheck> {
  let json: unknown;
  if (generic) {
    await c.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
    await c.query(`PREPARE bench_scale_stmt AS ${s.text}`);
    const args = s.values.length ? `(${s.values.map((v) => literal(c, v)).join(', ')})` : '';
    json = (await c.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE bench_scale_stmt${args}`)).rows[0]!['QUERY PLAN'];
  } else {
    json = (await c.query<{ 'QUERY PLAN': unknown }>({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, values: s.values })).rows[0]!['QUERY PLAN'];
  }
  const top = (json as Array<{ Plan: PlanNode; 'Execution Time': number }>)[0]!;
  const lines: string[] = [];
  const all: PlanNode[] = [];
  walk(top.Plan, 0, lines, all);
  const source = orderSourceOf(top.Plan);
  return {
    lines,
    ms: top['Execution Time'],
    nodes: all.map((n) => n['Node Type']),
    indexes: [...new Set(all.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])))],
    sorts: all.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort').length,
    seqScans: all.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '?'),
    orderSource: `${source['Node Type']}${source['Index Name'] ? ` using ${source['Index Name']}` : ''}`,
  };
}

/**
 * The list rule: rows come in the order served straight from an index scan (the node feeding the
 * Limit is an Index Scan or Index Only Scan on `index`), no Sort anywhere, no Seq Scan.
 */
export function listVerdict(p: PlanCheck, index: string): { pass: boolean; why: string } {
  const fails: string[] = [];
  if (!/^Index (Only )?Scan using /.test(p.orderSource) || !p.orderSource.endsWith(index)) fails.push(`rows ordered by ${p.orderSource}, not an index scan of ${index}`);
  if (p.sorts) fails.push(`${p.sorts} sort node(s)`);
  if (p.seqScans.length) fails.push(`seq scan on ${p.seqScans.join(', ')}`);
  return { pass: fails.length === 0, why: fails.join('; ') || `index scan of ${index} in the order served, no sort, no seq scan` };
}
