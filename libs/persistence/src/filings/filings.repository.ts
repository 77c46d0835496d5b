import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { statementNamer } from '../repositories/statement-names';
import { FILING_RECORD_COLUMNS, type FilingRecord } from './filings.table';

/** Filters of the filing lists; arrays already normalized (upper-case forms, padded CIKs). */
export interface FilingListFilter {
  forms?: string[];
  ciks?: string[];
  /** Inclusive, YYYY-MM-DD. */
  filedFrom?: string;
  filedTo?: string;
}

export interface FilingListQuery {
  filter: FilingListFilter;
  direction: 'asc' | 'desc';
  /** Keyset: (filed_date, accession) of the last row of the previous page (exclusive). */
  after?: { filedDate: string; accession: string };
  /** Rows to fetch (callers ask for page size + 1 to learn has_more). */
  limit: number;
}

/**
 * Filings read model, read side: raw parameterized SQL on the pg pool, keyset paging on
 * (filed_date, accession) with a row comparison the composite indexes serve directly.
 */
export class FilingsRepository {
  private readonly pool: PgQueryable;

  /** On a transaction's EntityManager, reads see that transaction's writes. */
  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  async list(query: FilingListQuery): Promise<FilingRecord[]> {
    const { filter } = query;
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    // One company (its filings route) is an equality, so its newest filings come straight off
    // filings_cik_filed_date_accession_idx in order; `= ANY` would bitmap-scan and sort them all.
    if (filter.ciks?.length === 1) add((p) => `cik = ${p}::bpchar`, filter.ciks[0]);
    else if (filter.ciks?.length) add((p) => `cik = ANY(${p}::bpchar[])`, filter.ciks);
    if (filter.forms?.length) add((p) => `upper(form) = ANY(${p}::text[])`, filter.forms);
    if (filter.filedFrom !== undefined) add((p) => `filed_date >= ${p}::date`, filter.filedFrom);
    if (filter.filedTo !== undefined) add((p) => `filed_date <= ${p}::date`, filter.filedTo);
    const op = query.direction === 'asc' ? '>' : '<';
    if (query.after) {
      params.push(query.after.filedDate, query.after.accession);
      where.push(`(filed_date, accession) ${op} ($${params.length - 1}::date, $${params.length})`);
    }
    params.push(query.limit);
    const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
    const text =
      `SELECT ${FILING_RECORD_COLUMNS} FROM filings` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY filed_date ${dir}, accession ${dir} LIMIT $${params.length}`;
    const result = await this.pool.query<FilingRecord>({ name: statementName(text), text, values: params });
    return result.rows;
  }

  async findByAccession(accession: string): Promise<FilingRecord | null> {
    const result = await this.pool.query<FilingRecord>({
      name: 'filings_by_accession',
      text: `SELECT ${FILING_RECORD_COLUMNS} FROM filings WHERE accession = $1`,
      values: [accession],
    });
    return result.rows[0] ?? null;
  }
}

const statementName = statementNamer('filings_list');
