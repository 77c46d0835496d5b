export * from './filing-freshness.projection';
export * from './filing-freshness.repository';
export * from './filing-freshness.table';
