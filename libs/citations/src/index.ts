// Citation verification: re-read the source a provenance names, check its sha256 and find the quote
// the way the project's extractors quoted it.
export { detectSourceKind, quoteOccursIn, quoteStylesOf, QUOTE_STYLES, SOURCE_KINDS, SourceText, type QuoteMatch, type QuoteOptions, type QuoteStyle, type SourceKind } from './source-text';
export { CachingSourceFetcher, type CachingFetcherOptions, type FetchedSource, type SourceFetcher, type SourceProvider, type SourceRequest } from './source.fetcher';
export { IssuerSourceFetcher, ProviderSourceFetcher, SecSourceFetcher } from './source.fetchers';
export { secPathOf, secPathRefusal, SourceHostPolicy, type IssuerOriginRegistry, type SecEndpoints, type SecPath, type SourceRoute } from './source-hosts';
export { citedPageIndex, CitationVerifier, VERIFICATION_REASONS, type CitationToVerify, type CitationVerdict, type SourceRouter, type VerificationReason } from './citation.verifier';
export { alterOneCharacter } from './alter-quote';
export { createCitationVerifier, type CitationSettings } from './citation-verifier.factory';
export { compiledPdfWorkerScript, createPdfPagesReader, readPdfPagesInThread, readPdfPagesInWorker, type PdfPagesReader, type PdfWorkerOptions } from './pdf-pages';
