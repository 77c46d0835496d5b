import type { FundHeader, Provenance } from '@app/contracts';
import { boolean, char, date, doublePrecision, integer, jsonb, numeric, text, timestamptz, table } from '../table';

/** Only common equity counts as exposure to the issuer: a bond of Apple is not a share of Apple. */
export const EXPOSURE_ASSET_CATEGORIES = ['EC'] as const;

/**
 * How many funds hold a company (the fund exposure list's `fund_count`), kept by the fund holdings
 * projection in the transaction that changes a fund's holdings: counting 5,000 funds per request
 * set the endpoint's p99 (bench/scale). A fund counts once per company with at least one current
 * equity holding of it that has a weight.
 */
export const COMPANY_FUND_COUNTS_TABLE = table('company_fund_counts', ['match_cik'], {
  match_cik: char(10),
  funds: integer(),
  /** Of those, funds that are exchange-traded (`etfs_only`). */
  etf_funds: integer(),
});

/**
 * Read model of one holding (invstOrSec) of one N-PORT filing. Rows of a filing become current
 * (`is_current`) once every holding of it has arrived and it is the fund's latest; older filings'
 * rows are then deleted. The two keyset indexes back the fund-exposure sorts per company (the
 * weight one also the fund count).
 */
export const FUND_HOLDINGS_TABLE = table('fund_holdings', ['accession', 'holding_index'], {
  accession: text(),
  holding_index: integer(),
  fund_key: text(),
  report_date: date(),
  is_current: boolean().default('false'),
  name: text().nullable(),
  title: text().nullable(),
  lei: text().nullable(),
  cusip: text().nullable(),
  isin: text().nullable(),
  ticker: text().nullable(),
  other_ids: jsonb<unknown>(),
  balance: numeric().nullable(),
  units: text().nullable(),
  cur_cd: text().nullable(),
  val_usd: numeric().nullable(),
  pct_val: numeric().nullable(),
  payoff_profile: text().nullable(),
  asset_cat: text().nullable(),
  asset_conditional: jsonb<unknown>().nullable(),
  issuer_cat: text().nullable(),
  issuer_conditional: jsonb<unknown>().nullable(),
  inv_country: text().nullable(),
  fair_val_level: text().nullable(),
  is_restricted: boolean().nullable(),
  /** Leads fund_holdings_exposure_weight_idx (match_cik, pct_val, accession, holding_index) INCLUDE (fund_key, is_current, asset_cat): TypeORM cannot state INCLUDE, its migration makes it. */
  match_cik: char(10).nullable(),
  match_symbol: text().nullable(),
  match_method: text().nullable(),
  match_confidence: doublePrecision(),
  /** The record's provenance with this holding's own verbatim quote. */
  provenance: jsonb<Provenance>(),
  record_id: text(),
  data_hash: text(),
});

/** Read model of one fund (an N-PORT series, or a registrant without series) at its latest complete filing. */
export const FUNDS_TABLE = table('funds', ['fund_key'], {
  /** Series id (S000013795) or CIK<10 digits>. */
  fund_key: text(),
  registrant_cik: char(10),
  registrant_name: text().nullable(),
  series_id: text().nullable(),
  series_name: text().nullable(),
  fund_ticker: text().nullable(),
  is_etf: boolean().default('false'),
  /** The header as the record carried it (classes, LEIs, assets, ...). */
  header: jsonb<FundHeader>(),
  /** The filing whose holdings are current (the latest complete one by report date). */
  accession: text(),
  report_date: date(),
  net_assets: numeric().nullable(),
  provenance: jsonb<Provenance>(),
  data_hash: text(),
  updated_at: timestamptz().default('now()'),
});
