import { open, stat, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { fromRandomAccessReaderPromise, RandomAccessReader, type Entry, type ZipFile } from 'yauzl';
import { sharedEdgarBudget, type EdgarBudget } from '@app/edgar';
import type { Logger } from '@app/observability';
import type { BulkConfig } from './bulk.config';
import type { ArchiveVersion } from './bulk.checkpoint';

/** An opened submissions.zip: yauzl reads its central directory, then each entry at its offset. */
export interface ZipArchive {
  zip: ZipFile;
  version: ArchiveVersion;
  /** HTTP requests made so far (0 for a file). */
  requests(): number;
  close(): void;
}

export interface HttpZipOptions {
  /** Declared User-Agent, as SEC requires of every request. */
  userAgent: string;
  /** How long every request is held after a 403/429. */
  throttlePauseMs: number;
  /** Bytes per range request. */
  blockBytes: number;
  /** Blocks kept in memory (the central directory's and the entries' read positions, and a read-ahead). */
  cacheBlocks?: number;
  /** The EDGAR budget the archive's range requests take their turns from (as backfill). */
  budget: EdgarBudget;
}

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

const YAUZL_OPTIONS = { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false } as const;

/** Bytes per read of a local archive: one read per MiB, not four small reads per entry. */
const FILE_BLOCK_BYTES = 1024 * 1024;

/**
 * A local file: yauzl reads it through a small cache of large blocks, never whole. Read a record
 * at a time, the central directory and the local headers cost ~4 reads (syscalls) per entry, a
 * good part of the backfill's CPU over the ~900,000 entries of submissions.zip.
 */
export async function openZipFile(path: string): Promise<ZipArchive> {
  const info = await stat(path);
  const reader = new FileRangeReader(await open(path, 'r'), info.size);
  try {
    const zip = await fromRandomAccessReaderPromise(reader, info.size, YAUZL_OPTIONS);
    return { zip, version: { size: info.size, etag: null, last_modified: info.mtime.toISOString() }, requests: () => 0, close: () => zip.close() };
  } catch (error) {
    reader.close(() => undefined);
    throw error;
  }
}

/**
 * A URL: yauzl over HTTP range requests. Reads go through a small cache of large blocks, so the
 * central directory (read a record at a time) and the entries (read in archive order) cost one
 * request per block, not per entry: the real archive (~1.5 GB) is a few hundred requests at SEC's
 * 10 per second, and memory holds `cacheBlocks * blockBytes`, whatever the archive's size.
 */
export async function openZipUrl(url: string, options: HttpZipOptions): Promise<ZipArchive> {
  const reader = new HttpRangeReader(url, options);
  const version = await reader.head();
  const zip = await fromRandomAccessReaderPromise(reader, version.size, YAUZL_OPTIONS);
  return { zip, version, requests: () => reader.requestCount, close: () => zip.close() };
}

/** How a bulk load reads a URL: null without a declared User-Agent (a local file needs none). */
export function httpZipOptions(config: BulkConfig, logger: Logger, budget?: EdgarBudget): HttpZipOptions | null {
  const ua = config.EDGAR_USER_AGENT;
  if (!ua) return null;
  return {
    userAgent: ua,
    throttlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS,
    blockBytes: config.BULK_HTTP_BLOCK_BYTES,
    budget:
      budget ??
      sharedEdgarBudget({
        maxRps: config.EDGAR_MAX_RPS,
        ...(config.EDGAR_BUDGET_REDIS_URL ? { redisUrl: config.EDGAR_BUDGET_REDIS_URL } : {}),
        keyPrefix: config.EDGAR_BUDGET_KEY_PREFIX,
        logger,
      }),
  };
}

export function openZipArchive(source: string, http: HttpZipOptions | null): Promise<ZipArchive> {
  if (!isUrl(source)) return openZipFile(source);
  if (!http) throw new Error('reading a URL needs a declared User-Agent (EDGAR_USER_AGENT)');
  return openZipUrl(source, http);
}

const STORED = 0;
const DEFLATED = 8;

/**
 * The bytes of one entry (an entity file is at most a few MB; the archive is never held whole).
 * A stored or deflated entry is read raw in one piece and inflated in one call: a zlib stream per
 * entry cost ~3 times as much CPU over submissions.zip's ~900,000 small entries. Anything else
 * (encrypted, another method) goes through yauzl's stream, which refuses it.
 */
export async function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  if (entry.isEncrypted() || (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED)) return streamed(await zip.openReadStreamPromise(entry));
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const raw = await streamed(
    await new Promise<Readable>((resolve, reject) =>
      zip.openReadStreamLowLevel(fileDataStart, entry.compressedSize, 0, entry.compressedSize, false, null, (err, stream) => (err ? reject(err) : resolve(stream))),
    ),
  );
  const bytes = entry.compressionMethod === STORED ? raw : inflateRawSync(raw);
  // What yauzl's validateEntrySizes checks on its stream.
  if (bytes.length !== entry.uncompressedSize) throw new Error(`zip entry ${entry.fileName}: ${bytes.length} bytes, the directory says ${entry.uncompressedSize}`);
  return bytes;
}

async function streamed(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * yauzl's reads served from a few large cached blocks: the central directory (read a record at a
 * time) and the entries (read in archive order) cost one fetch per block, not per record; the next
 * block is fetched ahead. Memory: `cacheBlocks * blockBytes`, whatever the archive's size.
 */
abstract class BlockCachedReader extends RandomAccessReader {
  protected size = 0;
  private readonly blocks = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly blockBytes: number,
    private readonly cacheBlocks: number,
  ) {
    super();
  }

  /** The bytes [start, end] (inclusive, as an HTTP range). */
  protected abstract fetchRange(start: number, end: number): Promise<Buffer>;

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.chunks(start, end), { objectMode: false });
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    void (async () => {
      let at = offset;
      for await (const chunk of this.chunks(position, position + length)) {
        chunk.copy(buffer, at);
        at += chunk.length;
      }
    })().then(
      // fs.read's callback shape: yauzl checks the bytes read.
      () => (callback as (err: Error | null, bytesRead: number) => void)(null, length),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** The bytes [start, end) as slices of cached blocks; the next block is fetched ahead. */
  private async *chunks(start: number, end: number): AsyncGenerator<Buffer> {
    const size = this.blockBytes;
    for (let block = Math.floor(start / size); block * size < end; block += 1) {
      const bytes = await this.block(block);
      if ((block + 1) * size < this.size) void this.block(block + 1).catch(() => undefined);
      const from = Math.max(start, block * size) - block * size;
      const to = Math.min(end, (block + 1) * size) - block * size;
      yield bytes.subarray(from, to);
    }
  }

  private block(index: number): Promise<Buffer> {
    const cached = this.blocks.get(index);
    if (cached) {
      this.blocks.delete(index);
      this.blocks.set(index, cached);
      return cached;
    }
    const start = index * this.blockBytes;
    const end = Math.min(this.size, start + this.blockBytes) - 1;
    const promise = this.fetchRange(start, end);
    this.blocks.set(index, promise);
    promise.catch(() => this.blocks.delete(index));
    while (this.blocks.size > this.cacheBlocks) this.blocks.delete(this.blocks.keys().next().value as number);
    return promise;
  }
}

class FileRangeReader extends BlockCachedReader {
  constructor(
    private readonly file: FileHandle,
    size: number,
  ) {
    // Two regions are read at once (the central directory and the entries), each with its read-ahead.
    super(FILE_BLOCK_BYTES, 4);
    this.size = size;
  }

  protected async fetchRange(start: number, end: number): Promise<Buffer> {
    const bytes = Buffer.allocUnsafe(end - start + 1);
    for (let at = 0; at < bytes.length; ) {
      const { bytesRead } = await this.file.read(bytes, at, bytes.length - at, start + at);
      if (bytesRead === 0) throw new Error(`unexpected end of the archive at byte ${start + at} of ${this.size}`);
      at += bytesRead;
    }
    return bytes;
  }

  override close(callback: (err: Error | null) => void): void {
    this.file.close().then(
      () => callback(null),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

class HttpRangeReader extends BlockCachedReader {
  requestCount = 0;
  private etag: string | null = null;

  constructor(
    private readonly url: string,
    private readonly options: HttpZipOptions,
  ) {
    super(options.blockBytes, Math.max(4, options.cacheBlocks ?? 6));
  }

  async head(): Promise<ArchiveVersion> {
    const response = await this.request('HEAD', {});
    const size = Number(response.headers.get('content-length'));
    if (!Number.isSafeInteger(size) || size <= 0) throw new Error(`HEAD ${this.url}: no Content-Length`);
    this.size = size;
    this.etag = response.headers.get('etag');
    return { size, etag: this.etag, last_modified: response.headers.get('last-modified') };
  }

  protected async fetchRange(start: number, end: number): Promise<Buffer> {
    const response = await this.request('GET', { Range: `bytes=${start}-${end}` });
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    if (response.status !== 206 || !range || Number(range[1]) !== start || Number(range[2]) !== end) {
      await response.body?.cancel();
      throw new Error(`GET ${this.url} bytes=${start}-${end}: answered ${response.status} ${response.headers.get('content-range') ?? ''} (range requests unsupported?)`);
    }
    const etag = response.headers.get('etag');
    if (Number(range[3]) !== this.size || (this.etag && etag && etag !== this.etag)) {
      await response.body?.cancel();
      throw new Error(`${this.url} changed while it was read (SEC republishes it nightly): run again to start over on the new archive`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length !== end - start + 1) throw new Error(`GET ${this.url} bytes=${start}-${end}: got ${bytes.length} bytes`);
    return bytes;
  }

  /** One request under the shared budget: 403/429 pause every EDGAR request, 5xx and network errors are retried. */
  private async request(method: 'GET' | 'HEAD', headers: Record<string, string>): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      await this.options.budget.acquire('backfill');
      this.requestCount += 1;
      let response: Response;
      try {
        response = await fetch(this.url, {
          method,
          headers: { 'User-Agent': this.options.userAgent, 'Accept-Encoding': 'identity', ...headers },
          signal: AbortSignal.timeout(120_000),
        });
      } catch (error) {
        if (attempt >= 5) throw new Error(`${method} ${this.url} failed after ${attempt} attempts: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        await sleep(500 * 2 ** (attempt - 1));
        continue;
      }
      if (response.status === 403 || response.status === 429) {
        await response.body?.cancel();
        if (attempt >= 5) throw new Error(`${method} ${this.url}: still ${response.status} after ${attempt} attempts`);
        this.options.budget.pauseFor(this.options.throttlePauseMs);
        continue;
      }
      if (response.status >= 500 && attempt < 5) {
        await response.body?.cancel();
        await sleep(500 * 2 ** (attempt - 1));
        continue;
      }
      if (response.status >= 400) {
        await response.body?.cancel();
        throw new Error(`${method} ${this.url} answered ${response.status}`);
      }
      return response;
    }
  }
}

/**
 * The lines of one entry, streamed (an INFOTABLE.tsv is ~1 GB: never held whole), without their
 * terminators (LF or CRLF). Decoded as UTF-8.
 */
export async function* entryLines(zip: ZipFile, entry: Entry): AsyncGenerator<string> {
  const stream = await zip.openReadStreamPromise(entry);
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of stream) {
    const text = rest + decoder.decode(chunk as Buffer, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      yield text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.decode();
  if (rest) yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
