/** The provenance of a company row read from SEC's ticker map, as the api specs seed it. */
export const SEC_TICKERS_PROVENANCE = {
  src_id: 'src_sec_company_tickers',
  source_provider: 'sec',
  source_url: 'https://www.sec.gov/files/company_tickers.json',
  accession: null,
  quote: null,
  content_hash: `sha256:${'a'.repeat(64)}`,
  extracted_at: '2025-01-01T00:00:00Z',
};

/** MSFT:US as a companies row, for specs that need one company the api can answer. */
export async function seedMicrosoft(db: { query(sql: string, params?: unknown[]): Promise<unknown> }): Promise<void> {
  await db.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, listing_exchange, provenance, record_id, data_hash, observed_at, sec_detail)
     VALUES ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, 'Nasdaq', $1::jsonb, 'rec_msft', 'h', now(), $2::jsonb)`,
    [JSON.stringify(SEC_TICKERS_PROVENANCE), JSON.stringify({ website: null, country: 'US', is_fund: false })],
  );
}
