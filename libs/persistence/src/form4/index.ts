export * from './form4.projection';
export * from './insider-transactions.repository';
export * from './form4.table';
export * from './form4.events';
export * from './sec-roster';
