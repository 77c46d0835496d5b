import { TABLES } from '../tables';
import { pgQueryable, type SqlSource } from './pg-queryable';

export interface TableRowCount {
  table: string;
  rows: number;
}

/**
 * Exact row count of every table the table specs describe (read models, webhook and key tables), by name.
 * For operators after a replay (`npm run ops -- replay`): a full count, so not for hot paths.
 */
export async function countTableRows(source: SqlSource): Promise<TableRowCount[]> {
  const db = pgQueryable(source);
  const tables = TABLES.map((t) => t.name).sort();
  const out: TableRowCount[] = [];
  for (const table of tables) {
    // Table names come from the table specs, not from input; quoted as identifiers all the same.
    const { rows } = await db.query<{ n: string }>({ text: `SELECT count(*)::text AS n FROM "${table.replace(/"/g, '""')}"` });
    out.push({ table, rows: Number(rows[0]?.n ?? 0) });
  }
  return out;
}
