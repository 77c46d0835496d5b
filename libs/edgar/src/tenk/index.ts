export * from './tenk-text';
export * from './tenk-sections.extractor';
export * from './ir-website.extractor';
