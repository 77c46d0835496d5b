import { schemaDifferences, type CatalogColumn } from './schema-check';
import { boolean, char, table, text, timestamptz } from './table';

const THINGS = table('things', ['id'], {
  id: text(),
  cik: char(10),
  active: boolean().nullable(),
  updated_at: timestamptz().default('now()'),
});

/** The catalog rows of a database whose `things` matches THINGS exactly. */
function agreeing(): CatalogColumn[] {
  const col = (column: string, type: string, notNull: boolean, defaultSql: string | null = null, primaryKeyPosition = 0): CatalogColumn => ({
    table: 'things', column, type, notNull, defaultSql, generated: false, primaryKeyPosition,
  });
  return [col('id', 'text', true, null, 1), col('cik', 'character(10)', true), col('active', 'boolean', false), col('updated_at', 'timestamp with time zone', true, 'now()')];
}

describe('schemaDifferences (db:check)', () => {
  it('finds none when the migrated table and the spec agree', () => {
    expect(schemaDifferences([THINGS], agreeing())).toEqual([]);
  });

  it('fails on a type, a nullability, a default, a primary key, and a column or table on one side only', () => {
    const db = agreeing();
    db[1] = { ...db[1]!, type: 'text' };
    db[2] = { ...db[2]!, notNull: true };
    db[3] = { ...db[3]!, defaultSql: null };
    db[0] = { ...db[0]!, primaryKeyPosition: 0 };
    db.push({ ...db[1], column: 'extra' }, { ...db[1], table: 'others' });
    expect(schemaDifferences([THINGS, table('gone', [], { a: text() })], db.filter((c) => c.column !== 'active' || c.notNull))).toEqual([
      'others: in the database, no table spec',
      'things.extra: in the database, not in the spec',
      'things.cik: type text in the database, character(10) in the spec',
      'things.active: NOT NULL in the database, nullable in the spec',
      'things.updated_at: default none in the database, now() in the spec',
      'things: primary key () in the database, (id) in the spec',
      'gone: a table spec, not in the database',
    ]);
  });

  it('fails on a column the spec has and the database lacks', () => {
    expect(schemaDifferences([THINGS], agreeing().filter((c) => c.column !== 'cik'))).toEqual(['things.cik: in the spec, not in the database']);
  });
});
