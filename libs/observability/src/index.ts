export * from './logger';
export * from './request-id';
export * from './metrics';
export * from './ops-server';
export * from './freshness.metrics';
export * from './redaction';
