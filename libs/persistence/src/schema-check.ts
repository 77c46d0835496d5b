import type { TableSpec } from './table';

/** One column as the database has it (pg_catalog), what db:check compares with the specs. */
export interface CatalogColumn {
  table: string;
  column: string;
  /** format_type() */
  type: string;
  notNull: boolean;
  /** pg_get_expr() of its default, or of its expression when generated. */
  defaultSql: string | null;
  generated: boolean;
  /** 1-based position in the primary key, 0 when not in it. */
  primaryKeyPosition: number;
}

/** TypeORM's own bookkeeping: no read model. */
const TOOLING_TABLES = ['typeorm_migrations', 'typeorm_metadata'];

/** Every column of every table in the public schema, in table and column order. */
export const CATALOG_COLUMNS_SQL = `
  SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type,
         a.attnotnull AS "notNull", pg_get_expr(d.adbin, d.adrelid) AS "defaultSql", a.attgenerated = 's' AS generated,
         coalesce((SELECT k.ord FROM pg_index i, unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
                    WHERE i.indrelid = c.oid AND i.indisprimary AND k.attnum = a.attnum), 0)::int AS "primaryKeyPosition"
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
     AND c.relname <> ALL($1::text[])
   ORDER BY c.relname, a.attnum`;

/**
 * Where the database (as the migrations left it) and the table specs disagree, one line each: a
 * table or column on one side only, a column's type, nullability, default or generated expression,
 * or a primary key. Empty when they agree.
 */
export function schemaDifferences(specs: ReadonlyArray<TableSpec>, catalog: ReadonlyArray<CatalogColumn>): string[] {
  const out: string[] = [];
  const byTable = new Map<string, CatalogColumn[]>();
  for (const c of catalog) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  const specified = new Set(specs.map((s) => s.name));
  for (const table of byTable.keys()) if (!specified.has(table)) out.push(`${table}: in the database, no table spec`);
  for (const spec of specs) {
    const columns = byTable.get(spec.name);
    if (!columns) {
      out.push(`${spec.name}: a table spec, not in the database`);
      continue;
    }
    const found = new Map(columns.map((c) => [c.column, c]));
    for (const c of columns) if (!(c.column in spec.columns)) out.push(`${spec.name}.${c.column}: in the database, not in the spec`);
    for (const [name, col] of Object.entries(spec.columns)) {
      const db = found.get(name);
      const at = `${spec.name}.${name}`;
      if (!db) {
        out.push(`${at}: in the spec, not in the database`);
        continue;
      }
      if (db.type !== col.type) out.push(`${at}: type ${db.type} in the database, ${col.type} in the spec`);
      if (db.notNull === col.isNullable) out.push(`${at}: ${db.notNull ? 'NOT NULL' : 'nullable'} in the database, ${col.isNullable ? 'nullable' : 'NOT NULL'} in the spec`);
      if (db.generated !== col.generated) out.push(`${at}: ${db.generated ? '' : 'not '}generated in the database, ${col.generated ? '' : 'not '}in the spec`);
      if (db.defaultSql !== col.defaultSql) {
        out.push(`${at}: ${col.generated ? 'expression' : 'default'} ${db.defaultSql ?? 'none'} in the database, ${col.defaultSql ?? 'none'} in the spec`);
      }
    }
    const dbKey = columns.filter((c) => c.primaryKeyPosition > 0).sort((a, b) => a.primaryKeyPosition - b.primaryKeyPosition).map((c) => c.column);
    if (dbKey.join(',') !== spec.primaryKey.join(',')) out.push(`${spec.name}: primary key (${dbKey.join(', ')}) in the database, (${spec.primaryKey.join(', ')}) in the spec`);
  }
  return out;
}

/** The database's columns, read with CATALOG_COLUMNS_SQL. */
export async function catalogColumns(db: { query(sql: string, params: unknown[]): Promise<unknown> }): Promise<CatalogColumn[]> {
  const result = await db.query(CATALOG_COLUMNS_SQL, [TOOLING_TABLES]);
  // A DataSource returns the rows, a pg client a result holding them.
  return (Array.isArray(result) ? result : (result as { rows: CatalogColumn[] }).rows) as CatalogColumn[];
}
