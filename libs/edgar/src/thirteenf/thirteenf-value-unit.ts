import type { ThirteenFHolding, ThirteenFPrimaryDoc, ValueUnitDecision } from './thirteenf.types';

/** Filings filed from this day on report value in dollars (SEC's 2022 Form 13F amendments, effective on EDGAR 2023-01-03). */
export const THIRTEENF_DOLLARS_FROM = '2023-01-03';

/** Fewer priceable rows than this decide nothing from prices alone (a one-row BRK.A filing is priced "implausibly" in either unit). */
const MIN_PRICED_ROWS = 5;
/** Share of priceable rows that must be implausible under the date rule for the other unit to be clear ("almost all"). */
const CLEAR_SHARE = 0.9;
/** Share of implausible rows from which the filing is flagged as contradicting its date. */
const CONTRADICT_SHARE = 0.5;
/**
 * Implausible prices under each unit. Dollars: below $1 a share (13(f) securities are exchange
 * listed; a thousands filing read as dollars puts nearly every row there). Thousands: above
 * $10,000 a share, not $1,000, since pre-split mega-caps (AMZN, GOOGL, BKNG) traded above $1,000
 * in the thousands era (ACTIAM); only a handful of stocks (BRK.A, NVR) ever exceeded $10,000.
 */
const MIN_PLAUSIBLE_PRICE = 1;
const MAX_PLAUSIBLE_PRICE = 10_000;
/** Summary total and table sum "agree" within this ratio (rounding, omitted confidential rows). */
const RATIO_TOLERANCE = 1.25;

type Unit = ValueUnitDecision['unit'];
const other = (unit: Unit): Unit => (unit === 'thousands' ? 'dollars' : 'thousands');
const near = (ratio: number, target: number) => ratio >= target / RATIO_TOLERANCE && ratio <= target * RATIO_TOLERANCE;

function decision(unit: Unit, basis: ValueUnitDecision['basis'], flag: string | null = null): ValueUnitDecision {
  return { unit, basis, flag, factor: unit === 'thousands' ? 1000 : 1 };
}

/**
 * Whether the summary page says the table is in the other unit. The summary total is typed on
 * EDGAR's form, whose label follows the rule of the day, so it is read in the date rule's unit: a
 * table summing to 1000x it (thousands-dated) or 1/1000 of it (dollars-dated) is in the other unit.
 * Equal totals say nothing about the unit (late switchers write both the same way).
 */
function summarySaysOtherUnit(dateUnit: Unit, primary: ThirteenFPrimaryDoc, holdings: readonly ThirteenFHolding[]): boolean {
  const total = primary.tableValueTotal;
  if (total === null || total <= 0 || holdings.length === 0) return false;
  const ratio = holdings.reduce((sum, h) => sum + h.valueFiled, 0) / total;
  return near(ratio, dateUnit === 'thousands' ? 1000 : 1 / 1000);
}

/** Share of priceable rows (shares, not options, both numbers positive) whose price is implausible under the date rule. */
function implausiblePriceShare(dateUnit: Unit, holdings: readonly ThirteenFHolding[]): { rows: number; share: number } {
  let rows = 0;
  let implausible = 0;
  for (const h of holdings) {
    if (h.shareType !== 'SH' || h.putCall !== null || h.shares <= 0 || h.valueFiled <= 0) continue;
    rows += 1;
    const price = (h.valueFiled * (dateUnit === 'thousands' ? 1000 : 1)) / h.shares;
    if (dateUnit === 'thousands' ? price > MAX_PLAUSIBLE_PRICE : price < MIN_PLAUSIBLE_PRICE) implausible += 1;
  }
  return { rows, share: rows === 0 ? 0 : implausible / rows };
}

/**
 * The unit of a filing's values. The rule is the filing date: thousands before 2023-01-03,
 * dollars from then on. The filing's own numbers can overturn it: (a) the summary total read in
 * the rule's unit is 1000x off the table's sum the way the other unit would make it, and prices do
 * not contradict that; (b) almost all implied share prices are implausible under the rule (see the
 * thresholds above). Evidence that contradicts the rule without being clear sets `flag` and keeps
 * the rule: values are never rescaled on a guess.
 */
export function decideValueUnit(filedDate: string, primary: ThirteenFPrimaryDoc, holdings: readonly ThirteenFHolding[]): ValueUnitDecision {
  const dateUnit: Unit = filedDate < THIRTEENF_DOLLARS_FROM ? 'thousands' : 'dollars';
  const prices = implausiblePriceShare(dateUnit, holdings);
  const pricesContradict = prices.rows > 0 && prices.share >= CONTRADICT_SHARE;
  const pricesClear = prices.rows >= MIN_PRICED_ROWS && prices.share >= CLEAR_SHARE;
  if (summarySaysOtherUnit(dateUnit, primary, holdings)) {
    // Prices that look right under the rule outweigh the summary: then nothing is clear.
    if (prices.rows === 0 || pricesContradict) return decision(other(dateUnit), 'summary_total');
    return decision(dateUnit, 'filing_date', 'summary_total_contradicts_date');
  }
  if (pricesClear) return decision(other(dateUnit), 'implied_prices');
  if (pricesContradict) return decision(dateUnit, 'filing_date', 'implied_prices_contradict_date');
  return decision(dateUnit, 'filing_date');
}
