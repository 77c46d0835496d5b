export * from './idempotency-keys.repository';
export * from './idempotency-keys.table';
