export * from './filing.projection';
export * from './filings.repository';
