import type { Provenance } from '@app/contracts';
import { bigint, boolean, char, date, integer, integerArray, jsonb, numeric, selectList, table, text, textArray, timestamptz, type RowOf } from '../table';

/** One 13F filing as filed (13F-HR, -HR/A, -NT, -NT/A); a restatement marks the filings it replaces `superseded_by`. */
export const THIRTEENF_FILINGS_TABLE = table('thirteenf_filings', ['accession'], {
  accession: text(),
  manager_cik: char(10),
  manager_name: text().nullable(),
  form: text(),
  report_type: text(),
  amendment_number: integer().nullable(),
  amendment_type: text().nullable(),
  period: date(),
  filed_date: date(),
  accepted_at: timestamptz().nullable(),
  file_number: text().nullable(),
  other_managers: jsonb<unknown>(),
  included_managers: jsonb<unknown>(),
  entry_total: integer().nullable(),
  value_total: numeric().nullable(),
  value_unit: text(),
  unit_basis: text(),
  unit_flag: text().nullable(),
  holdings_total: integer(),
  /** How many distinct chunks arrived (non-null chunk_hashes); the filing is complete when it equals chunk_count. */
  chunks_seen: integer(),
  chunk_count: integer(),
  /** Per chunk index, the hash of the chunk's data last projected (null until it arrives): a redelivered chunk counts once. */
  chunk_hashes: textArray(),
  superseded_by: text().nullable(),
  source_url: text(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  updated_at: timestamptz().default('now()'),
});

/** The columns of a ThirteenFFilingRecord: one 13F filing without its holdings, what a `13f.filed` event summarizes. */
const THIRTEENF_FILING_RECORD_FIELDS = [
  'accession', 'manager_cik', 'manager_name', 'form', 'report_type', 'amendment_number', 'amendment_type', 'period', 'filed_date',
  'accepted_at', 'holdings_total', 'value_total', 'value_unit', 'unit_flag', 'superseded_by', 'source_url', 'provenance',
] as const;

/** One 13F filing without its holdings (read model), with the dollar total of its rows. */
export type ThirteenFFilingRecord = RowOf<typeof THIRTEENF_FILINGS_TABLE.columns, (typeof THIRTEENF_FILING_RECORD_FIELDS)[number]> & {
  /** Sum of value_usd over every row of the filing (options included, as tableValueTotal), as pg returns a bigint sum. */
  valueUsdTotal: string;
};

export const THIRTEENF_FILING_RECORD_COLUMNS = selectList(THIRTEENF_FILINGS_TABLE, THIRTEENF_FILING_RECORD_FIELDS, 'f');

/** One infoTable row of one filing, as filed (value_usd scaled by the filing's unit). */
export const THIRTEENF_HOLDINGS_TABLE = table('thirteenf_holdings', ['accession', 'holding_index'], {
  accession: text(),
  holding_index: integer(),
  cusip: text(),
  issuer: text(),
  class_title: text().nullable(),
  figi: text().nullable(),
  value_filed: numeric(),
  value_usd: bigint(),
  shares: bigint(),
  share_type: text(),
  put_call: text().nullable(),
  discretion: text().nullable(),
  other_managers: integerArray(),
  voting_sole: bigint(),
  voting_shared: bigint(),
  voting_none: bigint(),
  quote: text(),
});

/**
 * What is served: one row per manager, quarter (period) and CUSIP, summed over the quarter's
 * current filings, the options apart; `change` on the long position (shares + principal) against
 * the manager's previous quarter, null when neither quarter holds it long. A `sold_out` row is
 * either still filed for its options (its own holding) or, when the CUSIP is gone, a row of zeros
 * pointing (accession, holding_index) at the holding of the previous quarter, the last one that
 * shows the position.
 */
export const INSTITUTIONAL_POSITIONS_TABLE = table('institutional_positions', ['manager_cik', 'period', 'cusip'], {
  manager_cik: char(10),
  period: date(),
  cusip: text(),
  cik: char(10).nullable(),
  match_method: text().nullable(),
  issuer: text(),
  class_title: text().nullable(),
  shares: bigint(),
  principal: bigint(),
  value_usd: bigint(),
  put_shares: bigint(),
  put_value_usd: bigint(),
  call_shares: bigint(),
  call_value_usd: bigint(),
  prev_shares: bigint().nullable(),
  share_delta: bigint().nullable(),
  /** share_delta, or below every delta when there is none: the change sort's key. */
  change_rank: bigint().generatedAs("COALESCE(share_delta, '-9007199254740991'::bigint)"),
  change: text().nullable(),
  accession: text(),
  holding_index: integer(),
});

export const INSTITUTIONAL_MANAGER_QUARTERS_TABLE = table('institutional_manager_quarters', ['manager_cik', 'period'], {
  manager_cik: char(10),
  period: date(),
  manager_name: text().nullable(),
  report_type: text(),
  accessions: textArray(),
  other_managers: jsonb<unknown>(),
  positions: integer(),
  value_usd_total: bigint(),
  unit_flag: text().nullable(),
  updated_at: timestamptz().default('now()'),
});

export const INSTITUTIONAL_MANAGERS_TABLE = table('institutional_managers', ['cik'], {
  cik: char(10),
  name: text().nullable(),
  file_number: text().nullable(),
  latest_period: date(),
  updated_at: timestamptz().default('now()'),
});

/** CUSIP -> covered company, from N-PORT holdings matched by an identifier (never by name). */
export const CUSIP_CROSSWALK_TABLE = table('cusip_crosswalk', ['cusip'], {
  /** Nine characters (crosswalkRows keeps valid CUSIPs only); text like every other cusip column, so joins compare text with text. */
  cusip: text(),
  cik: char(10),
  symbol: text().nullable(),
  method: text(),
  accession: text(),
  holding_index: integer(),
  updated_at: timestamptz().default('now()'),
});

/** SEC's Official List of Section 13(f) Securities, per quarter. */
export const THIRTEENF_SECURITIES_TABLE = table('thirteenf_securities', ['quarter', 'cusip'], {
  quarter: text(),
  /** Nine characters (thirteenFSecurityRows checks); text like every other cusip column. */
  cusip: text(),
  has_options: boolean(),
  issuer: text(),
  description: text().nullable(),
  status: text().nullable(),
});

/* Shared by the 13F projection (positions as written) and the holders repository (positions as of a day). */
/** The match of the positions row `p` (a lateral join yielding `matched.cik, matched.method`): exact CUSIP, else an unambiguous issuer. */
export const CUSIP_MATCH_JOIN = `
  LEFT JOIN LATERAL (
    SELECT cik, method FROM (
      SELECT x.cik, 'cusip' AS method, 1 AS rank FROM cusip_crosswalk x WHERE x.cusip = p.cusip
      UNION ALL
      SELECT min(w.cik), 'cusip_issuer', 2 FROM cusip_crosswalk w WHERE left(w.cusip, 6) = left(p.cusip, 6) HAVING count(DISTINCT w.cik) = 1
    ) candidates ORDER BY rank LIMIT 1
  ) matched ON true`;
