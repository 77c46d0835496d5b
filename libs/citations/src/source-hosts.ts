import type { SourceProvider, SourceRequest } from './source.fetcher';

/** Where EDGAR is reached: the ingestors' EDGAR_WWW_BASE_URL / EDGAR_DATA_BASE_URL (sec.gov, or a local fixture server). */
export interface SecEndpoints {
  wwwBaseUrl: string;
  dataBaseUrl: string;
}

/** SEC's own hosts: an sec.gov URL is fetched through the configured base of its host. */
const SEC_WWW_HOSTS = new Set(['www.sec.gov', 'sec.gov']);
const SEC_DATA_HOSTS = new Set(['data.sec.gov']);

/** An EDGAR URL as the EDGAR client asks for it: which host, and the path (with its query). */
export interface SecPath {
  host: 'www' | 'data';
  path: string;
}

function underBase(url: URL, base: string): string | null {
  const b = new URL(base);
  if (url.origin !== b.origin) return null;
  const prefix = b.pathname.replace(/\/+$/, '');
  if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  return `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
}

/**
 * The EDGAR path of a URL, or null when the URL is not EDGAR's. Records carry the URL the bytes
 * came from: https://www.sec.gov/... and https://data.sec.gov/... in production, the configured
 * base (a fixture server) where the ingestors were pointed elsewhere; both are read through the
 * configured base, as the ingestors read them.
 */
export function secPathOf(raw: string, endpoints: SecEndpoints): SecPath | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const www = underBase(url, endpoints.wwwBaseUrl);
  if (www !== null) return { host: 'www', path: www };
  const data = underBase(url, endpoints.dataBaseUrl);
  if (data !== null) return { host: 'data', path: data };
  if (url.protocol !== 'https:' || url.port) return null;
  if (SEC_WWW_HOSTS.has(url.hostname)) return { host: 'www', path: `${url.pathname}${url.search}` };
  if (SEC_DATA_HOSTS.has(url.hostname)) return { host: 'data', path: `${url.pathname}${url.search}` };
  return null;
}

/**
 * The EDGAR resources the platform's records cite, by host: the shapes of the paths the ingestors
 * fetch (libs/edgar's and the apps' path builders), so a provenance can only name one of them.
 * Anything else on sec.gov (bulk archives such as daily-index/bulkdata/submissions.zip, full-text
 * search, a filing path with a made-up query string that would defeat the cache) is not fetched.
 */
const SEC_PATH_SHAPES: Record<SecPath['host'], ReadonlyArray<{ shape: RegExp; what: string }>> = {
  www: [
    // Filing documents, complete submissions, N-PORT primary_doc.xml, ownership XML.
    { shape: /^\/Archives\/edgar\/data\/\d{1,10}\/[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/, what: '/Archives/edgar/data/<cik>/...' },
    // Daily indexes, every layout (dailyIndexPath).
    { shape: /^\/Archives\/edgar\/daily-index\/\d{4}\/QTR[1-4]\/(?:form|company|master)\.\d{8}\.idx$/, what: '/Archives/edgar/daily-index/<yyyy>/QTR<n>/{form,company,master}.<yyyymmdd>.idx' },
    // Ticker maps (TICKER_MAP_PATH, TICKER_MAP_EXCHANGE_PATH).
    { shape: /^\/files\/company_tickers(?:_exchange)?\.json$/, what: '/files/company_tickers[_exchange].json' },
    // Current-events listing (currentEventsPath).
    { shape: /^\/cgi-bin\/current\?q1=\d{1,2}&q2=\d{1,2}&q3=[A-Za-z0-9%._-]{0,32}$/, what: '/cgi-bin/current?q1=<n>&q2=<n>&q3=<form>' },
  ],
  data: [
    // Submissions JSON and its overflow files (submissionsPath, submissionsOverflowPath).
    { shape: /^\/submissions\/CIK\d{10}(?:-submissions-\d{3})?\.json$/, what: '/submissions/CIK<10 digits>[-submissions-<nnn>].json' },
  ],
};

const sameBase = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Null when an EDGAR path is one of the resources the platform cites (SEC_PATH_SHAPES), else why
 * not. Where both configured bases are one server (a fixture server), its paths may be either host's.
 */
export function secPathRefusal(path: SecPath, endpoints: SecEndpoints): string | null {
  const hosts: Array<SecPath['host']> = path.host === 'www' && sameBase(endpoints.wwwBaseUrl, endpoints.dataBaseUrl) ? ['www', 'data'] : [path.host];
  const shapes = hosts.flatMap((h) => SEC_PATH_SHAPES[h]);
  if (shapes.some((s) => s.shape.test(path.path))) return null;
  return `${path.path} is not an EDGAR resource this service cites (only ${shapes.map((s) => s.what).join(', ')})`;
}

/** Knows the issuer sites the platform has read (the hosts of the issuer pages and documents in its read models). */
export interface IssuerOriginRegistry {
  /** `origin` as URL.origin writes it: `https://www.example.com`. */
  isKnownIssuerOrigin(origin: string): Promise<boolean>;
}

export type SourceRoute = { ok: true; request: SourceRequest } | { ok: false; detail: string };

/**
 * Which sources verification may fetch: EDGAR URLs (sec.gov hosts, or the configured EDGAR base),
 * and pages of issuer sites the platform has read. Anything else is refused, so verification is
 * never a way to make the service fetch an arbitrary URL.
 */
export class SourceHostPolicy {
  constructor(
    private readonly endpoints: SecEndpoints,
    private readonly issuers: IssuerOriginRegistry,
  ) {}

  async route(raw: string, declared?: SourceProvider): Promise<SourceRoute> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, detail: `source_url is not a URL: ${raw}` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, detail: `only http(s) sources are fetched, not ${url.protocol}` };
    if (url.username || url.password) return { ok: false, detail: 'source_url must not carry credentials' };
    url.hash = '';
    const href = url.toString();
    const secPath = secPathOf(href, this.endpoints);
    if (declared === 'sec' || (declared === undefined && secPath !== null)) {
      if (secPath === null) return { ok: false, detail: `${url.host} is not an EDGAR host (www.sec.gov, data.sec.gov or the configured EDGAR base URLs)` };
      const refusal = secPathRefusal(secPath, this.endpoints);
      return refusal === null ? { ok: true, request: { provider: 'sec', url: href } } : { ok: false, detail: refusal };
    }
    if (await this.issuers.isKnownIssuerOrigin(url.origin)) return { ok: true, request: { provider: 'issuer_page', url: href } };
    return { ok: false, detail: `${url.host} is not the host of any issuer page or document this service has read` };
  }
}
