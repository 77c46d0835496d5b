export * from './filing.projection';
export * from './filings.repository';
export * from './filings.table';
export * from './filing.events';
