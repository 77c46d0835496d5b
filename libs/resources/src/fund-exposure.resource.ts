import { z } from 'zod';
import type { FundExposureAsOfCoverage, FundExposureRow } from '@app/persistence';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema } from './shared.resource';

export const valueObjectSchema = z.object({
  raw: z.number().describe('As reported (valUSD)'),
  normalized: z.number(),
  unit: z.string().describe('Currency code'),
  original_unit: z.string(),
  conversion_factor: z.number(),
});

export const fundExposureEntrySchema = z.object({
  fund_ticker: z.string().nullable().describe('Ticker of the fund (a class ticker, or the listed registrant\'s); null when N-PORT gives none'),
  fund_name: z.string().describe('Series name, else registrant name'),
  weight: z.number().describe('Fraction of the fund\'s net assets (pctVal / 100)'),
  weight_pct: z.number().describe('Percent of the fund\'s net assets, as filed (pctVal)'),
  shares: z.number().int().nullable().describe('Number of shares (balance when units are NS); null for other units'),
  market_value: valueObjectSchema,
  as_of_date: dateField().describe('Report period date of the N-PORT filing (repPdDate), YYYY-MM-DD'),
  provenance: provenanceSchema,
});

export const fundExposureSchema = z.object({
  data: z.array(fundExposureEntrySchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
  alpha: z.boolean().describe('Always true: this endpoint is alpha-stage'),
  fund_count: z.number().int().describe('Distinct funds holding the company\'s common equity (under the same filters)'),
  as_of: dateField().optional().describe('With ?as_of=: the day; only reports filed on or before it are listed (see gaps)'),
  gaps: z.array(gapSchema).describe('What this data cannot show, and why'),
});

export type FundExposureEntryBody = z.infer<typeof fundExposureEntrySchema>;
export type FundExposureBody = z.infer<typeof fundExposureSchema>;

/**
 * A decimal text divided by 100 exactly ("7.2998" -> 0.072998): the exponent moves the decimal
 * point in the text, so the one parse rounds once, with no binary division after it.
 */
export function percentToFraction(text: string): number {
  const s = text.trim();
  const exact = Number(`${s}e-2`);
  return Number.isNaN(exact) ? Number(s) / 100 : exact;
}

/** Read model -> the spec's fund exposure entry. */
export function toFundExposureEntry(row: FundExposureRow): FundExposureEntryBody {
  const value = row.valUsd === null ? 0 : Number(row.valUsd);
  const balance = row.units === 'NS' && row.balance !== null ? Number(row.balance) : NaN;
  const shares = Number.isInteger(balance) ? balance : null;
  return {
    fund_ticker: row.fundTicker,
    fund_name: row.fundName ?? row.fundKey,
    weight: percentToFraction(row.pctVal),
    weight_pct: Number(row.pctVal),
    shares,
    market_value: { raw: value, normalized: value, unit: 'USD', original_unit: 'USD', conversion_factor: 1 },
    as_of_date: row.reportDate,
    provenance: row.provenance,
  };
}

export const FUND_EXPOSURE_GAPS: readonly GapBody[] = [
  gap('source_scope', 'unit investment trusts do not file N-PORT (e.g. SPDR S&P 500 ETF Trust, Invesco QQQ Trust): their holdings are missing'),
  gap('source_scope', 'only N-PORT filings ingested so far are included; each fund shows its latest complete report (as_of_date)'),
  gap('source_scope', 'only common equity (N-PORT assetCat EC) counts: bonds, preferred shares and derivatives of the issuer are left out'),
  gap('inferred_value', 'is_etf: N-PORT carries no ETF flag; a fund counts as an ETF only when its series or registrant name says ETF', 'is_etf'),
  gap('not_in_source', 'fund_ticker: null when the filing gives no class ticker and the fund is not itself a listed registrant', 'fund_ticker'),
  gap('matching_rule', 'holdings are matched to the company at ingestion by ISIN/CUSIP, LEI, ticker or normalized issuer name; unmatched holdings are not shown'),
];

/**
 * What an as_of answer cannot show (pure): only each fund's latest report is kept, so a fund whose
 * report of the day was replaced is left out, as is one whose report has no stored filing date.
 */
export function fundExposureAsOfGaps(asOf: string, coverage: FundExposureAsOfCoverage): GapBody[] {
  const funds = (n: number) => `${n} fund${n === 1 ? '' : 's'}`;
  const gaps = [
    gap(
      'as_of_rule',
      `as_of ${asOf}: each fund's latest N-PORT report filed on or before the day, but only each fund's latest report is kept (earlier ones are deleted ` +
        'when a newer one is complete): a fund whose latest report came after the day is left out, not shown with the report it had then',
    ),
  ];
  if (coverage.replaced > 0) gaps.push(gap('as_of_report_not_kept', `as_of ${asOf}: ${funds(coverage.replaced)} left out: their latest report came after the day and the one before it is not kept`));
  if (coverage.undated > 0) {
    gaps.push(gap('as_of_report_undated', `as_of ${asOf}: ${funds(coverage.undated)} left out: N-PORT records carry no filing date, and the filings read model does not hold their report's accession`));
  }
  return gaps;
}
