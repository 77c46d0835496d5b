/** Why a download failed. `transient` ones may succeed when tried again; the others never will. */
export type FetchFailureKind = 'not_found' | 'http_error' | 'content_type' | 'too_large' | 'transient';

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
}

/** Media types a PDF is accepted under; servers that do not know the file send octet-stream. */
const PDF_TYPES = new Set(['application/pdf', 'application/octet-stream']);

/**
 * Downloads one PDF with the declared User-Agent, within a time limit (headers and body) and a
 * size limit (checked on Content-Length and again while reading, since the header may be absent or
 * wrong, or the body compressed). 404/410 -> not_found; other 4xx except 408/429 -> http_error;
 * 5xx, 408, 429, network errors and timeouts -> transient; a media type other than PDF or
 * octet-stream -> content_type (an HTML error page served with 200 is the usual case).
 */
export class PdfFetcher {
  constructor(private readonly options: PdfFetcherOptions) {}

  async fetch(url: string): Promise<FetchedPdf> {
    const { maxBytes } = this.options;
    const fetchedAt = new Date();
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'user-agent': this.options.userAgent, accept: 'application/pdf, application/octet-stream;q=0.9, */*;q=0.1' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new PdfFetchError('transient', `GET ${url} failed: ${describe(error)}`, { cause: error });
    }
    try {
      if (!response.ok) throw statusError(url, response.status);
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!PDF_TYPES.has(contentType)) {
        throw new PdfFetchError('content_type', `GET ${url}: content type ${JSON.stringify(contentType || '(none)')} is not application/pdf or application/octet-stream`);
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      // Content-Length counts the encoded body: only trust it when the body is not compressed.
      if (!response.headers.get('content-encoding') && declared > maxBytes) throw tooLarge(url, maxBytes, `Content-Length ${declared}`);
      return { url, bytes: await readLimited(url, response, maxBytes), contentType, fetchedAt };
    } finally {
      // Releases the connection whatever happened to the body.
      await response.body?.cancel().catch(() => undefined);
    }
  }
}

function statusError(url: string, status: number): PdfFetchError {
  const message = `GET ${url}: HTTP ${status}`;
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
