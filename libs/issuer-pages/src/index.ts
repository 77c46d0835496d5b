// Pure extractors over issuer IR pages (cheerio) and the polite IR-site fetcher.
export * from './page-text';
export * from './dates';
export * from './text-cues';
export * from './roster.extractor';
export * from './documents.extractor';
export * from './description.extractor';
export * from './site-links.extractor';
export * from './ir-landing.finder';
export * from './robots.parser';
export * from './issuer-page.extractor';
export * from './polite.fetcher';
