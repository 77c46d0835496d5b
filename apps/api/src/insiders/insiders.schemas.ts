import { z } from 'zod';
import { FORM4_CODE_CLASSIFICATIONS } from '@app/contracts';
import { companyReferenceSchema, paginationSchema, provenanceSchema } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

export const insidersPath = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. TSLA:US (case-insensitive)' },
});

/** Query parameters of GET /v1/companies/{symbol}/insiders. */
export const insidersParams = params({
  owner: {
    kind: 'string',
    minLength: 1,
    maxLength: 200,
    description: "A reporting owner: digits are the owner's CIK (padded or not), anything else a case-insensitive substring of the name as filed ('musk')",
  },
  codes: {
    kind: 'array',
    items: { kind: 'string', pattern: '^[A-Za-z]$' },
    description: 'Transaction codes as filed (P, S, A, M, F, G, C, ...), case-insensitive; repeat the parameter or separate with commas',
  },
  classification: {
    kind: 'array',
    items: { kind: 'enum', values: FORM4_CODE_CLASSIFICATIONS },
    description: 'Code groups (open_market_purchase, open_market_sale, grant, ...); repeat the parameter for several',
  },
  from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest transaction date, inclusive (YYYY-MM-DD); a holding is dated by the period of report' },
  to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest transaction date, inclusive (YYYY-MM-DD)' },
  derivative: { kind: 'bool', description: 'true: Table II (derivative securities) only; false: Table I (non-derivative) only; omitted: both' },
  kind: { kind: 'enum', values: ['transaction', 'holding'], description: 'transaction (a change) or holding (a position reported without change); omitted: both' },
  include_superseded: { kind: 'bool', default: false, description: 'Also rows a later 4/A restated (their superseded_by names it)' },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by transaction date, then accession, table and sequence. Default desc (newest first)' },
});

const amount = (what: string) => z.number().nullable().describe(`${what}; null when absent or not a decimal number (see the _text field)`);
const amountText = (what: string) => z.string().nullable().describe(`${what} as written in the filing; null when absent`);

export const insiderOwnerSchema = z.object({
  cik: z.string().nullable().describe("The reporting owner's CIK (10 digits)"),
  name: z.string().nullable().describe('As filed, SEC style ("Musk Elon")'),
  is_director: z.boolean(),
  is_officer: z.boolean(),
  officer_title: z.string().nullable().describe('As filed ("CEO")'),
  is_ten_percent_owner: z.boolean(),
  is_other: z.boolean(),
  other_text: z.string().nullable(),
});

export const footnoteRefSchema = z.object({
  id: z.string().describe('Footnote id as filed (F1)'),
  text: z.string().nullable().describe('The footnote text, whitespace collapsed; null when the filing has no footnote of that id'),
});

export const insiderTransactionSchema = z.object({
  accession: z.string().describe('SEC accession number of the Form 4 (dashed)'),
  form: z.string().describe('4 or 4/A as filed'),
  is_amendment: z.boolean(),
  filed_date: z.string().nullable().describe('EDGAR filing date (YYYY-MM-DD); null when unknown'),
  period_of_report: z.string().nullable().describe('Date of the earliest transaction reported, as filed'),
  table: z.enum(['non_derivative', 'derivative']).describe('Table I (non-derivative) or Table II (derivative)'),
  kind: z.enum(['transaction', 'holding']),
  sequence: z.number().int().describe('0-based position in its table; with accession and table the row\'s key. Tranches are separate rows'),
  security_title: z.string().nullable(),
  transaction_date: z.string().nullable().describe('As filed (YYYY-MM-DD); null on holdings'),
  deemed_execution_date: z.string().nullable(),
  transaction_form_type: z.string().nullable(),
  code: z.string().nullable().describe('Transaction code as filed; null on holdings'),
  code_label: z.string().nullable().describe("The SEC's wording of the code, shortened"),
  classification: z.enum(FORM4_CODE_CLASSIFICATIONS).nullable().describe('Group of the code; other for codes outside the SEC table; null when no code'),
  is_open_market: z.boolean().describe('True only for codes P and S'),
  equity_swap_involved: z.boolean().nullable(),
  transaction_timeliness: z.string().nullable().describe('E (early) or L (late); null when on time'),
  shares: amount('Shares transacted'),
  shares_text: amountText('Shares transacted'),
  total_value: amount('Total value (some derivative rows give a value instead of shares)'),
  total_value_text: amountText('Total value'),
  price_per_share: amount('Price per share in USD (often a weighted average: see the footnotes)'),
  price_per_share_text: amountText('Price per share'),
  acquired_disposed: z.string().nullable().describe('A (acquired) or D (disposed)'),
  shares_owned_following: amount('Shares owned after the transaction (on holdings: held)'),
  shares_owned_following_text: amountText('Shares owned following'),
  value_owned_following: amount('Value owned following'),
  value_owned_following_text: amountText('Value owned following'),
  direct_indirect: z.string().nullable().describe('D (direct) or I (indirect)'),
  nature_of_ownership: z.string().nullable().describe('Nature of an indirect holding ("By Living Trust")'),
  conversion_or_exercise_price: amount('Conversion or exercise price (derivative rows)'),
  conversion_or_exercise_price_text: amountText('Conversion or exercise price'),
  exercise_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_shares: amount('Underlying shares'),
  underlying_shares_text: amountText('Underlying shares'),
  underlying_value: amount('Underlying value'),
  underlying_value_text: amountText('Underlying value'),
  footnotes: z.record(z.string(), z.array(footnoteRefSchema)).describe('Footnotes the row cites, keyed by the field (XML element) citing them: {transactionPricePerShare: [{id: "F2", text: "..."}]}'),
  is_10b5_1: z.boolean().describe('Made under a Rule 10b5-1 plan; always false on holdings'),
  is_10b5_1_reason: z.enum(['flag', 'footnote']).nullable().describe('flag: the filing\'s Rule 10b5-1 box is checked; footnote: a footnote the row cites says so; null when false'),
  is_10b5_1_footnote_ids: z.array(z.string()).describe('Footnotes the row cites that mention a Rule 10b5-1 plan'),
  owners: z.array(insiderOwnerSchema).describe('Every reporting owner of the filing (a joint filing lists all of them)'),
  superseded_by: z.string().nullable().describe('Accession of the 4/A that restates this row; null while it stands'),
  provenance: provenanceSchema.describe('The filing: quote is the row\'s XML element verbatim'),
});

export const insiderListSchema = z.object({
  data: z.array(insiderTransactionSchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
});

export type InsiderTransactionBody = z.infer<typeof insiderTransactionSchema>;
export type InsiderListBody = z.infer<typeof insiderListSchema>;
