export * from './items';
export * from './submission.parser';
