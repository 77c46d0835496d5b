export * from './batch-outcome';
export * from './record-projections';
export * from './batch-upsert';
