import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { parseRecentFilings, RequestLimiter } from '@app/edgar';
import { PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { defaultFixturesDir, fixtureSubmissionsEntries, startFixtureServer, SUBMISSIONS_ZIP_PATH, writeZip, type FixtureServer } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { RunStoppedError } from '../run-stopped.error';
import { BulkBackfillService, type BulkBackfillCommand } from './bulk-backfill.service';
import { bulkCheckpointSchema, type BulkCheckpoint } from './bulk.checkpoint';
import { bulkConfigSchema } from './bulk.config';

const UA = 'Filings Platform tests ops@filings.example';
const logger = createLogger({ level: 'silent' });
const topics = { filings: TOPICS.filings, companies: TOPICS.companies };

class ArrayPublisher implements RecordPublisher {
  readonly records: RecordEnvelope[] = [];
  /** A broker outage from this many publishes on (PublishGaveUpError). */
  constructor(private readonly acceptedPublishes = Infinity) {}
  private publishes = 0;
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.publishes += 1;
    if (this.publishes > this.acceptedPublishes) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('ECONNREFUSED')));
    for (const r of records) {
      const v = validateRecord(topic, r);
      if (!v.ok) throw new Error(v.error);
    }
    this.records.push(...records);
    return Promise.resolve();
  }
}

let dir: string;
let zipPath: string;
let fixtures: FixtureServer;
let zipUrl: string;
/** Every accession of the three real submissions files, before they were split into main + overflow. */
let accessions: string[];

function service(publisher: RecordPublisher, env: Record<string, string> = {}): BulkBackfillService {
  const config = bulkConfigSchema.parse({ EDGAR_USER_AGENT: UA, KAFKA_BROKERS: '127.0.0.1:1', LOG_LEVEL: 'silent', ...env });
  return new BulkBackfillService(config, publisher, topics, logger);
}

const run = (s: BulkBackfillService, command: Partial<BulkBackfillCommand> & { checkpointPath: string }) =>
  s.execute({ source: zipPath, budget: new RequestLimiter(10), ...command });

const checkpointAt = (path: string): BulkCheckpoint => bulkCheckpointSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
const filingKeys = (p: ArrayPublisher) => p.records.filter((r) => r.schema === 'filing@1').map((r) => r.key);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-int-'));
  zipPath = join(dir, 'submissions.zip');
  await writeZip(zipPath, fixtureSubmissionsEntries());
  fixtures = await startFixtureServer({ routes: [{ path: SUBMISSIONS_ZIP_PATH, file: zipPath, contentType: 'application/zip' }] });
  zipUrl = `${fixtures.url}${SUBMISSIONS_ZIP_PATH}`;
  accessions = ['CIK0000717423.json', 'CIK0000789019.json', 'CIK0001318605.json']
    .flatMap((f) => parseRecentFilings(readFileSync(join(defaultFixturesDir(), 'submissions', f))))
    .filter((f) => f.form && f.filingDate)
    .map((f) => f.accessionNumber)
    .sort();
});

afterAll(async () => {
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bulk backfill of submissions.zip', () => {
  it('from a file: every filing of every entity file (overflow files in either order), a company per ticker, a finished checkpoint', async () => {
    const publisher = new ArrayPublisher();
    const checkpointPath = join(dir, 'file', 'checkpoint.json');
    const summary = await run(service(publisher), { checkpointPath });
    expect(summary).toMatchObject({ status: 'finished', entries_total: 5, entries_done: 5, entries_read: 5, orphan_overflow: 0, unreadable_entries: 0, http_requests: 0 });
    expect(filingKeys(publisher).sort()).toEqual(accessions);
    expect(summary.filings_published).toBe(accessions.length);
    expect(publisher.records.filter((r) => r.schema === 'company@1').map((r) => r.key).sort()).toEqual(['MSFT:US', 'MUR:US', 'TSLA:US']);
    // The overflow files' filings carry their company's name from its main file.
    const overflowed = publisher.records.filter((r) => r.provenance.source_url?.endsWith('-submissions-001.json'));
    expect(overflowed).toHaveLength(610 + 601);
    expect(new Set(overflowed.map((r) => (r.data as { company_name: string }).company_name))).toEqual(new Set(['MICROSOFT CORP', 'Tesla, Inc.']));

    const checkpoint = checkpointAt(checkpointPath);
    expect(checkpoint).toMatchObject({
      kind: 'bulk-submissions',
      source: zipPath,
      entries_total: 5,
      entries_done: 5,
      records_published: publisher.records.length,
      last_done: 'CIK0001318605-submissions-001.json',
      finished_at: expect.any(String),
    });
    // MUR lists an overflow file the archive does not hold: its name stays pending, nothing else does.
    expect(Object.keys(checkpoint.pending_names)).toEqual(['0000717423']);

    const again = await run(service(publisher), { checkpointPath });
    expect(again).toMatchObject({ status: 'already_finished', entries_read: 0, records_published: 0 });
  });

  it('from the URL, over range requests of the fixture EDGAR server: the same records, a few requests', async () => {
    const fromFile = new ArrayPublisher();
    await run(service(fromFile), { checkpointPath: join(dir, 'same', 'file.json') });
    const fromUrl = new ArrayPublisher();
    const summary = await run(service(fromUrl, { BULK_HTTP_BLOCK_BYTES: String(64 * 1024) }), { source: zipUrl, checkpointPath: join(dir, 'same', 'url.json') });
    expect(summary).toMatchObject({ status: 'finished', entries_done: 5 });
    const ids = (p: ArrayPublisher) => p.records.map((r) => r.id).sort();
    expect(ids(fromUrl)).toEqual(ids(fromFile));
    const zipRequests = fixtures.requests.filter((r) => r.path === SUBMISSIONS_ZIP_PATH);
    const blocks = Math.ceil(readFileSync(zipPath).length / (64 * 1024));
    // A HEAD, then each 64 KiB block once (central directory and entries alike), none twice.
    expect(summary.http_requests).toBe(zipRequests.length);
    expect(zipRequests.length).toBeLessThanOrEqual(blocks + 1);
    expect(zipRequests.every((r) => r.userAgent === UA && (r.status === 206 || r.method === 'HEAD'))).toBe(true);
  });

  it('stopped half-way, then rerun: skips the entries done, names overflow files of a skipped main file, publishes each record once', async () => {
    const checkpointPath = join(dir, 'resume', 'checkpoint.json');
    const first = new ArrayPublisher();
    const stop = new AbortController();
    const s = service(first, { BULK_PUBLISH_BATCH: '300' });
    const stopped = await run(s, {
      checkpointPath,
      signal: stop.signal,
      onCheckpoint: (c) => {
        if (c.entries_done >= 2) stop.abort();
      },
    });
    expect(stopped.status).toBe('stopped');
    const checkpoint = checkpointAt(checkpointPath);
    expect(checkpoint.finished_at).toBeNull();
    expect(checkpoint.entries_done).toBeGreaterThanOrEqual(2);
    expect(checkpoint.entries_done).toBeLessThan(5);
    expect(checkpoint.records_published).toBe(first.records.length);

    const second = new ArrayPublisher();
    const resumed = await run(service(second, { BULK_PUBLISH_BATCH: '300' }), { checkpointPath });
    expect(resumed).toMatchObject({ status: 'finished', entries_skipped: checkpoint.entries_done, entries_read: 5 - checkpoint.entries_done, orphan_overflow: 0 });
    const all = [...first.records, ...second.records];
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all.filter((r) => r.schema === 'filing@1').map((r) => r.key).sort()).toEqual(accessions);
    // Same ids as one uninterrupted run: the overflow file read after the restart was named from the checkpoint.
    const full = new ArrayPublisher();
    await run(service(full), { checkpointPath: join(dir, 'resume', 'full.json') });
    expect(all.map((r) => r.id).sort()).toEqual(full.records.map((r) => r.id).sort());
    expect(checkpointAt(checkpointPath)).toMatchObject({ entries_done: 5, records_published: all.length, finished_at: expect.any(String) });
  });

  it('stopped by a broker outage: says where the checkpoint resumes, and the rerun publishes the rest', async () => {
    const checkpointPath = join(dir, 'outage', 'checkpoint.json');
    const first = new ArrayPublisher(2);
    const error = (await run(service(first, { BULK_PUBLISH_BATCH: '300' }), { checkpointPath }).catch((e: unknown) => e)) as RunStoppedError;
    expect(error).toBeInstanceOf(RunStoppedError);
    const checkpoint = checkpointAt(checkpointPath);
    expect(checkpoint.finished_at).toBeNull();
    expect(checkpoint.entries_done).toBeGreaterThan(0);
    expect(checkpoint.entries_done).toBeLessThan(5);
    expect(checkpoint.records_published).toBe(first.records.length);
    expect(error.stop.done).toMatchObject({ entries_total: 5, entries_done: checkpoint.entries_done, records_published: first.records.length, checkpoint: checkpointPath });
    expect(error.message).toMatch(new RegExp(`^stopped after ${checkpoint.entries_done} of 5 entries done \\(${first.records.length} records published in this run\\): gave up publishing`));
    expect(error.message).toContain(`; checkpoint ${checkpointPath}: run the same command again to resume at entry ${checkpoint.entries_done + 1}`);

    const second = new ArrayPublisher();
    expect(await run(service(second, { BULK_PUBLISH_BATCH: '300' }), { checkpointPath })).toMatchObject({ status: 'finished', entries_skipped: checkpoint.entries_done });
    expect([...first.records, ...second.records].filter((r) => r.schema === 'filing@1').map((r) => r.key).sort()).toEqual(accessions);
  });

  it('a checkpoint older than what was published (a run killed before writing it): only the entries after it are published again', async () => {
    const checkpointPath = join(dir, 'stale', 'checkpoint.json');
    const seen: BulkCheckpoint[] = [];
    const first = new ArrayPublisher();
    await run(service(first, { BULK_PUBLISH_BATCH: '300' }), { checkpointPath, onCheckpoint: (c) => seen.push(c) });
    const stale = seen.find((c) => c.entries_done > 0 && c.entries_done < 5)!;
    writeFileSync(checkpointPath, JSON.stringify(stale));
    const second = new ArrayPublisher();
    const rerun = await run(service(second, { BULK_PUBLISH_BATCH: '300' }), { checkpointPath });
    expect(rerun).toMatchObject({ status: 'finished', entries_skipped: stale.entries_done });
    // The window: what the stale checkpoint had not yet counted, published again with the same ids.
    expect(second.records.length).toBe(first.records.length - stale.records_published);
    const firstIds = new Set(first.records.map((r) => r.id));
    expect(second.records.every((r) => firstIds.has(r.id))).toBe(true);
  });

  it('starts over when the archive is not the one the checkpoint is about', async () => {
    const checkpointPath = join(dir, 'other', 'checkpoint.json');
    await run(service(new ArrayPublisher()), { checkpointPath });
    const checkpoint = checkpointAt(checkpointPath);
    writeFileSync(checkpointPath, JSON.stringify({ ...checkpoint, archive: { ...checkpoint.archive, size: checkpoint.archive.size + 1 } }));
    const publisher = new ArrayPublisher();
    expect(await run(service(publisher), { checkpointPath })).toMatchObject({ status: 'finished', entries_skipped: 0, entries_read: 5 });
    expect(filingKeys(publisher)).toHaveLength(accessions.length);
  });
});
