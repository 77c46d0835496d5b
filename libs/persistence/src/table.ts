import type { ColumnSpec } from './projections/batch-upsert';

/*
 * The one description of a table in TypeScript: its columns, each with the type and nullability
 * the migrations give it, how the read side selects it, and the type a read row holds. Row types,
 * upsert column lists and select lists are derived from it; `db:check` holds it to the migrations.
 */

/** One column; `T` is what a row field holds once the column is read with `read`. */
export class Column<T = unknown> {
  declare private readonly value?: T;

  constructor(
    /** The type as Postgres's format_type() prints it (what db:check compares): 'text', 'character(10)'. */
    readonly type: string,
    /** The element type of the column's array parameter in a batch upsert (`unnest($1::<param>[])`). */
    readonly param: string,
    readonly isNullable = false,
    /** The default as pg_get_expr() prints it; a generated column's expression when `generated`. */
    readonly defaultSql: string | null = null,
    /** A STORED generated column: Postgres computes it, the projections never write it. */
    readonly generated = false,
    /** Reads the column as `T` when the bare column does not: `(c) => \`${c}::float8\``. */
    readonly read: ((column: string) => string) | null = null,
  ) {}

  nullable(): Column<T | null> {
    return new Column<T | null>(this.type, this.param, true, this.defaultSql, this.generated, this.read);
  }

  /** Postgres fills it when an insert leaves it out (`now()`, a sequence, a constant). */
  default(sql: string): Column<T> {
    return new Column<T>(this.type, this.param, this.isNullable, sql, this.generated, this.read);
  }

  /** A STORED generated column, its expression as pg_get_expr() prints it. */
  generatedAs(sql: string): Column<T> {
    return new Column<T>(this.type, this.param, this.isNullable, sql, true, this.read);
  }

  /** Selected through `read` and then holds a `U`. */
  readAs<U>(read: (column: string) => string): Column<U> {
    return new Column<U>(this.type, this.param, this.isNullable, this.defaultSql, this.generated, read);
  }
}

export const text = <T extends string = string>() => new Column<T>('text', 'text');
export const varchar = () => new Column<string>('character varying', 'text');
export const char = (length: number) => new Column<string>(`character(${length})`, 'text');
export const textArray = () => new Column<string[]>('text[]', 'text[]');
export const integerArray = () => new Column<number[]>('integer[]', 'integer[]');
export const uuid = () => new Column<string>('uuid', 'uuid');
export const integer = () => new Column<number>('integer', 'integer');
/** pg returns bigint as a string (it may exceed 2^53); readAs a float8 where a number is wanted. */
export const bigint = () => new Column<string>('bigint', 'bigint');
export const doublePrecision = () => new Column<number>('double precision', 'double precision');
/** pg returns numeric as a string, exactly. */
export const numeric = () => new Column<string>('numeric', 'numeric');
export const boolean = () => new Column<boolean>('boolean', 'boolean');
/** A calendar date, read as its YYYY-MM-DD text (pg would make a local-midnight Date of it). */
export const date = () => new Column<string>('date', 'date').readAs<string>((c) => `to_char(${c}, 'YYYY-MM-DD')`);
export const timestamptz = () => new Column<Date>('timestamp with time zone', 'timestamptz');
export const jsonb = <T>() => new Column<T>('jsonb', 'jsonb');
export const tsvector = () => new Column<string>('tsvector', 'tsvector');
/** An integer filled from the table's own sequence (`serial`). */
export const serial = (table: string, column: string) => integer().default(`nextval('${table}_${column}_seq'::regclass)`);
export const bigserial = (table: string, column: string) => bigint().default(`nextval('${table}_${column}_seq'::regclass)`);

export type Columns = Readonly<Record<string, Column>>;

/** Any table, as db:check and the table list see it. */
export interface TableSpec {
  readonly name: string;
  readonly primaryKey: ReadonlyArray<string>;
  readonly columns: Columns;
}

export interface Table<C extends Columns> extends TableSpec {
  readonly primaryKey: ReadonlyArray<keyof C & string>;
  readonly columns: C;
}

export function table<const C extends Columns>(name: string, primaryKey: ReadonlyArray<keyof C & string>, columns: C): Table<C> {
  return { name, primaryKey, columns };
}

/** `filed_date` -> `filedDate`: the read side's field names. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer R}` ? `${H}${Capitalize<CamelCase<R>>}` : S;

export function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

type ValueOf<C> = C extends Column<infer T> ? T : never;

/** A row as the read side selects it: the named columns, camelCased, each as its `read` yields it. */
export type RowOf<C extends Columns, K extends keyof C & string = keyof C & string> = { [P in K as CamelCase<P>]: ValueOf<C[P]> };

/**
 * The select list of the named columns: `company_name AS "companyName"`, and each column's read
 * expression where it has one (`to_char(filed_date, 'YYYY-MM-DD') AS "filedDate"`). `alias`
 * qualifies the columns (`f.cik`) for joins.
 */
export function selectList<C extends Columns>(t: Table<C>, columns: ReadonlyArray<keyof C & string>, alias?: string): string {
  return columns
    .map((name) => {
      const column = t.columns[name]!;
      const qualified = alias ? `${alias}.${name}` : name;
      const field = camelCase(name);
      const expr = column.read ? column.read(qualified) : qualified;
      return expr === field ? expr : `${expr} AS "${field}"`;
    })
    .join(', ');
}

/**
 * The `[name, array element type]` pairs a batch upsert writes (see unnestUpsertSql): the named
 * columns, or by default every column but those Postgres fills itself (generated ones, sequences)
 * and `updated_at` (the upsert sets it to now()), in table order.
 */
export function upsertColumns<C extends Columns>(t: Table<C>, columns?: ReadonlyArray<keyof C & string>): ReadonlyArray<ColumnSpec> {
  const filledByPostgres = (name: string, c: Column): boolean => c.generated || c.defaultSql?.startsWith('nextval(') === true || name === 'updated_at';
  const names = columns ?? Object.keys(t.columns).filter((n) => !filledByPostgres(n, t.columns[n]!));
  return names.map((name) => [name, t.columns[name]!.param] as const);
}
