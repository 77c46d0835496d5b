export * from './tenk-text';
export * from './tenk-sections.extractor';
