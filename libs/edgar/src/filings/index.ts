export * from './filing-urls';
export * from './submissions-filings.parser';
export * from './daily-index.parser';
export * from './current-events.parser';
export * from './filing-index.parser';
export * from './latest-filings.parser';
