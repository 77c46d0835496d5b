export * from './data-source';
export * from './entities';
export * from './projections';
export * from './repositories';
export * from './keyset';
