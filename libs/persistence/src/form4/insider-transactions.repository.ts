import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';
import { statementNamer } from '../repositories/statement-names';
import { FORM4_FILING_RECORD_COLUMNS, INSIDER_TRANSACTION_RECORD_COLUMNS, type Form4FilingRecord, type InsiderTransactionRecord } from './form4.table';

/** Filters of the insider list; values already normalized (padded CIKs, upper-case codes). */
export interface InsiderTransactionFilter {
  /** The issuer. */
  cik: string;
  /** A reporting owner's CIK (10 digits). */
  ownerCik?: string;
  /** Case-insensitive substring of a reporting owner's name as filed. */
  ownerName?: string;
  codes?: string[];
  classifications?: string[];
  /** Inclusive, YYYY-MM-DD, on the sort date. */
  from?: string;
  to?: string;
  derivative?: boolean;
  kind?: 'transaction' | 'holding';
  includeSuperseded: boolean;
}

/** The insider list's order: sort date, then accession, table and sequence (insider_transactions_keyset_idx after cik). */
export const INSIDER_TRANSACTIONS_ORDER = keysetOrder<InsiderTransactionRecord>(
  { sql: 'sort_date', type: 'date', of: (r) => r.sortDate },
  { sql: 'accession', type: 'text', of: (r) => r.accession },
  { sql: 'row_table', type: 'text', of: (r) => r.rowTable },
  { sql: 'sequence', type: 'integer', of: (r) => r.sequence },
);

/** `%` and `_` of a user's substring are literal in ILIKE. */
function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * insider_transactions, read side: one issuer's Form 4 rows, keyset-paged on (sort_date,
 * accession, row_table, sequence), the order of insider_transactions_keyset_idx.
 */
export class InsiderTransactionsRepository {
  private readonly pool: PgQueryable;

  /** On a transaction's EntityManager, reads see that transaction's writes. */
  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  async list(filter: InsiderTransactionFilter, page: PageRequest): Promise<Page<InsiderTransactionRecord>> {
    const params: unknown[] = [filter.cik];
    const where: string[] = ['cik = $1'];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (!filter.includeSuperseded) where.push('superseded_by IS NULL');
    if (filter.ownerCik !== undefined) add((p) => `reporting_owners @> ${p}::jsonb`, JSON.stringify([{ cik: filter.ownerCik }]));
    if (filter.ownerName !== undefined) {
      add((p) => `EXISTS (SELECT 1 FROM jsonb_array_elements(reporting_owners) o WHERE o->>'name' ILIKE ${p})`, likePattern(filter.ownerName));
    }
    if (filter.codes?.length) add((p) => `upper(code) = ANY(${p}::text[])`, filter.codes);
    if (filter.classifications?.length) add((p) => `classification = ANY(${p}::text[])`, filter.classifications);
    if (filter.from !== undefined) add((p) => `sort_date >= ${p}::date`, filter.from);
    if (filter.to !== undefined) add((p) => `sort_date <= ${p}::date`, filter.to);
    if (filter.derivative !== undefined) add((p) => `row_table = ${p}`, filter.derivative ? 'derivative' : 'non_derivative');
    if (filter.kind !== undefined) add((p) => `kind = ${p}`, filter.kind);
    const keyset = keysetSql(INSIDER_TRANSACTIONS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const text = `SELECT ${INSIDER_TRANSACTION_RECORD_COLUMNS} FROM insider_transactions WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`;
    const result = await this.pool.query<InsiderTransactionRecord>({ name: statementName(text), text, values: params });
    return toPage(INSIDER_TRANSACTIONS_ORDER, result.rows, page.limit);
  }

  /** Every row of one filing (superseded or not), Table I first, in filed order. */
  async listByAccession(accession: string): Promise<InsiderTransactionRecord[]> {
    const result = await this.pool.query<InsiderTransactionRecord>({
      name: 'insider_transactions_by_accession',
      text: `SELECT ${INSIDER_TRANSACTION_RECORD_COLUMNS} FROM insider_transactions WHERE accession = $1 ORDER BY row_table DESC, sequence`,
      values: [accession],
    });
    return result.rows;
  }

  /** The filing itself (form4_filings), null until the projector has written it. */
  async findFiling(accession: string): Promise<Form4FilingRecord | null> {
    const result = await this.pool.query<Form4FilingRecord>({
      name: 'form4_filings_by_accession',
      text: `SELECT ${FORM4_FILING_RECORD_COLUMNS} FROM form4_filings WHERE accession = $1`,
      values: [accession],
    });
    return result.rows[0] ?? null;
  }

  /** The accession of the newest Form 4 filing (by effective date), null when there is none. */
  async newestFilingAccession(): Promise<string | null> {
    const r = await this.pool.query<{ accession: string }>({
      name: 'form4_filings_newest',
      text: `SELECT accession FROM form4_filings ORDER BY effective_date DESC, accession DESC LIMIT 1`,
    });
    return r.rows[0]?.accession ?? null;
  }
}

const statementName = statementNamer('insider_transactions_list');
