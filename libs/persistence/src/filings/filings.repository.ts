import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';
import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { statementNamer } from '../repositories/statement-names';
import { FILING_RECORD_COLUMNS, type FilingRecord } from './filings.table';

/** Filters of the filing lists; arrays already normalized (upper-case forms, padded CIKs). */
export interface FilingListFilter {
  forms?: string[];
  ciks?: string[];
  /** 8-K item numbers: filings with any of them. */
  items?: string[];
  /** Inclusive, YYYY-MM-DD. */
  filedFrom?: string;
  filedTo?: string;
}

/** The filing lists' order: filing date, then accession. */
export const FILINGS_ORDER = keysetOrder<FilingRecord>(
  { sql: 'filed_date', type: 'date', of: (f) => f.filedDate },
  { sql: 'accession', type: 'text', of: (f) => f.accession },
);

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

  async list(filter: FilingListFilter, page: PageRequest): Promise<Page<FilingRecord>> {
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
    if (filter.items?.length) add((p) => `items ?| ${p}::text[]`, filter.items);
    if (filter.filedFrom !== undefined) add((p) => `filed_date >= ${p}::date`, filter.filedFrom);
    if (filter.filedTo !== undefined) add((p) => `filed_date <= ${p}::date`, filter.filedTo);
    const keyset = keysetSql(FILINGS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const text = `SELECT ${FILING_RECORD_COLUMNS} FROM filings` + (where.length ? ` WHERE ${where.join(' AND ')}` : '') + ` ${keyset.orderByLimit}`;
    const result = await this.pool.query<FilingRecord>({ name: statementName(text), text, values: params });
    return toPage(FILINGS_ORDER, result.rows, page.limit);
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
