export * from './edgar.client';
export * from './edgar.errors';
export * from './edgar.parse-error';
export * from './request.limiter';
export * from './ticker-map.parser';
export * from './submissions.parser';
export * from './edgar-country.mapper';
export * from './filings';
