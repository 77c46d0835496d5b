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
    const sec = secPathOf(href, this.endpoints) !== null;
    if (declared === 'sec' || (declared === undefined && sec)) {
      return sec
        ? { ok: true, request: { provider: 'sec', url: href } }
        : { ok: false, detail: `${url.host} is not an EDGAR host (www.sec.gov, data.sec.gov or the configured EDGAR base URLs)` };
    }
    if (await this.issuers.isKnownIssuerOrigin(url.origin)) return { ok: true, request: { provider: 'issuer_page', url: href } };
    return { ok: false, detail: `${url.host} is not the host of any issuer page or document this service has read` };
  }
}
