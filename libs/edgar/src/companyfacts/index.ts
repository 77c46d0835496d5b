export * from './companyfacts.parser';
