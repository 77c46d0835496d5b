import type { DataSource } from 'typeorm';
import { createCitationVerifier, type CitationVerifier } from '@app/citations';
import type { Logger } from '@app/observability';
import { DomainError } from '../platform/api.errors';
import { defineRoutes, type BoundRoute, type RouteBinder } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import type { CitationsEnvironment } from './citations.config';
import { IssuerOriginsRepository } from './citations.repository';
import { citationVerdictSchema, verifyCitationBody, type CitationVerdictBody, type VerifyCitationInput } from './citations.schemas';

export const citationsRoutes = defineRoutes({
  verify: {
    method: 'POST',
    url: '/v1/citations/verify',
    operationId: 'verifyCitation',
    summary: 'Verify a citation',
    description:
      'Re-reads the source a provenance object names and checks it: fetches `source_url` again (EDGAR through the declared User-Agent ' +
      "and SEC's 10 requests/s; issuer sites politely, robots.txt obeyed), compares the sha256 of the bytes with `content_hash`, and looks " +
      'for `quote` the way the extractor quoted that kind of source (see quote_style). `verified` only when both hold; a source that now ' +
      'hashes differently answers `content_changed` at once (the quote is not looked for: quote_found null) and is never verified. Only ' +
      'the EDGAR resources this service cites (filing documents, daily indexes, ticker maps, submissions, the current-events listing) and ' +
      'pages of issuer sites it has read are fetched (anything else: `unsupported_source`, nothing fetched); a redirect off those sites is ' +
      'not followed, and at most CITATIONS_MAX_SOURCE_BYTES of a source are read. Sources are cached for a few minutes, so verifying many ' +
      'citations of one filing fetches it once. A provenance with a null quote (a PDF page without text) is checked by its hash alone ' +
      '(quote_found null); one without a source_url or a content_hash has nothing to verify: 422. Verifications run a few at a time ' +
      'per server (CITATIONS_MAX_CONCURRENT): past that, 503 `busy` with Retry-After.',
    tags: ['citations'],
    errors: [503],
    body: verifyCitationBody,
    response: citationVerdictSchema,
  },
});

/** Seconds a client is asked to wait when every verification slot is taken. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * HTTP side of citation verification: verify the (parsed) body, answer the verdict. At most
 * `maxConcurrent` verifications run at once (each may fetch tens of MB and parse them); one more
 * is refused at once with 503 busy rather than queued, so the process's memory and time stay bounded.
 */
export class CitationsController {
  private running = 0;

  constructor(
    private readonly verifier: Pick<CitationVerifier, 'verify'>,
    private readonly maxConcurrent: number,
  ) {}

  /** Verifications running now. */
  get inFlight(): number {
    return this.running;
  }

  async verify({ provenance: p }: VerifyCitationInput): Promise<CitationVerdictBody> {
    if (this.running >= this.maxConcurrent) {
      throw new DomainError('VerifierBusy', `${this.maxConcurrent} citation verifications are already running on this server; retry shortly.`, {
        'Retry-After': String(BUSY_RETRY_AFTER_SECONDS),
      });
    }
    this.running += 1;
    try {
      return await this.verifier.verify({
        source_url: p.source_url,
        quote: p.quote,
        content_hash: p.content_hash,
        ...(p.source_provider ? { source_provider: p.source_provider } : {}),
        ...(p.citation_url ? { citation_url: p.citation_url } : {}),
      });
    } finally {
      this.running -= 1;
    }
  }
}

/** Builds the citations controller on the api's DataSource and configuration. */
export function createCitationsController(dataSource: DataSource, config: CitationsEnvironment, logger: Logger): CitationsController {
  const log = logger.child({ component: 'citations' });
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
      pdfTimeoutMs: config.CITATIONS_PDF_TIMEOUT_MS,
      logger: log,
    },
    new IssuerOriginsRepository(dataSource, { onTruncated: (held) => log.warn({ held }, 'more issuer origins than the set holds: the rest are not verifiable') }),
  );
  return new CitationsController(verifier, config.CITATIONS_MAX_CONCURRENT);
}

/** The verify route bound to a controller: the binder parses the body (a 422 takes no slot), the controller verifies. */
export function bindVerify(binder: RouteBinder, controller: CitationsController): BoundRoute {
  return binder.bind(citationsRoutes.verify, { handle: ({ body }) => controller.verify(body) });
}

export const citationsApi: RouteModule = {
  routes: citationsRoutes,
  bind: ({ binder, dataSource, config, logger }) => [bindVerify(binder, createCitationsController(dataSource, config, logger))],
};
