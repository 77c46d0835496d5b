import { z } from 'zod';
import { FORM4_CODE_CLASSIFICATIONS, type Form4ReportingOwnerData } from '@app/contracts';
import type { Form4FilingRecord, InsiderTransactionRecord } from '@app/persistence';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema } from './shared.resource';

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
  filed_date: dateField().nullable().describe('EDGAR filing date (YYYY-MM-DD); null when unknown'),
  period_of_report: dateField().nullable().describe('Date of the earliest transaction reported, as filed'),
  table: z.enum(['non_derivative', 'derivative']).describe('Table I (non-derivative) or Table II (derivative)'),
  kind: z.enum(['transaction', 'holding']),
  sequence: z.number().int().describe('0-based position in its table; with accession and table the row\'s key. Tranches are separate rows'),
  security_title: z.string().nullable(),
  transaction_date: dateField().nullable().describe('As filed (YYYY-MM-DD); null on holdings'),
  deemed_execution_date: dateField().nullable(),
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
  exercise_date: dateField().nullable(),
  expiration_date: dateField().nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_shares: amount('Underlying shares'),
  underlying_shares_text: amountText('Underlying shares'),
  underlying_value: amount('Underlying value'),
  underlying_value_text: amountText('Underlying value'),
  footnotes: z
    .record(z.string(), z.array(footnoteRefSchema))
    .describe('Footnotes the row cites, keyed by the row\'s field citing them: {price_per_share: [{id: "F2", text: "..."}]}'),
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

export type InsiderOwnerBody = z.infer<typeof insiderOwnerSchema>;
export type FootnoteRefBody = z.infer<typeof footnoteRefSchema>;
export type InsiderTransactionBody = z.infer<typeof insiderTransactionSchema>;
export type InsiderListBody = z.infer<typeof insiderListSchema>;

/**
 * A Form 4 filing as `form4.filed` carries it: the filing, its issuer and owners, and every row
 * of Tables I and II exactly as the insider list serves them (Table I first, each in filed order).
 */
export const form4FilingSchema = z.object({
  accession: z.string().describe('SEC accession number of the Form 4 (dashed)'),
  form: z.string().describe('4 or 4/A as filed'),
  is_amendment: z.boolean(),
  filed_date: dateField().nullable().describe('EDGAR filing date (YYYY-MM-DD); null when unknown'),
  period_of_report: dateField().nullable().describe('Date of the earliest transaction reported, as filed'),
  issuer: z
    .object({
      cik: z.string(),
      symbol: z.string().nullable().describe('`<TICKER>:<MARKET>` of the issuer\'s listing under trading_symbol, else its primary listing; null when none is known'),
      name: z.string().nullable(),
      trading_symbol: z.string().nullable(),
    })
    .describe('The issuer as the filing names it'),
  owners: z.array(insiderOwnerSchema),
  transactions: z.array(insiderTransactionSchema).describe('Every row of Tables I and II, Table I first, each in filed order'),
  provenance: provenanceSchema.describe('The filing\'s XML'),
});

export type Form4FilingResource = z.infer<typeof form4FilingSchema>;

/** The Form 4 XML elements that cite footnotes -> the field of the row that holds their value. */
const FOOTNOTE_FIELD_OF_ELEMENT: Readonly<Record<string, keyof InsiderTransactionBody>> = {
  securityTitle: 'security_title',
  transactionDate: 'transaction_date',
  deemedExecutionDate: 'deemed_execution_date',
  transactionCoding: 'code',
  transactionFormType: 'transaction_form_type',
  transactionCode: 'code',
  equitySwapInvolved: 'equity_swap_involved',
  transactionTimeliness: 'transaction_timeliness',
  transactionShares: 'shares',
  transactionTotalValue: 'total_value',
  transactionPricePerShare: 'price_per_share',
  transactionAcquiredDisposedCode: 'acquired_disposed',
  sharesOwnedFollowingTransaction: 'shares_owned_following',
  valueOwnedFollowingTransaction: 'value_owned_following',
  directOrIndirectOwnership: 'direct_indirect',
  natureOfOwnership: 'nature_of_ownership',
  conversionOrExercisePrice: 'conversion_or_exercise_price',
  exerciseDate: 'exercise_date',
  expirationDate: 'expiration_date',
  underlyingSecurityTitle: 'underlying_security_title',
  underlyingSecurityShares: 'underlying_shares',
  underlyingSecurityValue: 'underlying_value',
};

const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * A row's footnotes keyed by the row's own field names, as the rest of the API is, instead of the
 * XML element names the read model keeps (transactionShares -> shares). Two elements of one field
 * (transactionCoding and transactionCode) share its key, each footnote once.
 */
export function footnotesByField(byElement: Record<string, FootnoteRefBody[]>): Record<string, FootnoteRefBody[]> {
  // A Map: element names come from the filing's XML, and `__proto__` must stay a plain key.
  const out = new Map<string, FootnoteRefBody[]>();
  for (const [element, refs] of Object.entries(byElement)) {
    const field = (Object.hasOwn(FOOTNOTE_FIELD_OF_ELEMENT, element) ? FOOTNOTE_FIELD_OF_ELEMENT[element] : undefined) ?? snakeCase(element);
    const list = out.get(field) ?? [];
    out.set(field, list);
    for (const ref of refs) if (!list.some((r) => r.id === ref.id)) list.push(ref);
  }
  return Object.fromEntries(out);
}

function toOwner(o: Form4ReportingOwnerData): InsiderOwnerBody {
  return {
    cik: o.cik,
    name: o.name,
    is_director: o.is_director,
    is_officer: o.is_officer,
    officer_title: o.officer_title,
    is_ten_percent_owner: o.is_ten_percent_owner,
    is_other: o.is_other,
    other_text: o.other_text,
  };
}

/** Read model -> the API's insider transaction item. */
export function toInsiderTransaction(r: InsiderTransactionRecord): InsiderTransactionBody {
  return {
    accession: r.accession,
    form: r.form,
    is_amendment: r.isAmendment,
    filed_date: r.filedDate,
    period_of_report: r.periodOfReport,
    table: r.rowTable,
    kind: r.kind,
    sequence: r.sequence,
    security_title: r.securityTitle,
    transaction_date: r.transactionDate,
    deemed_execution_date: r.deemedExecutionDate,
    transaction_form_type: r.transactionFormType,
    code: r.code,
    code_label: r.codeLabel,
    classification: r.classification as InsiderTransactionBody['classification'],
    is_open_market: r.isOpenMarket,
    equity_swap_involved: r.equitySwapInvolved,
    transaction_timeliness: r.transactionTimeliness,
    shares: r.shares,
    shares_text: r.sharesText,
    total_value: r.totalValue,
    total_value_text: r.totalValueText,
    price_per_share: r.pricePerShare,
    price_per_share_text: r.pricePerShareText,
    acquired_disposed: r.acquiredDisposed,
    shares_owned_following: r.sharesOwnedFollowing,
    shares_owned_following_text: r.sharesOwnedFollowingText,
    value_owned_following: r.valueOwnedFollowing,
    value_owned_following_text: r.valueOwnedFollowingText,
    direct_indirect: r.directIndirect,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: r.conversionOrExercisePrice,
    conversion_or_exercise_price_text: r.conversionOrExercisePriceText,
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_shares: r.underlyingShares,
    underlying_shares_text: r.underlyingSharesText,
    underlying_value: r.underlyingValue,
    underlying_value_text: r.underlyingValueText,
    footnotes: footnotesByField(r.footnotes),
    is_10b5_1: r.is10b51,
    is_10b5_1_reason: r.is10b51Reason,
    is_10b5_1_footnote_ids: r.is10b51FootnoteIds,
    // The address stays in the read model: the list names owners and their relationship, not where they live.
    owners: r.reportingOwners.map(toOwner),
    superseded_by: r.supersededBy,
    provenance: {
      src_id: r.srcId,
      source_provider: 'sec',
      source_url: r.sourceUrl,
      accession: r.accession,
      quote: r.quote,
      content_hash: r.contentHash,
      extracted_at: r.extractedAt ? r.extractedAt.toISOString() : null,
    },
  };
}

/** Read model (the filing and its rows) -> the `form4.filed` payload. */
export function toForm4Filing(f: Form4FilingRecord, rows: readonly InsiderTransactionRecord[]): Form4FilingResource {
  const order = (r: InsiderTransactionRecord): number => (r.rowTable === 'non_derivative' ? 0 : 1);
  const sorted = [...rows].sort((a, b) => order(a) - order(b) || a.sequence - b.sequence);
  return {
    accession: f.accession,
    form: f.form,
    is_amendment: f.isAmendment,
    filed_date: f.filedDate,
    period_of_report: f.periodOfReport,
    issuer: { cik: f.cik, symbol: f.symbol, name: f.issuerName, trading_symbol: f.tradingSymbol },
    owners: f.reportingOwners.map(toOwner),
    transactions: sorted.map(toInsiderTransaction),
    provenance: {
      src_id: f.srcId,
      source_provider: 'sec',
      source_url: f.sourceUrl,
      accession: f.accession,
      quote: null,
      content_hash: f.contentHash,
      extracted_at: f.extractedAt ? f.extractedAt.toISOString() : null,
    },
  };
}
