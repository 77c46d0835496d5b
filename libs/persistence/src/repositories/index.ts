export * from './api-keys.repository';
export * from './companies.repository';
export * from './fund-exposure.repository';
export * from './filings.repository';
export * from './segments.repository';
export * from './roster.repository';
export * from './documents.repository';
export * from './insider-transactions.repository';
