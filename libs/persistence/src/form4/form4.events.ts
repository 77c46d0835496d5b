import { pgQueryable, rowsByKeys, type SqlSource } from '../repositories/pg-queryable';
import { FORM4_FILING_RECORD_COLUMNS, INSIDER_TRANSACTION_RECORD_COLUMNS, type Form4FilingRecord, type InsiderTransactionRecord } from './form4.table';

/*
 * What the projector's webhook events read back of the Form 4 filings it just wrote, on its
 * transaction's manager (so the reads see those rows): the write side's reads, not the read side's repository.
 */

/** Many filings in one query (any order; unknown accessions are absent). */
export function form4FilingsByAccessions(source: SqlSource, accessions: readonly string[]): Promise<Form4FilingRecord[]> {
  return rowsByKeys<Form4FilingRecord>(source, accessions, {
    name: 'form4_filings_by_accessions',
    text: `SELECT ${FORM4_FILING_RECORD_COLUMNS} FROM form4_filings WHERE accession = ANY($1::text[])`,
  });
}

/** Every row of many filings in one query, each filing's rows in the insider list's order (table, then sequence). */
export async function insiderTransactionsByAccessions(source: SqlSource, accessions: readonly string[]): Promise<InsiderTransactionRecord[]> {
  if (accessions.length === 0) return [];
  const result = await pgQueryable(source).query<InsiderTransactionRecord>({
    name: 'insider_transactions_by_accessions',
    text: `SELECT ${INSIDER_TRANSACTION_RECORD_COLUMNS} FROM insider_transactions WHERE accession = ANY($1::text[]) ORDER BY accession, row_table DESC, sequence`,
    values: [accessions],
  });
  return result.rows;
}
