import { z } from 'zod';
import { factValueSchema, scaleFactor, toFactValue, type ValueScale } from './fact.resource';
import { STATEMENT_KINDS, STATEMENT_PERIODS, type BuiltStatement, type StatementCell, type StatementColumn } from './financials';
import { gapSchema } from './gap.resource';
import { companyReferenceSchema } from './shared.resource';

const date = (what: string) => z.iso.date().describe(`${what} (YYYY-MM-DD)`);

export const financialPeriodSchema = z
  .object({
    fiscal_year: z.number().int().describe("The calendar year of the fiscal year's end (Apple's fiscal 2024 ends 2024-09-28)"),
    fiscal_period: z.enum(['FY', 'Q1', 'Q2', 'Q3', 'Q4']).describe('FY for a year, else the quarter of the fiscal year'),
    start_date: date('First day of the year or quarter').nullable().describe('First day of the year or quarter (YYYY-MM-DD); balance sheet values are instants at end_date'),
    end_date: date('Last day of the year or quarter'),
  })
  .describe('One column of a statement');

const derivationInputSchema = z.object({
  item: z.string().nullable().describe('The line item the input is (formulas), else null'),
  concept: z.string().nullable().describe('The concept the input was read from (null for an input itself derived)'),
  sign: z.union([z.literal(1), z.literal(-1)]).describe('+1 added, -1 subtracted'),
  period_start: date('Start of the input\'s period').nullable(),
  period_end: date('End of the input\'s period').nullable(),
  value: z.number().describe('The input as reported (or derived), in the scale of the value it explains (as value.normalized)'),
  accession: z.string().nullable().describe('The filing it was read from (null for an input itself derived)'),
  form: z.string().nullable(),
  filed: date('The day that filing was filed').nullable(),
});

export const derivationSchema = z
  .object({
    method: z
      .enum(['ytd_difference', 'year_minus_three_quarters', 'formula'])
      .describe('ytd_difference: a year-to-date figure minus the one ending the day before the quarter (Q4: the year minus nine months); year_minus_three_quarters; formula: the line item\'s formula'),
    expression: z.string().describe('What was computed, e.g. operating_cash_flow - capital_expenditure'),
    inputs: z.array(derivationInputSchema).describe('Every input with the filing it came from'),
  })
  .describe('How a derived value was computed');

export const financialFlagSchema = z
  .object({
    code: z.literal('derived_disagrees').describe('A reported value that differs from the same value derived from other reported ones'),
    message: z.string(),
    reported: z.number().describe('The reported value, in the scale of value.normalized'),
    derived: z.number().describe('The derived value, in the same scale'),
    difference: z.number().describe('reported - derived, in the same scale'),
    derivation: derivationSchema,
  })
  .describe('A reported value that disagrees with its derivation');

export const financialValueSchema = z
  .object({
    end_date: date('End of the column the value belongs to'),
    value: factValueSchema.nullable().describe('Null when the value cannot be had: gap says why (never guessed)'),
    concept: z.string().nullable().describe('The concept it came from: the first of the line item\'s chain the filer reported for this period'),
    label: z.string().nullable().describe("The filer's label of the row where the inline document gave one, else the concept's label"),
    derived: z.boolean().describe('true: computed from other reported values (derivation says how), not reported'),
    derivation: derivationSchema.nullable(),
    filing: z
      .object({ accession: z.string(), form: z.string(), filed: date('The day it was filed') })
      .nullable()
      .describe('The filing that reported the value (null when derived: each input names its own)'),
    flags: z.array(financialFlagSchema),
    gap: z.string().nullable().describe('Why the value is null'),
  })
  .describe('One line item in one period');

export const financialLineItemSchema = z
  .object({
    key: z.string().describe('Standard line item: revenue, net_income, eps_diluted, total_assets, free_cash_flow, ...'),
    name: z.string(),
    unit_kind: z.enum(['currency', 'per_share', 'shares']),
    concepts: z.array(z.string()).describe('The chain of candidate concepts, in order of preference (empty: always derived)'),
    formula: z.string().nullable().describe('Derived from other line items where no concept is reported, and a reported value is checked against it'),
    values: z.array(financialValueSchema).describe('One per period, in the order of periods'),
  })
  .describe('A standard line item over the periods');

export const financialStatementSchema = z
  .object({
    company: companyReferenceSchema,
    statement: z.enum(STATEMENT_KINDS).describe('income, balance or cash_flow'),
    period: z.enum(STATEMENT_PERIODS).describe('annual: fiscal years; quarter: fiscal quarters'),
    as_of: date('The day the statement stands as of').nullable().describe('The day the statement stands as of (YYYY-MM-DD): only reports filed on or before it; null: the latest reports'),
    periods: z.array(financialPeriodSchema).describe('Newest first'),
    line_items: z.array(financialLineItemSchema),
    gaps: z.array(gapSchema).describe('Why values are null: one per line item (field), or per line item and period'),
  })
  .describe('A standard financial statement built from the XBRL facts the company reported');

export type FinancialStatementBody = z.infer<typeof financialStatementSchema>;
type FinancialValueBody = z.infer<typeof financialValueSchema>;

const toPeriod = (c: StatementColumn): z.infer<typeof financialPeriodSchema> => ({ fiscal_year: c.fiscalYear, fiscal_period: c.fiscalPeriod, start_date: c.start, end_date: c.end });

/** Derivations and flags carry their figures in the scale of the value they explain (`factor`: scaleFactor). */
function toDerivation(d: NonNullable<StatementCell['derivation']>, factor: number): z.infer<typeof derivationSchema> {
  return {
    method: d.method,
    expression: d.expression,
    inputs: d.inputs.map((i) => ({
      item: i.item,
      concept: i.concept,
      sign: i.sign,
      period_start: i.periodStart,
      period_end: i.periodEnd || null,
      value: Number(i.value) * factor,
      accession: i.report?.accession ?? null,
      form: i.report?.form ?? null,
      filed: i.report?.filed ?? null,
    })),
  };
}

function toValue(c: StatementCell, column: StatementColumn, scale: ValueScale): FinancialValueBody {
  const factor = c.unit ? scaleFactor(c.unit, scale) : 1;
  return {
    end_date: column.end,
    value: c.value === null ? null : toFactValue(c.value, c.unit!, c.report?.decimals ?? null, scale),
    concept: c.concept,
    label: c.label,
    derived: c.derived,
    derivation: c.derivation && toDerivation(c.derivation, factor),
    filing: c.report && { accession: c.report.accession, form: c.report.form, filed: c.report.filed },
    flags: c.flags.map((f) => ({ code: f.code, message: f.message, reported: Number(f.reported) * factor, derived: Number(f.derived) * factor, difference: Number(f.difference) * factor, derivation: toDerivation(f.derivation, factor) })),
    gap: c.gap,
  };
}

/** A built statement -> the response (the company added by the caller). */
export function toFinancialStatement(s: BuiltStatement, asOf: string | null, scale: ValueScale): Omit<FinancialStatementBody, 'company'> {
  return {
    statement: s.statement,
    period: s.period,
    as_of: asOf,
    periods: s.columns.map(toPeriod),
    line_items: s.rows.map((row) => ({
      key: row.item.key,
      name: row.item.name,
      unit_kind: row.item.unitKind,
      concepts: [...row.item.concepts],
      formula: row.item.formula ? `${row.item.formula.left} ${row.item.formula.op === 'difference' ? '-' : '+'} ${row.item.formula.right}` : null,
      values: row.cells.map((c, i) => toValue(c, s.columns[i]!, scale)),
    })),
    gaps: s.gaps,
  };
}
