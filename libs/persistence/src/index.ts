export * from './data-source';
export * from './entities';
