import type { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/** Where a repository runs its SQL: the DataSource's pool, or an EntityManager (a transaction's connection). */
export type SqlSource = DataSource | EntityManager;

/** The one pg call the repositories make: parameterized, optionally named (prepared) statements. */
export interface PgQueryable {
  query<R extends QueryResultRow = QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>>;
}

/** The pg Pool behind a DataSource: TypeORM's postgres driver keeps it as `master`. The one place that reaches into the driver. */
export function poolOf(ds: DataSource): Pool {
  return (ds.driver as unknown as { master: Pool }).master;
}

/**
 * The pg connection behind a DataSource or an EntityManager. A transaction's manager (one with a
 * query runner) yields that runner's connection, so the statements join the caller's transaction;
 * a manager without one (ds.manager) yields the pool.
 */
export function pgQueryable(source: SqlSource): PgQueryable {
  if ('driver' in source) return poolOf(source);
  const runner = source.queryRunner;
  if (!runner) return poolOf(source.dataSource);
  return {
    async query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
      const client = (await runner.connect()) as PoolClient;
      return client.query<R>(config);
    },
  };
}

/**
 * The rows a named statement selects for a list of keys, passed as its `$1` (a text[]); no keys,
 * no round trip. The statement says the table, the columns and any order.
 */
export async function rowsByKeys<R extends QueryResultRow>(source: SqlSource, keys: readonly string[], statement: { name: string; text: string }): Promise<R[]> {
  if (keys.length === 0) return [];
  const result = await pgQueryable(source).query<R>({ ...statement, values: [keys] });
  return result.rows;
}
