/*
 * Keyset pagination, declared once per list: the order's columns give the ORDER BY, the keyset
 * predicate of the next page and the key a cursor carries, so the three cannot drift apart.
 */

/** One value of a sort key, as a cursor carries it (JSON). */
export type KeyPart = string | number;

/** Postgres type a key value is bound as; it also says what a cursor's value must look like. */
export type KeyType = 'text' | 'date' | 'integer' | 'bigint' | 'float8' | 'numeric' | 'timestamptz';

/** One column of a list's order. */
export interface KeyColumn<R> {
  /** SQL expression the list sorts on (`filed_date`, `d.sort_at`). */
  sql: string;
  type: KeyType;
  /** The row's value of that expression, as the next page's bound. */
  of: (row: R) => KeyPart;
  /** What a cursor's value must also be, beyond its type (one of a few kinds, a bounded length). */
  accepts?: (value: KeyPart) => boolean;
  /**
   * Sorted against the page's direction: a tie-breaker an index holds ascending under a descending
   * lead (`value_usd DESC, manager_cik`), so the index serves the order without a sort.
   */
  reverse?: boolean;
}

/** A list's order: its columns, most significant first, all in the page's direction. */
export interface KeysetOrder<R> {
  columns: ReadonlyArray<KeyColumn<R>>;
}

export type Direction = 'asc' | 'desc';

/** What a repository needs to read one page. */
export interface PageRequest {
  direction: Direction;
  /** Page size (rows to return; one more is read to learn whether more follow). */
  limit: number;
  /** Sort key of the previous page's last row (exclusive bound), from a cursor. */
  after?: ReadonlyArray<KeyPart>;
}

/** One page of rows, and the key the next page starts after (null on the last page). */
export interface Page<R> {
  rows: R[];
  hasMore: boolean;
  nextKey: KeyPart[] | null;
}

export function keysetOrder<R>(...columns: KeyColumn<R>[]): KeysetOrder<R> {
  return { columns };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMERIC = /^-?\d{1,40}(\.\d{1,40})?$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

function isKeyValue(type: KeyType, v: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof v === 'string' && !v.includes('\u0000');
    case 'date':
      return typeof v === 'string' && DATE.test(v);
    case 'timestamptz':
      return typeof v === 'string' && TIMESTAMP.test(v);
    case 'integer':
    case 'bigint':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'numeric':
      // Exact decimal text, as numeric columns are read (a number would round them).
      return typeof v === 'string' && NUMERIC.test(v);
    case 'float8':
      // A computed score: JSON carries a double exactly, so the bound is the row's own value.
      return typeof v === 'number' && Number.isFinite(v);
  }
}

/** Whether a decoded cursor key fits the order (count and type of every value): a forged one does not reach SQL. */
export function isKeyOf(order: KeysetOrder<never>, key: unknown): key is KeyPart[] {
  if (!Array.isArray(key) || key.length !== order.columns.length) return false;
  const values: unknown[] = key;
  return order.columns.every((c, i) => isKeyValue(c.type, values[i]) && (c.accepts?.(values[i] as KeyPart) ?? true));
}

/**
 * The ORDER BY and LIMIT of a page, and its keyset predicate (null on the first page), with the
 * bound values appended to `params`. One column compares plainly; several as a row, which the
 * composite indexes serve directly.
 */
export function keysetSql(order: KeysetOrder<never>, page: PageRequest, params: unknown[]): { predicate: string | null; orderByLimit: string } {
  if (order.columns.some((c) => c.reverse)) return mixedKeysetSql(order, page, params);
  const dir = page.direction === 'asc' ? 'ASC' : 'DESC';
  let predicate: string | null = null;
  if (page.after) {
    const bounds = order.columns.map((c, i) => {
      params.push(page.after![i]);
      return `$${params.length}::${c.type}`;
    });
    const op = page.direction === 'asc' ? '>' : '<';
    const columns = order.columns.map((c) => c.sql);
    predicate = columns.length === 1 ? `${columns[0]} ${op} ${bounds[0]}` : `(${columns.join(', ')}) ${op} (${bounds.join(', ')})`;
  }
  params.push(page.limit + 1);
  const orderByLimit = `ORDER BY ${order.columns.map((c) => `${c.sql} ${dir}`).join(', ')} LIMIT $${params.length}`;
  return { predicate, orderByLimit };
}

/** The page from the rows a keysetSql query returned (at most limit + 1): the one place the extra row is cut. */
export function toPage<R>(order: KeysetOrder<R>, rows: R[], limit: number): Page<R> {
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  const last = rows[rows.length - 1];
  return { rows, hasMore, nextKey: hasMore && last !== undefined ? order.columns.map((c) => c.of(last)) : null };
}

/**
 * keysetSql for an order whose columns do not all run one way (`reverse`): no row comparison can
 * say "after" there, so the bound is spelled on the first column, which the index then seeks to
 * (`lead <= $1 AND (lead < $1 OR (tail) > (...))`); the other columns, all one way, compare as a row.
 */
function mixedKeysetSql(order: KeysetOrder<never>, page: PageRequest, params: unknown[]): { predicate: string | null; orderByLimit: string } {
  const [lead, ...tail] = order.columns;
  if (!lead || new Set(tail.map((c) => c.reverse === true)).size > 1) {
    throw new Error('keyset: a mixed order needs a first column and a tail that runs one way');
  }
  const desc = page.direction === 'desc';
  const runsDesc = (c: KeyColumn<never>) => desc !== (c.reverse === true);
  let predicate: string | null = null;
  if (page.after) {
    const bound = (i: number) => {
      params.push(page.after![i]);
      return `$${params.length}::${order.columns[i]!.type}`;
    };
    let tailPredicate = 'false';
    const tailBounds = tail.map((_, i) => bound(i + 1));
    if (tail.length > 0) {
      const op = runsDesc(tail[0]!) ? '<' : '>';
      tailPredicate = tail.length === 1 ? `${tail[0]!.sql} ${op} ${tailBounds[0]}` : `(${tail.map((c) => c.sql).join(', ')}) ${op} (${tailBounds.join(', ')})`;
    }
    const leadDesc = runsDesc(lead);
    const b = bound(0);
    predicate = `${lead.sql} ${leadDesc ? '<=' : '>='} ${b} AND (${lead.sql} ${leadDesc ? '<' : '>'} ${b} OR ${tailPredicate})`;
  }
  params.push(page.limit + 1);
  const terms = order.columns.map((c) => `${c.sql} ${runsDesc(c) ? 'DESC' : 'ASC'}`);
  return { predicate, orderByLimit: `ORDER BY ${terms.join(', ')} LIMIT $${params.length}` };
}

/** A key column's values compared as the database would (text, dates as ISO text; numbers numerically). */
function compareKeyParts(a: KeyPart, b: KeyPart): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * One keyset page of rows held in memory (a list small enough to read whole, e.g. one concept's
 * values): the same order, cursor keys and page as keysetSql + toPage give for a table. Text
 * compares by code unit here, so an order of text columns must not rely on a collation.
 */
export function keysetInMemory<R>(order: KeysetOrder<R>, rows: readonly R[], page: PageRequest): Page<R> {
  const keyOf = (r: R): KeyPart[] => order.columns.map((c) => c.of(r));
  const sign = page.direction === 'asc' ? 1 : -1;
  const compare = (a: readonly KeyPart[], b: readonly KeyPart[]): number => {
    for (let i = 0; i < order.columns.length; i++) {
      const d = compareKeyParts(a[i]!, b[i]!) * (order.columns[i]!.reverse ? -1 : 1);
      if (d !== 0) return d * sign;
    }
    return 0;
  };
  const keyed = rows.map((row) => ({ row, key: keyOf(row) })).sort((a, b) => compare(a.key, b.key));
  const after = page.after;
  const rest = after ? keyed.filter((k) => compare(k.key, after) > 0) : keyed;
  return toPage(order, rest.slice(0, page.limit + 1).map((k) => k.row), page.limit);
}
