import type { EntityManager } from 'typeorm';
import type { BatchOutcome } from './batch-outcome';

/*
 * The batch machinery the single-key read models share (companies, filings, segments).
 *
 * The per-record guard: a record overwrites the row only when its data hash differs, it is not
 * older (observed_at) and its source is not poorer (rank; only filings rank sources). A batch is
 * first reduced per key, in TS, to the record that applying the batch one record at a time would
 * leave; then one multi-row upsert writes the survivors with the same guard in SQL.
 */

/** What the per-record guard compares. */
export interface Version {
  hash: string;
  /** epoch milliseconds of observed_at */
  observedAt: number;
  rank: number;
}

/** One record of a batch, reduced to what the per-key reduction needs. */
export interface Versioned extends Version {
  key: string;
}

/** The per-record guard: whether applying `next` over `current` writes. */
export function supersedes(next: Version, current: Version): boolean {
  return next.hash !== current.hash && next.observedAt >= current.observedAt && next.rank >= current.rank;
}

/**
 * The record each key ends with when the batch is applied one record at a time, in offset order.
 * `stored` holds the stored versions of keys that occur more than once in the batch (a key that is
 * absent has no row): folding from the stored row is what makes "r1 older than the row, r2 newer
 * than the row but older than r1" end with r2, as it does sequentially. A key seen once needs no
 * stored version: its record is the candidate and the SQL guard decides. Returns the indexes of
 * the surviving records, sorted by key (the lock order of the upsert); a key none of whose records
 * would write has no survivor.
 */
export function survivorsByKey(records: ReadonlyArray<Versioned>, stored: ReadonlyMap<string, Version>): number[] {
  const state = new Map<string, { version: Version | undefined; index: number | undefined }>();
  records.forEach((r, i) => {
    let s = state.get(r.key);
    if (!s) state.set(r.key, (s = { version: stored.get(r.key), index: undefined }));
    if (!s.version || supersedes(r, s.version)) {
      s.version = r;
      s.index = i;
    }
  });
  return [...state.entries()]
    .filter((e): e is [string, { version: Version; index: number }] => e[1].index !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => s.index);
}

/** The keys that occur more than once in the batch: only their stored versions are read. */
export function repeatedKeys(records: ReadonlyArray<{ key: string }>): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const r of records) (seen.has(r.key) ? repeated : seen).add(r.key);
  return [...repeated].sort();
}

/** A column of a batch upsert: its name and the Postgres type of its unnest array's elements. */
export type ColumnSpec = readonly [name: string, type: string];

/**
 * One multi-row upsert: every column travels as one typed array (`unnest($1::text[], ...)`), which
 * measured faster than one JSON parameter (`jsonb_to_recordset`), and COPY + merge did not clearly
 * beat it (see bench/projector/README.md). `conflict` lists the key columns; they and `keep` are not updated.
 * `guard` is the ON CONFLICT ... WHERE; `returning` names what comes back (null: nothing, for bulk rows no one reads back). `set` gives a column
 * another expression than `EXCLUDED.<column>` (`COALESCE(EXCLUDED.x, t.x)`: never blank a known value).
 */
export function unnestUpsertSql(
  table: string,
  columns: ReadonlyArray<ColumnSpec>,
  conflict: string,
  guard: string,
  returning: string | null,
  options: { keep?: ReadonlyArray<string>; updatedAt?: boolean; set?: Readonly<Record<string, string>> } = {},
): string {
  const names = columns.map(([n]) => n);
  // An array column travels as its literal text (unnest of a 2-D array would flatten it) and is cast back.
  const selected = columns.map(([n, t]) => (isArrayParam(t) ? `x.${n}::${t}` : `x.${n}`));
  const fixed = new Set([...conflict.split(',').map((c) => c.trim()), ...(options.keep ?? [])]);
  const touch = options.updatedAt ?? true;
  return `
  INSERT INTO ${table} (${names.join(', ')}${touch ? ', updated_at' : ''})
  SELECT ${selected.join(', ')}${touch ? ', now()' : ''}
    FROM unnest(${columns.map(([, t], i) => `$${i + 1}::${isArrayParam(t) ? 'text' : t}[]`).join(', ')}) AS x(${names.join(', ')})
  ON CONFLICT (${conflict}) DO UPDATE SET
    ${names.filter((n) => !fixed.has(n)).map((n) => `${n} = ${options.set?.[n] ?? `EXCLUDED.${n}`}`).join(',\n    ')}${touch ? ',\n    updated_at = now()' : ''}
  WHERE ${guard}${returning === null ? '' : `
  RETURNING ${returning}`}`;
}

const isArrayParam = (type: string): boolean => type.endsWith('[]');

/** A one-dimensional array as a Postgres array literal: every element quoted, null as NULL. */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}

/** The upsert's parameters: one array per column; jsonb values travel as JSON text, arrays as literals (SQL NULL stays NULL). */
export function columnArrays(rows: ReadonlyArray<Record<string, unknown>>, columns: ReadonlyArray<ColumnSpec>): unknown[][] {
  return columns.map(([name, type]) =>
    rows.map((row) => {
      const v = row[name];
      if (v === null || v === undefined) return v;
      if (type === 'jsonb') return JSON.stringify(v);
      return isArrayParam(type) && Array.isArray(v) ? arrayLiteral(v as Array<string | number | null>) : v;
    }),
  );
}

/**
 * The outcome of a batch from what the upsert returned: `rowKeys[j]` is the row key of the record
 * `survivors[j]`; the envelope keys of the written ones come back in offset order.
 */
export function batchOutcome(
  envelopes: ReadonlyArray<{ key: string }>,
  survivors: ReadonlyArray<number>,
  rowKeys: ReadonlyArray<string>,
  written: ReadonlyArray<{ key: string; inserted: boolean }>,
): BatchOutcome {
  const byKey = new Map(written.map((w) => [w.key, w.inserted]));
  const inserted: string[] = [];
  const updated: string[] = [];
  const order = survivors.map((index, j) => ({ index, w: byKey.get(rowKeys[j]!) })).sort((a, b) => a.index - b.index);
  for (const { index, w } of order) {
    if (w === true) inserted.push(envelopes[index]!.key);
    else if (w === false) updated.push(envelopes[index]!.key);
  }
  return { inserted, updated, unchanged: envelopes.length - inserted.length - updated.length };
}

/**
 * Reads the stored versions of the keys repeated in the batch, reduces the batch per key and
 * returns the surviving rows sorted by key. `versionSql` selects `key, hash, observed_at, rank`
 * for `= ANY($1::text[])`.
 */
export async function survivingRows<R>(
  m: EntityManager,
  rows: ReadonlyArray<R>,
  version: (row: R, i: number) => Versioned,
  versionSql: string,
): Promise<{ survivors: number[]; rows: R[] }> {
  const versions = rows.map(version);
  const repeated = repeatedKeys(versions);
  const stored = new Map<string, Version>();
  if (repeated.length > 0) {
    const found = await m.query<Array<{ key: string; hash: string; observed_at: Date; rank: number }>>(versionSql, [repeated]);
    for (const s of found) stored.set(s.key, { hash: s.hash, observedAt: s.observed_at.getTime(), rank: s.rank });
  }
  const survivors = survivorsByKey(versions, stored);
  return { survivors, rows: survivors.map((i) => rows[i]!) };
}
