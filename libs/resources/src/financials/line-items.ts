/*
 * The standard line items of the financials route: for each, the chain of XBRL concepts that can
 * carry it, us-gaap first, then the ifrs-full equivalents IFRS filers use. For a period, the first
 * concept in the chain the filer reported for THAT period wins (filers switch concepts over the
 * years: Apple's revenue is us-gaap:Revenues until 2018, then
 * RevenueFromContractWithCustomerExcludingAssessedTax). A `formula` item is derived from other
 * items where no concept of its chain is reported, and a reported value is checked against it.
 */

export type StatementKind = 'income' | 'balance' | 'cash_flow';
export const STATEMENT_KINDS = ['income', 'balance', 'cash_flow'] as const satisfies readonly StatementKind[];

/** currency: an ISO currency unit (USD); per_share: currency per share (USD/shares); shares: a share count. */
export type UnitKind = 'currency' | 'per_share' | 'shares';

export interface LineItemFormula {
  /** `left - right` or `left + right`, over other items' values for the same period. */
  op: 'difference' | 'sum';
  left: string;
  right: string;
}

export interface LineItem {
  /** snake_case key the API serves. */
  key: string;
  name: string;
  statement: StatementKind;
  unitKind: UnitKind;
  /** duration: a flow over the period; instant: a balance at its end. */
  periodType: 'duration' | 'instant';
  /** Candidate concepts (QNames), in order of preference. */
  concepts: readonly string[];
  /**
   * Whether a period's value is the sum of its parts (a missing quarter can be derived by
   * subtraction). Not per-share amounts or share counts: a year's EPS is not the sum of its quarters'.
   */
  additive: boolean;
  formula?: LineItemFormula;
  /** What the item is, and what it leaves out. */
  description: string;
}

const currency = { unitKind: 'currency', additive: true } as const;
const income = { ...currency, statement: 'income', periodType: 'duration' } as const;
const balance = { unitKind: 'currency', additive: false, statement: 'balance', periodType: 'instant' } as const;
const cashFlow = { ...currency, statement: 'cash_flow', periodType: 'duration' } as const;

/** The catalogue, in statement order. A formula item comes after the items it is derived from. */
export const LINE_ITEMS: readonly LineItem[] = [
  // Income statement
  {
    ...income,
    key: 'revenue',
    name: 'Revenue',
    concepts: [
      'us-gaap:Revenues',
      'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
      'us-gaap:SalesRevenueNet',
      'us-gaap:SalesRevenueGoodsNet',
      'ifrs-full:Revenue',
      'ifrs-full:RevenueFromContractsWithCustomers',
    ],
    description: 'Total revenue (net sales) of the period',
  },
  {
    ...income,
    key: 'cost_of_revenue',
    name: 'Cost of revenue',
    concepts: ['us-gaap:CostOfRevenue', 'us-gaap:CostOfGoodsAndServicesSold', 'us-gaap:CostOfGoodsSold', 'ifrs-full:CostOfSales'],
    description: 'Cost of revenue (cost of sales)',
  },
  {
    ...income,
    key: 'gross_profit',
    name: 'Gross profit',
    concepts: ['us-gaap:GrossProfit', 'ifrs-full:GrossProfit'],
    formula: { op: 'difference', left: 'revenue', right: 'cost_of_revenue' },
    description: 'Revenue minus cost of revenue; derived from them where the filer does not report it, and a reported one is checked against them',
  },
  {
    ...income,
    key: 'research_and_development',
    name: 'Research and development',
    concepts: ['us-gaap:ResearchAndDevelopmentExpense', 'us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost', 'ifrs-full:ResearchAndDevelopmentExpense'],
    description: 'Research and development expense',
  },
  {
    ...income,
    key: 'selling_and_marketing',
    name: 'Sales and marketing',
    concepts: ['us-gaap:SellingAndMarketingExpense', 'ifrs-full:SellingExpense', 'ifrs-full:DistributionCosts'],
    description: 'Sales and marketing expense, where the filer reports it apart from general and administrative',
  },
  {
    ...income,
    key: 'general_and_administrative',
    name: 'General and administrative',
    concepts: ['us-gaap:GeneralAndAdministrativeExpense', 'ifrs-full:AdministrativeExpense', 'ifrs-full:GeneralAndAdministrativeExpense'],
    description: 'General and administrative expense, where the filer reports it apart from sales and marketing',
  },
  {
    ...income,
    key: 'selling_general_and_administrative',
    name: 'Selling, general and administrative',
    concepts: ['us-gaap:SellingGeneralAndAdministrativeExpense', 'ifrs-full:SellingGeneralAndAdministrativeExpense'],
    formula: { op: 'sum', left: 'selling_and_marketing', right: 'general_and_administrative' },
    description: 'Selling, general and administrative expense; the sum of sales and marketing and general and administrative where the filer reports only those',
  },
  {
    ...income,
    key: 'operating_expenses',
    name: 'Operating expenses',
    concepts: ['us-gaap:OperatingExpenses', 'ifrs-full:OperatingExpense'],
    description: 'Total operating expenses as the filer reports them (for most filers excluding cost of revenue; us-gaap:CostsAndExpenses, which includes it, is not used)',
  },
  {
    ...income,
    key: 'operating_income',
    name: 'Operating income',
    concepts: ['us-gaap:OperatingIncomeLoss', 'ifrs-full:ProfitLossFromOperatingActivities'],
    description: 'Operating income (loss)',
  },
  {
    ...income,
    key: 'interest_expense',
    name: 'Interest expense',
    concepts: ['us-gaap:InterestExpense', 'us-gaap:InterestExpenseNonoperating', 'us-gaap:InterestExpenseDebt', 'ifrs-full:FinanceCosts', 'ifrs-full:InterestExpense'],
    description: 'Interest expense (IFRS: finance costs)',
  },
  {
    ...income,
    key: 'pretax_income',
    name: 'Income before income taxes',
    concepts: [
      'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
      'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
      'ifrs-full:ProfitLossBeforeTax',
    ],
    description: 'Income (loss) from continuing operations before income taxes',
  },
  {
    ...income,
    key: 'income_tax',
    name: 'Income tax expense',
    concepts: ['us-gaap:IncomeTaxExpenseBenefit', 'ifrs-full:IncomeTaxExpenseContinuingOperations'],
    description: 'Income tax expense (benefit)',
  },
  {
    ...income,
    key: 'net_income',
    name: 'Net income',
    concepts: ['us-gaap:ProfitLoss', 'us-gaap:NetIncomeLoss', 'ifrs-full:ProfitLoss'],
    description: 'Net income (loss) including noncontrolling interests; for a filer without them, the net income attributable to the parent',
  },
  {
    ...income,
    key: 'net_income_attributable_to_parent',
    name: 'Net income attributable to parent',
    concepts: ['us-gaap:NetIncomeLoss', 'ifrs-full:ProfitLossAttributableToOwnersOfParent'],
    description: "Net income (loss) attributable to the parent's shareholders",
  },
  {
    statement: 'income',
    periodType: 'duration',
    unitKind: 'per_share',
    additive: false,
    key: 'eps_basic',
    name: 'EPS, basic',
    concepts: ['us-gaap:EarningsPerShareBasic', 'us-gaap:EarningsPerShareBasicAndDiluted', 'ifrs-full:BasicEarningsLossPerShare'],
    description: 'Basic earnings (loss) per share; a fourth quarter is never derived (per-share amounts do not add up)',
  },
  {
    statement: 'income',
    periodType: 'duration',
    unitKind: 'per_share',
    additive: false,
    key: 'eps_diluted',
    name: 'EPS, diluted',
    concepts: ['us-gaap:EarningsPerShareDiluted', 'us-gaap:EarningsPerShareBasicAndDiluted', 'ifrs-full:DilutedEarningsLossPerShare'],
    description: 'Diluted earnings (loss) per share; a fourth quarter is never derived',
  },
  {
    statement: 'income',
    periodType: 'duration',
    unitKind: 'shares',
    additive: false,
    key: 'weighted_shares_basic',
    name: 'Weighted average shares, basic',
    concepts: ['us-gaap:WeightedAverageNumberOfSharesOutstandingBasic', 'us-gaap:WeightedAverageNumberOfShareOutstandingBasicAndDiluted', 'ifrs-full:WeightedAverageShares'],
    description: 'Weighted average shares outstanding, basic; a fourth quarter is never derived',
  },
  {
    statement: 'income',
    periodType: 'duration',
    unitKind: 'shares',
    additive: false,
    key: 'weighted_shares_diluted',
    name: 'Weighted average shares, diluted',
    concepts: ['us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding', 'us-gaap:WeightedAverageNumberOfShareOutstandingBasicAndDiluted', 'ifrs-full:AdjustedWeightedAverageShares'],
    description: 'Weighted average shares outstanding, diluted; a fourth quarter is never derived',
  },
  // Balance sheet
  { ...balance, key: 'cash_and_equivalents', name: 'Cash and cash equivalents', concepts: ['us-gaap:CashAndCashEquivalentsAtCarryingValue', 'us-gaap:Cash', 'ifrs-full:CashAndCashEquivalents'], description: 'Cash and cash equivalents (restricted cash excluded)' },
  {
    ...balance,
    key: 'short_term_investments',
    name: 'Short-term investments',
    concepts: ['us-gaap:ShortTermInvestments', 'us-gaap:MarketableSecuritiesCurrent', 'us-gaap:AvailableForSaleSecuritiesDebtSecuritiesCurrent', 'ifrs-full:CurrentFinancialAssets'],
    description: 'Short-term (current) investments and marketable securities',
  },
  {
    ...balance,
    key: 'receivables',
    name: 'Accounts receivable',
    concepts: ['us-gaap:AccountsReceivableNetCurrent', 'us-gaap:ReceivablesNetCurrent', 'ifrs-full:TradeAndOtherCurrentReceivables', 'ifrs-full:CurrentTradeReceivables'],
    description: 'Accounts receivable, net, current',
  },
  { ...balance, key: 'inventory', name: 'Inventory', concepts: ['us-gaap:InventoryNet', 'ifrs-full:Inventories'], description: 'Inventories, net' },
  { ...balance, key: 'current_assets', name: 'Total current assets', concepts: ['us-gaap:AssetsCurrent', 'ifrs-full:CurrentAssets'], description: 'Total current assets' },
  {
    ...balance,
    key: 'ppe_net',
    name: 'Property, plant and equipment, net',
    concepts: ['us-gaap:PropertyPlantAndEquipmentNet', 'us-gaap:PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization', 'ifrs-full:PropertyPlantAndEquipment'],
    description: 'Property, plant and equipment, net of accumulated depreciation',
  },
  { ...balance, key: 'goodwill', name: 'Goodwill', concepts: ['us-gaap:Goodwill', 'ifrs-full:Goodwill'], description: 'Goodwill' },
  { ...balance, key: 'total_assets', name: 'Total assets', concepts: ['us-gaap:Assets', 'ifrs-full:Assets'], description: 'Total assets' },
  { ...balance, key: 'accounts_payable', name: 'Accounts payable', concepts: ['us-gaap:AccountsPayableCurrent', 'ifrs-full:TradeAndOtherCurrentPayables'], description: 'Accounts payable, current (IFRS: trade and other payables)' },
  { ...balance, key: 'current_liabilities', name: 'Total current liabilities', concepts: ['us-gaap:LiabilitiesCurrent', 'ifrs-full:CurrentLiabilities'], description: 'Total current liabilities' },
  {
    ...balance,
    key: 'long_term_debt',
    name: 'Long-term debt',
    concepts: ['us-gaap:LongTermDebtNoncurrent', 'us-gaap:LongTermDebtAndCapitalLeaseObligations', 'ifrs-full:LongtermBorrowings', 'ifrs-full:NoncurrentPortionOfNoncurrentBorrowings'],
    description: 'Long-term debt, non-current portion',
  },
  {
    ...balance,
    key: 'total_debt',
    name: 'Total debt',
    concepts: ['us-gaap:DebtLongtermAndShorttermCombinedAmount', 'us-gaap:LongTermDebt', 'us-gaap:DebtAndCapitalLeaseObligations', 'ifrs-full:Borrowings'],
    description:
      'Debt as the filer totals it: us-gaap:LongTermDebt is long-term debt including its current maturities and leaves out commercial paper and other short-term borrowings; null where the filer reports no total',
  },
  { ...balance, key: 'total_liabilities', name: 'Total liabilities', concepts: ['us-gaap:Liabilities', 'ifrs-full:Liabilities'], description: 'Total liabilities' },
  {
    ...balance,
    key: 'stockholders_equity',
    name: "Stockholders' equity",
    concepts: ['us-gaap:StockholdersEquity', 'ifrs-full:EquityAttributableToOwnersOfParent', 'ifrs-full:Equity'],
    description: "Stockholders' equity attributable to the parent (IFRS: equity attributable to owners of the parent, else total equity)",
  },
  {
    ...balance,
    key: 'liabilities_and_equity',
    name: 'Total liabilities and equity',
    concepts: ['us-gaap:LiabilitiesAndStockholdersEquity', 'ifrs-full:EquityAndLiabilities'],
    description: 'Total liabilities and equity (equals total assets)',
  },
  // Cash flow statement
  {
    ...cashFlow,
    key: 'operating_cash_flow',
    name: 'Cash from operating activities',
    concepts: ['us-gaap:NetCashProvidedByUsedInOperatingActivities', 'us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations', 'ifrs-full:CashFlowsFromUsedInOperatingActivities', 'ifrs-full:CashFlowsFromUsedInOperations'],
    description: 'Net cash provided by (used in) operating activities',
  },
  {
    ...cashFlow,
    key: 'depreciation_and_amortization',
    name: 'Depreciation and amortization',
    concepts: [
      'us-gaap:DepreciationDepletionAndAmortization',
      'us-gaap:DepreciationAmortizationAndAccretionNet',
      'us-gaap:DepreciationAndAmortization',
      'us-gaap:Depreciation',
      'ifrs-full:AdjustmentsForDepreciationAndAmortisationExpense',
      'ifrs-full:DepreciationAndAmortisationExpense',
    ],
    description: 'Depreciation and amortization added back in operating cash flow (us-gaap:Depreciation alone where the filer reports no total)',
  },
  {
    ...cashFlow,
    key: 'share_based_compensation',
    name: 'Share-based compensation',
    concepts: ['us-gaap:ShareBasedCompensation', 'us-gaap:AllocatedShareBasedCompensationExpense', 'ifrs-full:AdjustmentsForSharebasedPayments'],
    description: 'Share-based compensation expense',
  },
  {
    ...cashFlow,
    key: 'capital_expenditure',
    name: 'Capital expenditure',
    concepts: ['us-gaap:PaymentsToAcquirePropertyPlantAndEquipment', 'us-gaap:PaymentsToAcquireProductiveAssets', 'ifrs-full:PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities'],
    description: 'Payments for property, plant and equipment (a positive amount: cash paid)',
  },
  {
    ...cashFlow,
    key: 'investing_cash_flow',
    name: 'Cash from investing activities',
    concepts: ['us-gaap:NetCashProvidedByUsedInInvestingActivities', 'us-gaap:NetCashProvidedByUsedInInvestingActivitiesContinuingOperations', 'ifrs-full:CashFlowsFromUsedInInvestingActivities'],
    description: 'Net cash provided by (used in) investing activities',
  },
  {
    ...cashFlow,
    key: 'dividends_paid',
    name: 'Dividends paid',
    concepts: ['us-gaap:PaymentsOfDividends', 'us-gaap:PaymentsOfDividendsCommonStock', 'ifrs-full:DividendsPaidClassifiedAsFinancingActivities', 'ifrs-full:DividendsPaid'],
    description: 'Dividends paid (a positive amount: cash paid)',
  },
  {
    ...cashFlow,
    key: 'share_repurchases',
    name: 'Share repurchases',
    concepts: ['us-gaap:PaymentsForRepurchaseOfCommonStock', 'us-gaap:PaymentsForRepurchaseOfEquity', 'ifrs-full:PaymentsToAcquireOrRedeemEntitysShares', 'ifrs-full:PurchaseOfTreasuryShares'],
    description: 'Payments for repurchases of common stock (a positive amount: cash paid)',
  },
  {
    ...cashFlow,
    key: 'financing_cash_flow',
    name: 'Cash from financing activities',
    concepts: ['us-gaap:NetCashProvidedByUsedInFinancingActivities', 'us-gaap:NetCashProvidedByUsedInFinancingActivitiesContinuingOperations', 'ifrs-full:CashFlowsFromUsedInFinancingActivities'],
    description: 'Net cash provided by (used in) financing activities',
  },
  {
    ...cashFlow,
    key: 'free_cash_flow',
    name: 'Free cash flow',
    concepts: [],
    formula: { op: 'difference', left: 'operating_cash_flow', right: 'capital_expenditure' },
    description: 'Cash from operating activities minus capital expenditure; always derived (no filer reports it in XBRL)',
  },
];

/** Every concept some line item may read: what the financials route asks the read model for. */
export const LINE_ITEM_CONCEPTS: readonly string[] = [...new Set(LINE_ITEMS.flatMap((i) => i.concepts))];

export function lineItemsOf(statement: StatementKind): LineItem[] {
  return LINE_ITEMS.filter((i) => i.statement === statement);
}
