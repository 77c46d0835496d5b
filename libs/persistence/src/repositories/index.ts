export * from './api-keys.repository';
export * from './companies.repository';
export * from './filings.repository';
export * from './segments.repository';
