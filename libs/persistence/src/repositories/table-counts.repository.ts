import { ENTITIES } from '../entities';
import { pgQueryable, type SqlSource } from './pg-queryable';

export interface TableRowCount {
  table: string;
  rows: number;
}

/**
 * Exact row count of every table the entities map (read models, webhook and key tables), by name.
 * For operators after a replay (`npm run ops -- replay`): a full count, so not for hot paths.
 */
export async function countTableRows(source: SqlSource): Promise<TableRowCount[]> {
  const db = pgQueryable(source);
  const dataSource = 'driver' in source ? source : source.dataSource;
  const tables = [...new Set(ENTITIES.map((e) => dataSource.getMetadata(e).tableName))].sort();
  const out: TableRowCount[] = [];
  for (const table of tables) {
    // Table names come from the entity metadata, not from input; quoted as identifiers all the same.
    const { rows } = await db.query<{ n: string }>({ text: `SELECT count(*)::text AS n FROM "${table.replace(/"/g, '""')}"` });
    out.push({ table, rows: Number(rows[0]?.n ?? 0) });
  }
  return out;
}
