import type { Client } from 'pg';
import type { TableSpec } from '@app/persistence';

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export interface ContentHashOptions {
  /** Columns left out: clocks the projection stamps (updated_at), which no two runs share. */
  except?: readonly string[];
  /** Columns read through an expression over the row `t` instead: a surrogate id as the natural key it stands for. */
  as?: Readonly<Record<string, string>>;
}

/**
 * A table's content as one hash (md5 of every row's text, rows in the order of that text, so
 * neither the primary key nor insertion order matter) and its row count: two databases hold the
 * same rows when both agree.
 */
export async function tableContentHash(pg: Client, table: TableSpec, options: ContentHashOptions = {}): Promise<{ rows: number; hash: string }> {
  const columns = Object.keys(table.columns)
    .filter((c) => !options.except?.includes(c))
    .map((c) => options.as?.[c] ?? `t.${ident(c)}`);
  const { rows } = await pg.query<{ n: string; h: string | null }>(
    `SELECT count(*) AS n, md5(string_agg(r, '' ORDER BY r)) AS h FROM (SELECT md5(ROW(${columns.join(', ')})::text) AS r FROM ${ident(table.name)} t) x`,
  );
  return { rows: Number(rows[0]!.n), hash: rows[0]!.h ?? 'empty' };
}
