import type { DataSource } from 'typeorm';
import { createCitationVerifier, type CitationVerifier } from '@app/citations';
import type { Logger } from '@app/observability';
import { parseBody } from '../platform/body.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import type { CitationsEnvironment } from './citations.config';
import { IssuerOriginsRepository } from './citations.repository';
import { citationVerdictSchema, verifyCitationBody, type CitationVerdictBody } from './citations.schemas';

export const citationsRoutes = {
  verify: {
    method: 'POST',
    url: '/v1/citations/verify',
    operationId: 'verifyCitation',
    summary: 'Verify a citation',
    description:
      'Re-reads the source a provenance object names and checks it: fetches `source_url` again (EDGAR through the declared User-Agent ' +
      "and SEC's 10 requests/s; issuer sites politely, robots.txt obeyed), compares the sha256 of the bytes with `content_hash`, and looks " +
      'for `quote` the way the extractor quoted that kind of source (see quote_style). `verified` only when both hold; a source that now ' +
      'hashes differently answers `content_changed` and is never verified. Only EDGAR URLs and pages of issuer sites this service has read ' +
      'are fetched (anything else: `unsupported_source`, nothing fetched). Sources are cached for a few minutes, so verifying many ' +
      'citations of one filing fetches it once. A provenance with a null quote (a PDF page without text) is checked by its hash alone ' +
      '(quote_found null); one without a source_url or a content_hash has nothing to verify: 422.',
    tags: ['citations'],
    body: verifyCitationBody,
    response: citationVerdictSchema,
  },
} satisfies Record<string, RouteDefinition>;

/** HTTP side of citation verification: validate the body, verify, answer the verdict. */
export class CitationsController {
  constructor(private readonly verifier: CitationVerifier) {}

  routes(): BoundRoute[] {
    return [{ definition: citationsRoutes.verify, handler: (req) => this.verify(req.body) }];
  }

  async verify(body: unknown): Promise<CitationVerdictBody> {
    const { provenance: p } = parseBody(verifyCitationBody, body);
    return this.verifier.verify({
      source_url: p.source_url,
      quote: p.quote,
      content_hash: p.content_hash,
      ...(p.source_provider ? { source_provider: p.source_provider } : {}),
      ...(p.citation_url ? { citation_url: p.citation_url } : {}),
    });
  }
}

/** Wires the citations controller (called from api.context). */
export function createCitationsController(dataSource: DataSource, config: CitationsEnvironment, logger: Logger): CitationsController {
  const verifier = createCitationVerifier(
    {
      edgarUserAgent: config.EDGAR_USER_AGENT ?? null,
      edgarWwwBaseUrl: config.EDGAR_WWW_BASE_URL,
      edgarDataBaseUrl: config.EDGAR_DATA_BASE_URL,
      edgarMaxRps: config.EDGAR_MAX_RPS,
      edgarThrottlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS,
      issuerUserAgent: config.IR_USER_AGENT ?? null,
      issuerMaxRpsPerHost: config.IR_MAX_RPS_PER_HOST,
      issuerAllowPrivateHosts: config.IR_ALLOW_PRIVATE_HOSTS,
      maxSourceBytes: config.CITATIONS_MAX_SOURCE_BYTES,
      fetchTimeoutMs: config.CITATIONS_FETCH_TIMEOUT_MS,
      cacheTtlMs: config.CITATIONS_CACHE_TTL_MS,
      cacheMaxBytes: config.CITATIONS_CACHE_MAX_BYTES,
      cacheMaxEntries: config.CITATIONS_CACHE_MAX_ENTRIES,
      logger: logger.child({ component: 'citations' }),
    },
    new IssuerOriginsRepository(dataSource),
  );
  return new CitationsController(verifier);
}
