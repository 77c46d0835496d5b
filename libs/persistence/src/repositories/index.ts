export * from './coverage.repository';
export * from './search.repository';
export * from './pg-queryable';
export * from './table-counts.repository';
