import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK');
const accession = z.string().regex(/^\d{10}-\d{2}-\d{6}$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Records carry at most this many holdings: 1,700 holdings (~1.2 MB of JSON) would pass Kafka's 1 MB message limit. */
export const FUND_HOLDINGS_PER_RECORD = 250;

export const fundHeaderSchema = z.object({
  key: z.string().min(1).describe('Natural key of the fund: its series id (S000013795), or CIK<10 digits> for a registrant without series'),
  registrant_cik: cik,
  registrant_name: z.string().nullable(),
  registrant_lei: z.string().nullable(),
  series_id: z.string().nullable().describe('genInfo/seriesId; null for registrants without series (closed-end funds)'),
  series_name: z.string().nullable(),
  series_lei: z.string().nullable(),
  classes: z.array(z.object({ class_id: z.string(), ticker: z.string().nullable() })).describe('Share classes of the series; ticker where the filing gives one'),
  fund_ticker: z.string().nullable().describe('A class ticker from the filing; else, for a registrant without series, its ticker in the SEC ticker map; else null'),
  is_etf: z.boolean().describe('N-PORT has no ETF flag: true only when the series or registrant name says ETF; false means not known to be one'),
  report_date: date.describe('genInfo/repPdDate: the date the holdings are as of'),
  report_period_end: date.nullable().describe('genInfo/repPdEnd: fiscal year end of the fund'),
  net_assets: z.number().nullable().describe('fundInfo/netAssets in USD'),
  total_assets: z.number().nullable().describe('fundInfo/totAssets in USD'),
  submission_type: z.string().nullable().describe('NPORT-P, NPORT-P/A, ...'),
});

export const holdingMatchSchema = z
  .object({
    cik: cik.nullable(),
    symbol: z.string().nullable().describe('<TICKER>:US of the matched company'),
    method: z.enum(['isin', 'cusip', 'ticker', 'lei', 'name']).nullable().describe('How the match was made; null when unmatched'),
    confidence: z.number().min(0).max(1).describe('1 for identifiers, 0.98 LEI, 0.9 ticker, 0.75 normalized name, 0 unmatched'),
  })
  .describe('The covered company this holding is a security of, matched at ingestion');

export const securityIdentifiersSchema = z.object({
  isin: z
    .string()
    .regex(/^[A-Z]{2}[A-Z0-9]{9}\d$/)
    .nullable()
    .describe('ISIN of the security: the one the holding files (check digit verified), else US + its CUSIP + the ISIN check digit when the CUSIP is valid, starts with a digit and invCountry is US; else null'),
  isin_from: z.enum(['filed', 'cusip']).nullable().describe('filed: identifiers/isin of the holding; cusip: computed from its US CUSIP'),
  isin_quote: z.string().nullable().describe('The holding XML as written from <name> through the element the ISIN comes from (<cusip> or identifiers/<isin>)'),
  lei_quote: z.string().nullable().describe('The holding XML as written from <name> through <lei> (the issuer LEI), when it gives one'),
  listing_symbol: z
    .string()
    .nullable()
    .describe("<TICKER>:US of the matched company's listing this security is: the holding's ticker when it is one of the company's, else the company's only ticker; null when unmatched, matched by name only, or the listing cannot be told"),
});

export const fundHoldingSchema = z.object({
  index: z.number().int().min(0).describe('0-based position of the invstOrSec in the filing'),
  name: z.string().nullable().describe('Issuer name as filed'),
  title: z.string().nullable().describe('Title of the issue'),
  lei: z.string().nullable(),
  cusip: z.string().nullable(),
  isin: z.string().nullable(),
  ticker: z.string().nullable(),
  other_ids: z.array(z.object({ value: z.string(), description: z.string().nullable() })),
  balance: z.number().nullable().describe('Number of shares, principal amount, contracts or other units (see units)'),
  units: z.string().nullable().describe('NS shares, PA principal amount, NC contracts, OU other units'),
  cur_cd: z.string().nullable(),
  val_usd: z.number().nullable().describe('Value in USD'),
  pct_val: z.number().nullable().describe('Percent of the fund\'s net assets as filed (7.2998 = 7.2998 %)'),
  payoff_profile: z.string().nullable(),
  asset_cat: z.string().nullable().describe('EC equity-common, EP, DBT, ABS-MBS, DFE, ...; only EC counts as a share of the issuer'),
  asset_conditional: z.object({ asset_cat: z.string().nullable(), description: z.string().nullable() }).nullable().describe('assetConditional: category (usually OTHER) and its description'),
  issuer_cat: z.string().nullable(),
  issuer_conditional: z.object({ issuer_cat: z.string().nullable(), description: z.string().nullable() }).nullable(),
  inv_country: z.string().nullable(),
  fair_val_level: z.string().nullable(),
  is_restricted: z.boolean().nullable(),
  quote: z.string().nullable().describe("Verbatim excerpt of the holding's XML (its <name> element)"),
  match: holdingMatchSchema,
  security: securityIdentifiersSchema
    .optional()
    .describe('Identifiers of the security read or derived from this holding; absent in records written before it existed'),
});

/** fund-holdings@1 data: one chunk of one N-PORT filing's holdings, with the fund header repeated. */
export const fundHoldingsDataSchema = z.object({
  accession,
  source_url: z.string().url().describe('The primary_doc.xml fetched'),
  fund: fundHeaderSchema,
  chunk: z.object({
    index: z.number().int().min(0),
    count: z.number().int().min(1).describe('Chunks of this filing'),
    holdings_total: z.number().int().min(0).describe('Holdings in the whole filing'),
  }),
  holdings: z.array(fundHoldingSchema).max(FUND_HOLDINGS_PER_RECORD),
});

export type FundHeader = z.infer<typeof fundHeaderSchema>;
export type FundHolding = z.infer<typeof fundHoldingSchema>;
export type HoldingMatchData = z.infer<typeof holdingMatchSchema>;
export type SecurityIdentifiers = z.infer<typeof securityIdentifiersSchema>;
export type FundHoldingsData = z.infer<typeof fundHoldingsDataSchema>;

export const fundHoldingsRecordV1 = envelopeSchema('fund-holdings@1', fundHoldingsDataSchema);
export type FundHoldingsRecordV1 = z.infer<typeof fundHoldingsRecordV1>;
