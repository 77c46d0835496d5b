import type { Form4CodeClassification, Form4TransactionCodeInfo } from './form4.types';

function code(code: string, label: string, classification: Form4CodeClassification): Form4TransactionCodeInfo {
  return { code, label, classification, is_open_market: classification === 'open_market_purchase' || classification === 'open_market_sale' };
}

/**
 * The SEC's Form 4 transaction codes (General Instruction 8 of Form 4), one entry per code.
 * Only P and S are open-market trades; every other code is a plan, issuer or estate event.
 */
export const FORM4_TRANSACTION_CODES: Readonly<Record<string, Form4TransactionCodeInfo>> = Object.freeze({
  P: code('P', 'Open market or private purchase of non-derivative or derivative security', 'open_market_purchase'),
  S: code('S', 'Open market or private sale of non-derivative or derivative security', 'open_market_sale'),
  V: code('V', 'Transaction voluntarily reported earlier than required', 'other'),
  A: code('A', 'Grant, award or other acquisition pursuant to Rule 16b-3(d)', 'grant'),
  D: code('D', 'Disposition to the issuer of issuer equity securities pursuant to Rule 16b-3(e)', 'disposition_to_issuer'),
  F: code('F', 'Payment of exercise price or tax liability by delivering or withholding securities incident to the receipt, exercise or vesting of a security issued in accordance with Rule 16b-3', 'tax_withholding'),
  I: code('I', 'Discretionary transaction in accordance with Rule 16b-3(f) resulting in acquisition or disposition of issuer securities', 'other'),
  M: code('M', 'Exercise or conversion of derivative security exempted pursuant to Rule 16b-3', 'exercise'),
  C: code('C', 'Conversion of derivative security', 'conversion'),
  E: code('E', 'Expiration of short derivative position', 'expiration'),
  H: code('H', 'Expiration (or cancellation) of long derivative position with value received', 'expiration'),
  O: code('O', 'Exercise of out-of-the-money derivative security', 'exercise'),
  X: code('X', 'Exercise of in-the-money or at-the-money derivative security', 'exercise'),
  G: code('G', 'Bona fide gift', 'gift'),
  L: code('L', 'Small acquisition under Rule 16a-6', 'other'),
  W: code('W', 'Acquisition or disposition by will or the laws of descent and distribution', 'inheritance'),
  Z: code('Z', 'Deposit into or withdrawal from voting trust', 'other'),
  J: code('J', 'Other acquisition or disposition (describe transaction)', 'other'),
  K: code('K', 'Transaction in equity swap or instrument with similar characteristics', 'equity_swap'),
  U: code('U', 'Disposition pursuant to a tender of shares in a change of control transaction', 'other'),
});

/** The table entry of a transaction code (case and spaces ignored); a code not in the table is `other`. */
export function classifyTransactionCode(raw: string | null): Form4TransactionCodeInfo | null {
  if (raw === null) return null;
  const letter = raw.trim().toUpperCase();
  if (letter === '') return null;
  return FORM4_TRANSACTION_CODES[letter] ?? code(letter, 'Not in the SEC Form 4 transaction code table', 'other');
}
