export * from './idempotency-keys.repository';
