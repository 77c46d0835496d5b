export * from './api-keys.repository';
export * from './api-keys.table';
