import { pgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { THIRTEENF_FILING_RECORD_COLUMNS, type ThirteenFFilingRecord } from './institutional.table';

/*
 * What the projector's `13f.filed` events read back of the 13F filings it just wrote, on its
 * transaction's manager (so the reads see those rows). Only complete filings (every chunk in):
 * a filing is announced once, when its last chunk lands.
 */

/** Many complete filings in one query (any order; unknown or incomplete accessions are absent). */
export async function thirteenFFilingsByAccessions(source: SqlSource, accessions: readonly string[]): Promise<ThirteenFFilingRecord[]> {
  if (accessions.length === 0) return [];
  const result = await pgQueryable(source).query<ThirteenFFilingRecord>({
    name: 'thirteenf_filings_by_accessions',
    text: `SELECT ${THIRTEENF_FILING_RECORD_COLUMNS},
        (SELECT coalesce(sum(h.value_usd), 0) FROM thirteenf_holdings h WHERE h.accession = f.accession) AS "valueUsdTotal"
      FROM thirteenf_filings f WHERE f.accession = ANY($1::text[]) AND f.chunks_seen = f.chunk_count`,
    values: [accessions],
  });
  return result.rows;
}
