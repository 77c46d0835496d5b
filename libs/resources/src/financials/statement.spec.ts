import { companyFactReports, type CompanyFactReports } from '@app/testing';
import { buildStatement, latestReports, reportHistory, type BuiltStatement, type StatementCell } from '.';

// The real company-facts files of ../shared/fixtures/xbrl. Every figure below is the one the named
// filing prints in its consolidated statements (USD; SNOW in thousands, shown here in units).
const files = {
  AAPL: 'AAPL-companyfacts-CIK0000320193.json',
  GOOGL: 'GOOGL-companyfacts-CIK0001652044.json',
  SNOW: 'SNOW-companyfacts-CIK0001640147.json',
  LPA: 'LPA-companyfacts-CIK0001997711.json',
} as const;
const loaded = new Map<string, CompanyFactReports>();
const company = (k: keyof typeof files): CompanyFactReports => loaded.get(k) ?? loaded.set(k, companyFactReports(files[k])).get(k)!;

function cell(s: BuiltStatement, item: string, end: string): StatementCell {
  const row = s.rows.find((r) => r.item.key === item)!;
  const i = s.columns.findIndex((c) => c.end === end);
  expect(i).toBeGreaterThanOrEqual(0);
  return row.cells[i]!;
}

/** The statements as they stood on a day (the day a filing was filed: that filing is the latest report). */
function statementsAsOf(k: keyof typeof files, asOf: string | undefined, period: 'annual' | 'quarter' = 'annual') {
  const { reports, labels } = company(k);
  const latest = latestReports(reports, asOf);
  return {
    income: buildStatement(latest, 'income', period, { conceptLabels: labels }),
    balance: buildStatement(latest, 'balance', period, { conceptLabels: labels }),
    cashFlow: buildStatement(latest, 'cash_flow', period, { conceptLabels: labels }),
  };
}

describe.each([
  // [company, 10-K (20-F for LPA) accession, filed, fiscal year end, revenue, net income, diluted EPS, total assets, revenue concept]
  ['AAPL', '0000320193-24-000123', '2024-11-01', '2024-09-28', '391035000000', '93736000000', '6.08', '364980000000', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
  ['GOOGL', '0001652044-25-000014', '2025-02-05', '2024-12-31', '350018000000', '100118000000', '8.04', '450256000000', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
  // Snowflake fiscal 2025: net loss (1,289,212) thousand including noncontrolling interest; (1,285,640) attributable to Snowflake.
  ['SNOW', '0001640147-25-000052', '2025-03-21', '2025-01-31', '3626396000', '-1289212000', '-3.86', '9033938000', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
  // Logistic Properties of the Americas, IFRS (ifrs-full), 20-F for 2024.
  ['LPA', '0001997711-25-000030', '2025-04-02', '2024-12-31', '43862372', '-19426051', '-0.94', '607019578', 'ifrs-full:Revenue'],
] as const)('%s: the fiscal year of its annual report %s', (k, accession, filed, end, revenue, netIncome, eps, assets, revenueConcept) => {
  it('revenue, net income, diluted EPS and total assets as the annual report prints them, read from it', () => {
    const { income, balance } = statementsAsOf(k, filed);
    const got = {
      revenue: cell(income, 'revenue', end),
      net_income: cell(income, 'net_income', end),
      eps_diluted: cell(income, 'eps_diluted', end),
      total_assets: cell(balance, 'total_assets', end),
    };
    expect(Object.fromEntries(Object.entries(got).map(([key, c]) => [key, c.value]))).toEqual({ revenue, net_income: netIncome, eps_diluted: eps, total_assets: assets });
    for (const c of Object.values(got)) expect(c).toMatchObject({ derived: false, report: { accession, filed, form: expect.stringMatching(/^(10-K|20-F)$/) } });
    expect(got.revenue.concept).toBe(revenueConcept);
    expect(got.revenue.label).toBe(company(k).labels.get(revenueConcept) ?? null);
  });

  it('the same values today (later reports reaffirm them)', () => {
    const { income, balance } = statementsAsOf(k, undefined);
    expect([cell(income, 'revenue', end).value, cell(income, 'net_income', end).value, cell(income, 'eps_diluted', end).value, cell(balance, 'total_assets', end).value]).toEqual([revenue, netIncome, eps, assets]);
  });
});

describe('the concept chain', () => {
  it('takes the first concept the filer reported for that period: Alphabet tagged 2024 revenue RevenueFromContract... in its 2024 10-K, us-gaap:Revenues in its 2025 10-K', () => {
    expect(cell(statementsAsOf('GOOGL', '2025-12-31').income, 'revenue', '2024-12-31')).toMatchObject({ concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', value: '350018000000' });
    expect(cell(statementsAsOf('GOOGL', undefined).income, 'revenue', '2024-12-31')).toMatchObject({ concept: 'us-gaap:Revenues', value: '350018000000', report: { accession: '0001652044-26-000018' } });
  });

  it('keeps net income attributable to the parent apart from net income with noncontrolling interests (Snowflake fiscal 2025)', () => {
    const { income } = statementsAsOf('SNOW', '2025-03-21');
    expect(cell(income, 'net_income', '2025-01-31')).toMatchObject({ concept: 'us-gaap:ProfitLoss', value: '-1289212000' });
    expect(cell(income, 'net_income_attributable_to_parent', '2025-01-31')).toMatchObject({ concept: 'us-gaap:NetIncomeLoss', value: '-1285640000' });
  });
});

describe('derived values', () => {
  it("derives Apple's fiscal 2024 fourth quarter revenue: the year (10-K) minus nine months (Q3 10-Q); $94,930 million as Apple reported it", () => {
    const { income } = statementsAsOf('AAPL', '2024-11-01', 'quarter');
    const q4 = cell(income, 'revenue', '2024-09-28');
    expect(income.columns.find((c) => c.end === '2024-09-28')).toEqual({ start: '2024-06-30', end: '2024-09-28', fiscalYear: 2024, fiscalPeriod: 'Q4' });
    expect(q4).toMatchObject({ value: '94930000000', derived: true, report: null, concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', derivation: { method: 'ytd_difference' } });
    expect(q4.derivation!.inputs.map((i) => [i.sign, i.periodStart, i.periodEnd, i.value, i.report?.form])).toEqual([
      [1, '2023-10-01', '2024-09-28', '391035000000', '10-K'],
      [-1, '2023-10-01', '2024-06-29', '296105000000', '10-Q'],
    ]);
    // EPS does not add up over quarters: no fourth quarter is made up.
    const eps = cell(income, 'eps_diluted', '2024-09-28');
    expect(eps).toMatchObject({ value: null, derived: false });
    expect(income.gaps).toContainEqual({ code: 'not_reported_for_period', field: 'eps_diluted', detail: `eps_diluted FY2024 Q4 (2024-06-30..2024-09-28): ${eps.gap}` });
  });

  it("derives free cash flow from its parts: Apple fiscal 2024, $118,254 million operating cash flow minus $9,447 million capital expenditure", () => {
    const fcf = cell(statementsAsOf('AAPL', '2024-11-01').cashFlow, 'free_cash_flow', '2024-09-28');
    expect(fcf).toMatchObject({ value: '108807000000', derived: true, concept: null, derivation: { method: 'formula', expression: 'operating_cash_flow - capital_expenditure' } });
    expect(fcf.derivation!.inputs.map((i) => [i.item, i.value, i.report?.accession])).toEqual([
      ['operating_cash_flow', '118254000000', '0000320193-24-000123'],
      ['capital_expenditure', '9447000000', '0000320193-24-000123'],
    ]);
  });

  it("derives a quarter of a cash flow statement (year-to-date in 10-Qs): Snowflake's second quarter of fiscal 2025, six months minus three", () => {
    const c = cell(statementsAsOf('SNOW', undefined, 'quarter').cashFlow, 'operating_cash_flow', '2024-07-31');
    expect(c).toMatchObject({ derived: true, derivation: { method: 'ytd_difference' } });
    const [six, three] = c.derivation!.inputs;
    expect([six!.periodStart, six!.periodEnd, three!.periodStart, three!.periodEnd]).toEqual(['2024-02-01', '2024-07-31', '2024-02-01', '2024-04-30']);
    expect(Number(c.value)).toBe(Number(six!.value) - Number(three!.value));
  });

  it('derives gross profit where the filer reports none (Alphabet), and checks a reported one (Snowflake) against revenue - cost of revenue', () => {
    const googl = cell(statementsAsOf('GOOGL', '2025-02-05').income, 'gross_profit', '2024-12-31');
    // Alphabet 2024: revenues 350,018 - cost of revenues 146,306.
    expect(googl).toMatchObject({ value: '203712000000', derived: true });
    const snow = cell(statementsAsOf('SNOW', '2025-03-21').income, 'gross_profit', '2025-01-31');
    expect(snow).toMatchObject({ derived: false, concept: 'us-gaap:GrossProfit', flags: [] });
  });

  it("flags a reported quarter that disagrees with the year-to-date difference: Alphabet's Q3 2025 revenue, $102,346 million reported, $102,345 million from nine minus six months", () => {
    const c = cell(statementsAsOf('GOOGL', undefined, 'quarter').income, 'revenue', '2025-09-30');
    expect(c).toMatchObject({ value: '102346000000', derived: false });
    expect(c.flags).toEqual([expect.objectContaining({ code: 'derived_disagrees', reported: '102346000000', derived: '102345000000', difference: '1000000' })]);
  });

  it('says why a value is missing, once per item when the filer never reports it (LPA reports no cost of sales)', () => {
    const { income } = statementsAsOf('LPA', undefined);
    expect(income.gaps).toContainEqual({
      code: 'concept_not_reported',
      field: 'cost_of_revenue',
      detail: 'cost_of_revenue: the filer reports none of us-gaap:CostOfRevenue, us-gaap:CostOfGoodsAndServicesSold, us-gaap:CostOfGoodsSold, ifrs-full:CostOfSales',
    });
    expect(income.rows.find((r) => r.item.key === 'gross_profit')!.cells.every((c) => c.value === null && c.gap !== null)).toBe(true);
  });

  it('limits to the newest periods', () => {
    const { reports } = company('AAPL');
    const s = buildStatement(latestReports(reports), 'income', 'quarter', { limit: 4 });
    expect(s.columns.map((c) => `${c.fiscalYear}${c.fiscalPeriod}`)).toEqual(['2026Q1', '2025Q4', '2025Q3', '2025Q2']);
    expect(s.rows.every((r) => r.cells.length === 4)).toBe(true);
  });
});

describe('as_of: values as first reported, then as restated', () => {
  it("Apple's fiscal 2009 revenue: $36,537 million in its 10-K, restated to $42,905 million by the 10-K/A filed 2010-01-25", () => {
    const before = cell(statementsAsOf('AAPL', '2010-01-24').income, 'revenue', '2009-09-26');
    expect(before).toMatchObject({ value: '36537000000', concept: 'us-gaap:SalesRevenueNet', report: { accession: '0001193125-09-214859', form: '10-K', filed: '2009-10-27' } });
    const after = cell(statementsAsOf('AAPL', '2010-01-25').income, 'revenue', '2009-09-26');
    expect(after).toMatchObject({ value: '42905000000', report: { accession: '0001193125-10-012091', form: '10-K/A', filed: '2010-01-25' } });
  });

  it("Alphabet's 2018 operating income: $26,321 million in its 2018 10-K, $27,524 million as the 2019 10-K's comparative (filed 2020-02-04)", () => {
    expect(cell(statementsAsOf('GOOGL', '2020-02-03').income, 'operating_income', '2018-12-31')).toMatchObject({ value: '26321000000', report: { accession: '0001652044-19-000004' } });
    expect(cell(statementsAsOf('GOOGL', '2020-02-04').income, 'operating_income', '2018-12-31')).toMatchObject({ value: '27524000000', report: { accession: '0001652044-20-000008' } });
  });

  it("an IFRS restatement: LPA's 2022 diluted EPS, 0.048 in its 2023 20-F, 0.28 in its 2024 20-F", () => {
    expect(cell(statementsAsOf('LPA', '2025-04-01').income, 'eps_diluted', '2022-12-31')).toMatchObject({ value: '0.048', concept: 'ifrs-full:DilutedEarningsLossPerShare', report: { accession: '0001493152-24-016772' } });
    expect(cell(statementsAsOf('LPA', '2025-04-02').income, 'eps_diluted', '2022-12-31')).toMatchObject({ value: '0.28', report: { accession: '0001997711-25-000030' } });
  });

  it('a value first reported after as_of does not exist yet: no fiscal 2025 column for Apple the day before its 10-K', () => {
    expect(statementsAsOf('AAPL', '2025-10-30').income.columns[0]!.end).toBe('2024-09-28');
    expect(statementsAsOf('AAPL', '2025-10-31').income.columns[0]!.end).toBe('2025-09-27');
  });

  it('two reports filed the same day: the greater accession is the later (Apple filed a 10-Q and the 10-K/A on 2010-01-25)', () => {
    const assets2009 = company('AAPL').reports.filter((r) => r.concept === 'us-gaap:Assets' && r.periodEnd === '2009-09-26');
    expect(latestReports(assets2009, '2010-01-25').map((r) => [r.accession, r.form, r.value])).toEqual([['0001193125-10-012091', '10-K/A', '47501000000']]);
    expect(latestReports(assets2009, '2010-01-24').map((r) => [r.accession, r.value])).toEqual([['0001193125-09-214859', '53851000000']]);
  });

  it('history marks every report: first reported, restated (a different value), reaffirmed', () => {
    const revenue2009 = company('AAPL').reports.filter((r) => r.concept === 'us-gaap:SalesRevenueNet' && r.periodStart === '2008-09-28' && r.periodEnd === '2009-09-26');
    expect(reportHistory(revenue2009).map((h) => [h.report.accession, h.report.value, h.status, h.previousValue])).toEqual([
      ['0001193125-09-214859', '36537000000', 'first_reported', null],
      ['0001193125-10-012091', '42905000000', 'restated', '36537000000'],
      ['0001193125-10-238044', '42905000000', 'reaffirmed', '42905000000'],
      ['0001193125-11-282113', '42905000000', 'reaffirmed', '42905000000'],
    ]);
  });
});

describe('fiscal periods', () => {
  it("names quarters by the 10-Q's fiscal period before the first 10-K: Snowflake's quarter ended 2020-10-31 is Q3 of fiscal 2021 as of 2021-01-15", () => {
    const { income } = statementsAsOf('SNOW', '2021-01-15', 'quarter');
    const column = income.columns.find((c) => c.end === '2020-10-31')!;
    expect(column).toMatchObject({ fiscalPeriod: 'Q3' });
  });

  it("does not take a 10-Q's twelve months ended for a fiscal year (Apple's fiscal 2024 revenue, re-dated a quarter later as a 10-Q would print it)", () => {
    const { reports, labels } = company('AAPL');
    const year = latestReports(reports).find((r) => r.concept === 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax' && r.periodStart === '2023-10-01' && r.periodEnd === '2024-09-28')!;
    const trailing = { ...year, periodStart: '2023-12-31', periodEnd: '2024-12-28', form: '10-Q', fiscalPeriod: 'Q1', accession: '0000320193-25-000008', filed: '2025-01-31' };
    const annual = buildStatement([...latestReports(reports), trailing], 'income', 'annual', { conceptLabels: labels });
    expect(annual.columns.map((c) => c.end)).not.toContain('2024-12-28');
    expect(annual.columns.map((c) => c.end)).toContain('2024-09-28');
  });
});
