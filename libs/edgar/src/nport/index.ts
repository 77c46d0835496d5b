export * from './nport.types';
export * from './nport.parser';
export * from './nport.matcher';
export * from './security-identifiers';
