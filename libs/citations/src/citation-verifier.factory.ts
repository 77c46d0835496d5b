import { EdgarClient, type EdgarLogger } from '@app/edgar';
import { CitationVerifier } from './citation.verifier';
import { createPdfPagesReader } from './pdf-pages';
import { SourceHostPolicy, type IssuerOriginRegistry } from './source-hosts';
import { CachingSourceFetcher } from './source.fetcher';
import { IssuerSourceFetcher, ProviderSourceFetcher, SecSourceFetcher } from './source.fetchers';

/**
 * The settings verification runs with. EDGAR ones are the ingestors' own variables
 * (EDGAR_USER_AGENT, EDGAR_WWW_BASE_URL, EDGAR_DATA_BASE_URL, EDGAR_MAX_RPS,
 * EDGAR_THROTTLE_PAUSE_MS), issuer ones ingest-ir's (IR_USER_AGENT, IR_MAX_RPS_PER_HOST,
 * IR_ALLOW_PRIVATE_HOSTS), so pointing the ingestors at a fixture server points verification there too.
 */
export interface CitationSettings {
  /** Null: EDGAR sources answer source_unavailable (SEC requires a declared User-Agent). */
  edgarUserAgent: string | null;
  edgarWwwBaseUrl: string;
  edgarDataBaseUrl: string;
  edgarMaxRps: number;
  edgarThrottlePauseMs: number;
  /** Null: the EDGAR User-Agent is used; both null: issuer sources answer source_unavailable. */
  issuerUserAgent: string | null;
  issuerMaxRpsPerHost: number;
  issuerAllowPrivateHosts: boolean;
  /** Largest body read from EDGAR or an issuer site (decks run to tens of MB); past it: source_unavailable. */
  maxSourceBytes: number;
  fetchTimeoutMs: number;
  cacheTtlMs: number;
  cacheMaxBytes: number;
  cacheMaxEntries: number;
  /** A PDF's text extraction (a worker thread, when running from the build) is stopped past this. */
  pdfTimeoutMs: number;
  logger?: EdgarLogger;
}

/** A verifier wired to EDGAR, issuer sites and a bounded cache of fetched bodies. */
export function createCitationVerifier(settings: CitationSettings, issuers: IssuerOriginRegistry): CitationVerifier {
  const endpoints = { wwwBaseUrl: settings.edgarWwwBaseUrl, dataBaseUrl: settings.edgarDataBaseUrl };
  const edgar = settings.edgarUserAgent
    ? new EdgarClient({
        userAgent: settings.edgarUserAgent,
        wwwBaseUrl: endpoints.wwwBaseUrl,
        dataBaseUrl: endpoints.dataBaseUrl,
        maxRps: settings.edgarMaxRps,
        throttlePauseMs: settings.edgarThrottlePauseMs,
        // Throttled: fail this request now (SecSourceFetcher then holds SEC off for the pause), never wait minutes in an API call.
        maxThrottlePauses: 0,
        maxAttempts: 2,
        backoffBaseMs: 250,
        timeoutMs: settings.fetchTimeoutMs,
        ...(settings.logger ? { logger: settings.logger } : {}),
      })
    : null;
  const issuerUserAgent = settings.issuerUserAgent ?? settings.edgarUserAgent;
  const unavailable = { fetch: async (r: { url: string }) => ({ kind: 'unavailable' as const, url: r.url, detail: 'issuer sources cannot be fetched: neither IR_USER_AGENT nor EDGAR_USER_AGENT is configured', fetchedAt: null }) };
  const issuer = issuerUserAgent
    ? new IssuerSourceFetcher(
        {
          userAgent: issuerUserAgent,
          maxRpsPerHost: settings.issuerMaxRpsPerHost,
          timeoutMs: settings.fetchTimeoutMs,
          maxAttempts: 2,
          backoffBaseMs: 250,
          maxBytes: settings.maxSourceBytes,
          allowPrivateHosts: settings.issuerAllowPrivateHosts,
          // The host policy holds on every hop: a redirect is followed on the host asked for (http -> https,
          // another path) or to another issuer site this service has read, never elsewhere.
          allowRedirect: (target, from) => target.hostname === from.hostname || issuers.isKnownIssuerOrigin(target.origin),
          ...(settings.logger ? { logger: settings.logger } : {}),
        },
        60 * 60 * 1000,
      )
    : unavailable;
  const fetcher = new CachingSourceFetcher(
    new ProviderSourceFetcher({ sec: new SecSourceFetcher(edgar, endpoints, settings.edgarThrottlePauseMs, settings.maxSourceBytes), issuer_page: issuer }),
    { ttlMs: settings.cacheTtlMs, maxBytes: settings.cacheMaxBytes, maxEntries: settings.cacheMaxEntries },
  );
  const readPdfPages = createPdfPagesReader({ timeoutMs: settings.pdfTimeoutMs, onFallback: (why) => settings.logger?.info({}, why) });
  return new CitationVerifier(new SourceHostPolicy(endpoints, issuers), fetcher, readPdfPages);
}
