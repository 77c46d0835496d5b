export * from './items';
export * from './submission.parser';
export * from './exhibit.classifier';
export * from './exhibit-pages';
