export * from './items';
export * from './submission.parser';
export * from './exhibit-pages';
