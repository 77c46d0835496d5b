export { compareFiled, decimalSum, latestReports, reportHistory, sameDecimal, valueKey } from './fact-reports';
export type { ReportInHistory, ReportStatus } from './fact-reports';
export { LINE_ITEM_CONCEPTS, LINE_ITEMS, lineItemsOf, STATEMENT_KINDS } from './line-items';
export type { LineItem, LineItemFormula, StatementKind, UnitKind } from './line-items';
export { ANNUAL_DAYS, buildStatement, columnName, deriveQuarter, QUARTER_DAYS, STATEMENT_PERIODS, statementColumns } from './statement';
export type { BuildOptions, BuiltStatement, Derivation, DerivationInput, StatementCell, StatementColumn, StatementFlag, StatementPeriod, StatementRow } from './statement';
