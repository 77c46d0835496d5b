import { rowsByKeys, type SqlSource } from '../repositories/pg-queryable';
import { FILING_RECORD_COLUMNS, type FilingRecord } from './filings.table';

/**
 * The filings live records announce (written by the batch, or found unchanged with their event
 * still to be made): read on the projector's transaction, after the upsert, as the read side reads
 * them. Any order; unknown accessions are absent.
 */
export function filingsByAccessions(source: SqlSource, accessions: readonly string[]): Promise<FilingRecord[]> {
  return rowsByKeys<FilingRecord>(source, accessions, {
    name: 'filings_by_accessions',
    text: `SELECT ${FILING_RECORD_COLUMNS} FROM filings WHERE accession = ANY($1::text[])`,
  });
}
