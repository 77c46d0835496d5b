import { assertPublicUrl, NonPublicAddressError } from '@app/net';

/** Why a download failed. `transient` ones may succeed when tried again; the others never will. */
export type FetchFailureKind = 'not_found' | 'http_error' | 'content_type' | 'not_pdf' | 'too_large' | 'non_public_address' | 'transient';

export class PdfFetchError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PdfFetchError';
  }
}

export interface FetchedPdf {
  /** The URL asked for (the record key), not the one redirects ended at. */
  url: string;
  bytes: Uint8Array;
  contentType: string;
  fetchedAt: Date;
}

export interface PdfFetcherOptions {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** DECKS_ALLOW_PRIVATE_HOSTS: lets URLs reach loopback/private addresses (the fixture server in tests and the sample run). */
  allowPrivate: boolean;
  /** Checks a URL before each connection; defaults to assertPublicUrl with allowPrivate. Tests replace it. */
  assertUrl?: (url: string) => Promise<void>;
}

/** Redirects followed before giving up (each hop is checked like the first URL). */
export const MAX_REDIRECTS = 5;

/**
 * Media types a PDF is accepted under: servers that do not know the file send octet-stream (S3's
 * default is binary/octet-stream), old ones application/x-pdf. The body must be a PDF anyway.
 */
const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/octet-stream', 'binary/octet-stream']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/**
 * Downloads one PDF with the declared User-Agent, within a time limit (all hops, headers and body)
 * and a size limit (checked on Content-Length and again while reading, since the header may be
 * absent or wrong, or the body compressed). The URL comes from a third-party page, so redirects
 * are followed here (at most MAX_REDIRECTS) and every hop's host is checked before connecting:
 * a loopback, private or link-local address (cloud metadata) -> non_public_address, unless
 * allowPrivate. 404/410 -> not_found; other 4xx except 408/429, too many redirects or a
 * redirect without a usable Location -> http_error; 5xx, 408, 429, network and DNS errors and
 * timeouts -> transient; a media type other than the PDF ones -> content_type (an HTML error page
 * served with 200 is the usual case); a body that does not start with `%PDF-` -> not_pdf.
 */
export class PdfFetcher {
  private readonly assertUrl: (url: string) => Promise<void>;

  constructor(private readonly options: PdfFetcherOptions) {
    this.assertUrl = options.assertUrl ?? ((url) => assertPublicUrl(url, { allowPrivate: options.allowPrivate }));
  }

  async fetch(url: string): Promise<FetchedPdf> {
    const { maxBytes } = this.options;
    const fetchedAt = new Date();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let target = url;
    for (let hop = 0; ; hop += 1) {
      await this.check(url, target);
      let response: Response;
      try {
        response = await fetch(target, {
          headers: { 'user-agent': this.options.userAgent, accept: 'application/pdf, application/octet-stream;q=0.9, */*;q=0.1' },
          redirect: 'manual',
          signal,
        });
      } catch (error) {
        throw new PdfFetchError('transient', `GET ${describeTarget(url, target)} failed: ${describe(error)}`, { cause: error });
      }
      try {
        if (REDIRECTS.has(response.status)) {
          target = nextHop(url, target, response, hop);
          continue;
        }
        if (!response.ok) throw statusError(describeTarget(url, target), response.status);
        const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (!PDF_TYPES.has(contentType)) {
          throw new PdfFetchError('content_type', `GET ${url}: content type ${JSON.stringify(contentType || '(none)')} is not application/pdf or another PDF type`);
        }
        const declared = Number(response.headers.get('content-length') ?? NaN);
        // Content-Length counts the encoded body: only trust it when the body is not compressed.
        if (!response.headers.get('content-encoding') && declared > maxBytes) throw tooLarge(url, maxBytes, `Content-Length ${declared}`);
        const bytes = await readLimited(url, response, maxBytes);
        if (!startsWithPdfMagic(bytes)) throw new PdfFetchError('not_pdf', `GET ${url}: the body (${contentType}) does not start with %PDF-`);
        return { url, bytes, contentType, fetchedAt };
      } finally {
        // Releases the connection whatever happened to the body.
        await response.body?.cancel().catch(() => undefined);
      }
    }
  }

  /** The address guard for one hop: a non-public host is permanent; a DNS failure may pass. */
  private async check(url: string, target: string): Promise<void> {
    try {
      await this.assertUrl(target);
    } catch (error) {
      if (error instanceof NonPublicAddressError) throw new PdfFetchError('non_public_address', `GET ${describeTarget(url, target)}: ${error.message}`, { cause: error });
      throw new PdfFetchError('transient', `GET ${describeTarget(url, target)}: cannot resolve: ${describe(error)}`, { cause: error });
    }
  }
}

/** The Location of a redirect, resolved against the hop that sent it; http(s) only. */
function nextHop(url: string, target: string, response: Response, hop: number): string {
  const where = `GET ${describeTarget(url, target)}: HTTP ${response.status}`;
  if (hop >= MAX_REDIRECTS) throw new PdfFetchError('http_error', `${where}: more than ${MAX_REDIRECTS} redirects`);
  const location = response.headers.get('location');
  let next: URL;
  try {
    if (!location) throw new Error('no Location');
    next = new URL(location, target);
  } catch {
    throw new PdfFetchError('http_error', `${where} with Location ${JSON.stringify(location ?? '(none)')}, not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new PdfFetchError('http_error', `${where} redirects to ${next.protocol} URL ${next.href}`);
  return next.href;
}

/** The URL asked for, and the hop reached when redirects led elsewhere. */
function describeTarget(url: string, target: string): string {
  return target === url ? url : `${url} (redirected to ${target})`;
}

function startsWithPdfMagic(bytes: Uint8Array): boolean {
  return bytes.byteLength >= PDF_MAGIC.byteLength && PDF_MAGIC.every((b, i) => bytes[i] === b);
}

function statusError(what: string, status: number): PdfFetchError {
  const message = `GET ${what}: HTTP ${status}`;
  if (status === 404 || status === 410) return new PdfFetchError('not_found', message);
  if (status === 408 || status === 429 || status >= 500) return new PdfFetchError('transient', message);
  return new PdfFetchError('http_error', message);
}

function tooLarge(url: string, maxBytes: number, what: string): PdfFetchError {
  return new PdfFetchError('too_large', `GET ${url}: ${what} is over DECKS_MAX_BYTES (${maxBytes})`);
}

async function readLimited(url: string, response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(url, maxBytes, `body of more than ${total} bytes`);
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof PdfFetchError) throw error;
    throw new PdfFetchError('transient', `GET ${url}: body failed: ${describe(error)}`, { cause: error });
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici puts the useful part (ECONNREFUSED, ENOTFOUND) in the cause of its "fetch failed".
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name === 'TimeoutError' ? 'timed out' : error.message}${cause}`;
}
