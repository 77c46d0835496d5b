import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK');
const accession = z.string().regex(/^\d{10}-\d{2}-\d{6}$/);
// Ownership XML dates are xs:date: YYYY-MM-DD in practice, but a time-zone suffix is valid XML and
// kept as written rather than failing the whole filing.
const xmlDate = z.string().min(1);

/**
 * Bounds that keep one form4@1 record under Kafka's 1 MB message limit. A Form 4 rarely has more
 * than a few dozen rows (TSLA's 2021 filing, 31 rows, maps to a 105 KB record); a row's JSON with
 * its verbatim XML quote is 2.8-3.8 KB in the fixtures, so 200 rows stay under the byte bound. The
 * producer refuses a filing above either bound with an error naming them, instead of splitting it.
 */
export const FORM4_MAX_ROWS = 200;
export const FORM4_MAX_RECORD_BYTES = 900_000;

export const FORM4_CODE_CLASSIFICATIONS = [
  'open_market_purchase',
  'open_market_sale',
  'grant',
  'exercise',
  'tax_withholding',
  'gift',
  'disposition_to_issuer',
  'conversion',
  'expiration',
  'inheritance',
  'equity_swap',
  'other',
] as const;

/** A numeric column: the value, and the text exactly as the filer wrote it. */
const amount = (what: string) => z.number().nullable().describe(`${what}; null when absent or not a decimal number (see the _text field)`);
const amountText = (what: string) => z.string().nullable().describe(`${what} as written in the XML (decoded, trimmed); null when absent`);

export const form4ReportingOwnerSchema = z.object({
  cik: cik.nullable().describe('rptOwnerCik, zero-padded'),
  name: z.string().nullable().describe('rptOwnerName as filed ("Hoffman Reid")'),
  address: z.object({
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip_code: z.string().nullable(),
    state_description: z.string().nullable(),
  }),
  is_director: z.boolean().describe('Relationship box; an unchecked or omitted box is false'),
  is_officer: z.boolean(),
  officer_title: z.string().nullable().describe('officerTitle as filed ("Chief Financial Officer")'),
  is_ten_percent_owner: z.boolean(),
  is_other: z.boolean(),
  other_text: z.string().nullable(),
});

export const form4RowSchema = z.object({
  table: z.enum(['non_derivative', 'derivative']).describe('Table I (non-derivative) or Table II (derivative)'),
  kind: z.enum(['transaction', 'holding']).describe('A change (transaction) or a holding reported without change'),
  sequence: z.number().int().min(0).describe('0-based position of the row in its table, transactions and holdings together; with accession and table, the natural key of the row'),
  security_title: z.string().nullable(),
  transaction_date: xmlDate.nullable().describe('YYYY-MM-DD as filed; null on holdings'),
  deemed_execution_date: xmlDate.nullable(),
  transaction_form_type: z.string().nullable().describe('transactionCoding/transactionFormType: the form the code is reported on (4, 5)'),
  code: z.string().nullable().describe('Transaction code as filed (P, S, A, M, F, G, ...); null on holdings'),
  code_label: z.string().nullable().describe("The SEC's wording of the code, shortened"),
  classification: z.enum(FORM4_CODE_CLASSIFICATIONS).nullable().describe('Group of the code for consumers; a code outside the SEC table is other; null when no code'),
  is_open_market: z.boolean().describe('True only for codes P and S (open-market or private purchase/sale)'),
  equity_swap_involved: z.boolean().nullable(),
  transaction_timeliness: z.string().nullable().describe('E (early) or L (late); null when on time'),
  shares: amount('transactionShares'),
  shares_text: amountText('transactionShares'),
  total_value: amount('transactionTotalValue (some derivative rows report a value instead of shares)'),
  total_value_text: amountText('transactionTotalValue'),
  price_per_share: amount('transactionPricePerShare in USD (often a weighted average: see the footnotes)'),
  price_per_share_text: amountText('transactionPricePerShare'),
  acquired_disposed: z.string().nullable().describe('A (acquired) or D (disposed), as filed'),
  shares_owned_following: amount('sharesOwnedFollowingTransaction (on holdings: shares held)'),
  shares_owned_following_text: amountText('sharesOwnedFollowingTransaction'),
  value_owned_following: amount('valueOwnedFollowingTransaction'),
  value_owned_following_text: amountText('valueOwnedFollowingTransaction'),
  direct_indirect: z.string().nullable().describe('D (direct) or I (indirect), as filed'),
  nature_of_ownership: z.string().nullable().describe('natureOfOwnership of an indirect holding ("By Living Trust")'),
  conversion_or_exercise_price: amount('conversionOrExercisePrice (derivative rows only)'),
  conversion_or_exercise_price_text: amountText('conversionOrExercisePrice'),
  exercise_date: xmlDate.nullable().describe('Date exercisable as filed (derivative rows; often only a footnote)'),
  expiration_date: xmlDate.nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_shares: amount('underlyingSecurityShares'),
  underlying_shares_text: amountText('underlyingSecurityShares'),
  underlying_value: amount('underlyingSecurityValue'),
  underlying_value_text: amountText('underlyingSecurityValue'),
  footnotes: z
    .record(z.string(), z.array(z.string()))
    .describe('Footnote ids cited by the row, keyed by the XML element that holds the footnoteId (transactionPricePerShare: ["F2"]); an element citing nothing has no key'),
  is_10b5_1: z.boolean().describe('Made under a Rule 10b5-1 plan: the aff10b5One box is checked, else a footnote cited by the row says so. Always false on holdings'),
  is_10b5_1_reason: z.enum(['flag', 'footnote']).nullable().describe('Why is_10b5_1 is true; null when false'),
  is_10b5_1_footnote_ids: z.array(z.string()).describe('Footnotes cited by the row that mention a Rule 10b5-1 plan'),
  quote: z.string().min(1).describe("The row's XML element verbatim, as it stands in the fetched file"),
});

/** edgar.form4.v1 data: one Form 4 / 4/A filing, everything its ownership XML states. Key: the accession. */
export const form4DataSchema = z.object({
  accession: accession.describe('SEC accession number, dashed; the natural key'),
  form: z.string().min(1).describe('documentType as filed: 4 or 4/A (3, 5 and their amendments share the schema)'),
  is_amendment: z.boolean().describe('The form ends in /A'),
  date_of_original_submission: xmlDate.nullable().describe('4/A only: the filing date of the filing it amends'),
  period_of_report: xmlDate.nullable().describe('Date of the earliest transaction reported (YYYY-MM-DD as filed)'),
  filed_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().describe('EDGAR filing date, from the complete-submission header or the listing the filing was found in; null when unknown'),
  accepted_at: z.string().datetime({ offset: true }).nullable().describe('EDGAR acceptance time (ISO 8601, UTC) when known'),
  source_url: z.string().url().describe('The ownership XML (or complete submission .txt) fetched'),
  schema_version: z.string().nullable().describe('Ownership XML schema version (X0306, X0508, ...)'),
  no_securities_owned: z.boolean().nullable(),
  not_subject_to_section16: z.boolean().nullable().describe('The "no longer subject to Section 16" box'),
  issuer: z.object({
    cik: cik.describe('issuerCik, zero-padded: the company whose securities every row is in'),
    name: z.string().nullable(),
    trading_symbol: z.string().nullable().describe('issuerTradingSymbol as filed'),
  }),
  reporting_owners: z.array(form4ReportingOwnerSchema).min(1),
  aff10b5one: z.boolean().nullable().describe('The Rule 10b5-1 checkbox (schema X0508+) as filed; null when absent (older filings)'),
  rows: z.array(form4RowSchema).max(FORM4_MAX_ROWS).describe('Every row of Tables I and II in document order: transactions and holdings; tranches stay separate rows'),
  footnotes: z.array(z.object({ id: z.string(), text: z.string() })).describe('Footnotes in document order, whitespace runs collapsed'),
  rule_10b5_1_footnote_ids: z.array(z.string()).describe('Footnotes (any in the filing) that say a transaction was made under a Rule 10b5-1 plan'),
  remarks: z.string().nullable(),
  signatures: z.array(z.object({ name: z.string().nullable(), date: xmlDate.nullable() })),
});

export type Form4ReportingOwnerData = z.infer<typeof form4ReportingOwnerSchema>;
export type Form4RowData = z.infer<typeof form4RowSchema>;
export type Form4Data = z.infer<typeof form4DataSchema>;

export const form4RecordV1 = envelopeSchema('form4@1', form4DataSchema);
export type Form4RecordV1 = z.infer<typeof form4RecordV1>;
