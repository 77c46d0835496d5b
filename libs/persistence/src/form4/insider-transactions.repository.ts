import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import type { Form4ReportingOwnerData } from '@app/contracts';
import type { ResolvedFootnote } from './form4.table';
import { statementNamer } from '../repositories/statement-names';

/** One row of a Form 4 table as the read side returns it (read model, camelCase; not an API shape). */
export interface InsiderTransactionRecord {
  accession: string;
  rowTable: 'non_derivative' | 'derivative';
  sequence: number;
  cik: string;
  kind: 'transaction' | 'holding';
  form: string;
  isAmendment: boolean;
  /** YYYY-MM-DD or null. */
  filedDate: string | null;
  periodOfReport: string | null;
  /** YYYY-MM-DD: the keyset's date (transaction date, else the period of report). */
  sortDate: string;
  securityTitle: string | null;
  transactionDate: string | null;
  deemedExecutionDate: string | null;
  transactionFormType: string | null;
  code: string | null;
  codeLabel: string | null;
  classification: string | null;
  isOpenMarket: boolean;
  equitySwapInvolved: boolean | null;
  transactionTimeliness: string | null;
  shares: number | null;
  sharesText: string | null;
  totalValue: number | null;
  totalValueText: string | null;
  pricePerShare: number | null;
  pricePerShareText: string | null;
  acquiredDisposed: string | null;
  sharesOwnedFollowing: number | null;
  sharesOwnedFollowingText: string | null;
  valueOwnedFollowing: number | null;
  valueOwnedFollowingText: string | null;
  directIndirect: string | null;
  natureOfOwnership: string | null;
  conversionOrExercisePrice: number | null;
  conversionOrExercisePriceText: string | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingShares: number | null;
  underlyingSharesText: string | null;
  underlyingValue: number | null;
  underlyingValueText: string | null;
  footnotes: Record<string, ResolvedFootnote[]>;
  is10b51: boolean;
  is10b51Reason: 'flag' | 'footnote' | null;
  is10b51FootnoteIds: string[];
  reportingOwners: Form4ReportingOwnerData[];
  srcId: string;
  sourceUrl: string;
  quote: string;
  contentHash: string | null;
  extractedAt: Date | null;
  supersededBy: string | null;
}

/** One Form 4 / 4/A filing besides its rows (read model): what a `form4.filed` event names. */
export interface Form4FilingRecord {
  accession: string;
  /** The issuer. */
  cik: string;
  issuerName: string | null;
  tradingSymbol: string | null;
  form: string;
  isAmendment: boolean;
  /** YYYY-MM-DD or null. */
  filedDate: string | null;
  periodOfReport: string | null;
  reportingOwners: Form4ReportingOwnerData[];
  srcId: string;
  sourceUrl: string;
  contentHash: string | null;
  extractedAt: Date | null;
}

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

/** Keyset position: the sort key of the last row of the previous page (exclusive). */
export interface InsiderTransactionKey {
  sortDate: string;
  accession: string;
  rowTable: string;
  sequence: number;
}

export interface InsiderTransactionQuery {
  filter: InsiderTransactionFilter;
  direction: 'asc' | 'desc';
  after?: InsiderTransactionKey;
  /** Rows to fetch (callers ask for page size + 1 to learn has_more). */
  limit: number;
}

const NUMBER = (c: string) => `${c}::float8 AS "${c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase())}"`;

const COLUMNS = `accession, row_table AS "rowTable", sequence, cik, kind, form, is_amendment AS "isAmendment",
  to_char(filed_date, 'YYYY-MM-DD') AS "filedDate", period_of_report AS "periodOfReport", to_char(sort_date, 'YYYY-MM-DD') AS "sortDate",
  security_title AS "securityTitle", transaction_date AS "transactionDate", deemed_execution_date AS "deemedExecutionDate",
  transaction_form_type AS "transactionFormType", code, code_label AS "codeLabel", classification, is_open_market AS "isOpenMarket",
  equity_swap_involved AS "equitySwapInvolved", transaction_timeliness AS "transactionTimeliness",
  ${NUMBER('shares')}, shares_text AS "sharesText", ${NUMBER('total_value')}, total_value_text AS "totalValueText",
  ${NUMBER('price_per_share')}, price_per_share_text AS "pricePerShareText", acquired_disposed AS "acquiredDisposed",
  ${NUMBER('shares_owned_following')}, shares_owned_following_text AS "sharesOwnedFollowingText",
  ${NUMBER('value_owned_following')}, value_owned_following_text AS "valueOwnedFollowingText",
  direct_indirect AS "directIndirect", nature_of_ownership AS "natureOfOwnership",
  ${NUMBER('conversion_or_exercise_price')}, conversion_or_exercise_price_text AS "conversionOrExercisePriceText",
  exercise_date AS "exerciseDate", expiration_date AS "expirationDate", underlying_security_title AS "underlyingSecurityTitle",
  ${NUMBER('underlying_shares')}, underlying_shares_text AS "underlyingSharesText", ${NUMBER('underlying_value')},
  underlying_value_text AS "underlyingValueText", footnotes, is_10b5_1 AS "is10b51", is_10b5_1_reason AS "is10b51Reason",
  is_10b5_1_footnote_ids AS "is10b51FootnoteIds", reporting_owners AS "reportingOwners", src_id AS "srcId",
  source_url AS "sourceUrl", quote, content_hash AS "contentHash", extracted_at AS "extractedAt", superseded_by AS "supersededBy"`;

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

  async list(query: InsiderTransactionQuery): Promise<InsiderTransactionRecord[]> {
    const { filter } = query;
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
    const op = query.direction === 'asc' ? '>' : '<';
    if (query.after) {
      const a = query.after;
      params.push(a.sortDate, a.accession, a.rowTable, a.sequence);
      const n = params.length;
      where.push(`(sort_date, accession, row_table, sequence) ${op} ($${n - 3}::date, $${n - 2}, $${n - 1}, $${n}::integer)`);
    }
    params.push(query.limit);
    const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
    const text =
      `SELECT ${COLUMNS} FROM insider_transactions WHERE ${where.join(' AND ')}` +
      ` ORDER BY sort_date ${dir}, accession ${dir}, row_table ${dir}, sequence ${dir} LIMIT $${params.length}`;
    const result = await this.pool.query<InsiderTransactionRecord>({ name: statementName(text), text, values: params });
    return result.rows;
  }

  /** Every row of one filing (superseded or not), Table I first, in filed order. */
  async listByAccession(accession: string): Promise<InsiderTransactionRecord[]> {
    const result = await this.pool.query<InsiderTransactionRecord>({
      name: 'insider_transactions_by_accession',
      text: `SELECT ${COLUMNS} FROM insider_transactions WHERE accession = $1 ORDER BY row_table DESC, sequence`,
      values: [accession],
    });
    return result.rows;
  }

  /** The filing itself (form4_filings), null until the projector has written it. */
  async findFiling(accession: string): Promise<Form4FilingRecord | null> {
    const result = await this.pool.query<Form4FilingRecord>({
      name: 'form4_filings_by_accession',
      text: `SELECT ${FILING_COLUMNS} FROM form4_filings WHERE accession = $1`,
      values: [accession],
    });
    return result.rows[0] ?? null;
  }

  /** Many filings in one query (any order; unknown accessions are absent). */
  async findFilings(accessions: readonly string[]): Promise<Form4FilingRecord[]> {
    if (accessions.length === 0) return [];
    const result = await this.pool.query<Form4FilingRecord>({
      name: 'form4_filings_by_accessions',
      text: `SELECT ${FILING_COLUMNS} FROM form4_filings WHERE accession = ANY($1::text[])`,
      values: [accessions],
    });
    return result.rows;
  }

  /** Every row of many filings in one query, each filing's rows in listByAccession's order. */
  async listByAccessions(accessions: readonly string[]): Promise<InsiderTransactionRecord[]> {
    if (accessions.length === 0) return [];
    const result = await this.pool.query<InsiderTransactionRecord>({
      name: 'insider_transactions_by_accessions',
      text: `SELECT ${COLUMNS} FROM insider_transactions WHERE accession = ANY($1::text[]) ORDER BY accession, row_table DESC, sequence`,
      values: [accessions],
    });
    return result.rows;
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

const FILING_COLUMNS = `accession, cik, issuer_name AS "issuerName", trading_symbol AS "tradingSymbol", form, is_amendment AS "isAmendment",
  to_char(filed_date, 'YYYY-MM-DD') AS "filedDate", period_of_report AS "periodOfReport", reporting_owners AS "reportingOwners",
  src_id AS "srcId", source_url AS "sourceUrl", content_hash AS "contentHash", extracted_at AS "extractedAt"`;

const statementName = statementNamer('insider_transactions_list');
