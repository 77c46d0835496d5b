import { loadConfig } from '@app/config';
import { TOPICS, validateRecord, type DocumentTextRecordV1, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { startFixtureServer, type FixtureServer } from '@app/testing';
import type { DeckLink } from './document-text.mapper';
import { ingestDecksConfigSchema } from './ingest-decks.config';
import { DeckPublishStoppedError, DeckRejectedError, IngestDecksService, isMessageTooLarge } from './ingest-decks.service';
import type { RecordPublisher } from './record.publisher';

const UA = 'Filings Platform Tests ops@filings.example';
const DECK_PATH = '/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf';

class MemoryPublisher implements RecordPublisher {
  readonly records: DocumentTextRecordV1[] = [];
  readonly calls: number[] = [];
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.calls.push(records.length);
    for (const r of records) {
      const result = validateRecord(topic, r);
      if (!result.ok) throw new Error(result.error);
      this.records.push(r as DocumentTextRecordV1);
    }
  }
}

describe('IngestDecksService against the fixture IR server', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer({
      routes: [
        { path: DECK_PATH, file: 'decks/FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf' },
        // An HTML page served as a PDF, and one served honestly as HTML at a .pdf path.
        { path: '/assets/broken.pdf', file: 'ir-pages/FRPH-frppresent.html', contentType: 'application/pdf' },
        { path: '/assets/page.pdf', file: 'ir-pages/FRPH-frppresent.html' },
      ],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  function service(env: Record<string, string> = {}) {
    // The fixture server listens on 127.0.0.1.
    const config = loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: UA, DECKS_ALLOW_PRIVATE_HOSTS: 'true', ...env });
    const publisher = new MemoryPublisher();
    return { publisher, service: new IngestDecksService(config, publisher, TOPICS.documentTexts, createLogger({ level: 'silent' })) };
  }
  const link = (path: string): DeckLink => ({ url: `${server.url}${path}`, cik: '0000844059', ticker: 'FRPH', title: 'Investor Presentation January 2015', kind: 'presentation' });

  it('publishes the deck once, then skips the same URL with the same bytes', async () => {
    const { publisher, service: decks } = service();
    const before = server.requests.length;
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live', runId: 'run_spec' })).resolves.toMatchObject({ status: 'published', pages: 36, records: 1, docType: 'slide_deck' });
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live', runId: 'run_spec' })).resolves.toMatchObject({ status: 'unchanged' });
    expect(publisher.calls).toEqual([1]);
    const [record] = publisher.records as [DocumentTextRecordV1];
    expect(record).toMatchObject({
      key: `${server.url}${DECK_PATH}`,
      correlation_id: 'run_spec',
      provenance: { quote: 'FRP Holdings, Inc. (fka Patriot Transportation Holding, Inc.)', content_hash: expect.stringMatching(/^sha256:dfe8b72984ad400c/) as unknown },
      data: { title: 'Investor Presentation January 2015', pdf: { bytes: 2_740_021 }, page_count: 36 },
    });
    const requests = server.requests.slice(before);
    expect(requests.map((r) => [r.path, r.status, r.userAgent])).toEqual([
      [DECK_PATH, 200, UA],
      [DECK_PATH, 200, UA],
    ]);
  });

  it.each([
    ['/assets/missing.pdf', 'not_found', /HTTP 404/],
    ['/assets/broken.pdf', 'not_pdf', /the body \(application\/pdf\) does not start with %PDF-/],
    ['/assets/page.pdf', 'content_type', /content type "text\/html" is not application\/pdf/],
  ])('rejects %s as %s', async (path, code, message) => {
    const { publisher, service: decks } = service();
    const error = await decks.execute({ link: link(path), origin: 'live' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeckRejectedError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) as unknown });
    expect(publisher.records).toHaveLength(0);
  });

  it('rejects a PDF on a non-public address (127.0.0.1) unless DECKS_ALLOW_PRIVATE_HOSTS, without requesting it', async () => {
    const { publisher, service: decks } = service({ DECKS_ALLOW_PRIVATE_HOSTS: 'false' });
    const before = server.requests.length;
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live' })).rejects.toMatchObject({
      code: 'non_public_address',
      message: expect.stringMatching(/resolves to 127\.0\.0\.1, a loopback, private, link-local or other special-use address$/) as unknown,
    });
    expect(server.requests.length).toBe(before);
    expect(publisher.records).toHaveLength(0);
  });

  it('rejects a record the broker refuses as too large instead of retrying it forever', async () => {
    const config = loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: UA, DECKS_ALLOW_PRIVATE_HOSTS: 'true' });
    // What kafkajs throws: its protocol error, sometimes wrapped in a non-retriable one.
    const protocolError = Object.assign(new Error('The request included a message larger than the max message size the server will accept'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE' });
    const wrapped = Object.assign(new Error(protocolError.message, { cause: protocolError }), { name: 'KafkaJSNonRetriableError' });
    const refusing: RecordPublisher = { publish: () => Promise.reject(wrapped) };
    const decks = new IngestDecksService(config, refusing, TOPICS.documentTexts, createLogger({ level: 'silent' }));
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live' })).rejects.toMatchObject({ code: 'record_too_large', message: expect.stringMatching(/part 0 of 1 is over the broker's message size limit/) as unknown });
    expect(isMessageTooLarge(protocolError)).toBe(true);
    expect(isMessageTooLarge(new Error('Connection error: ECONNREFUSED'))).toBe(false);
  });

  it('stops (not a rejection: never dead-lettered) when the broker does not take a part within the retry bound; again, it publishes', async () => {
    const config = loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: UA, DECKS_ALLOW_PRIVATE_HOSTS: 'true' });
    const memory = new MemoryPublisher();
    let down = true;
    const outage: RecordPublisher = {
      publish: (topic, records) => (down ? Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('Connection error: connect ECONNREFUSED'))) : memory.publish(topic, records)),
    };
    const decks = new IngestDecksService(config, outage, TOPICS.documentTexts, createLogger({ level: 'silent' }));
    const stopped = await decks.execute({ link: link(DECK_PATH), origin: 'live' }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(DeckPublishStoppedError);
    expect(stopped).not.toBeInstanceOf(DeckRejectedError);
    expect(stopped).toMatchObject({ url: `${server.url}${DECK_PATH}`, partsPublished: 0, parts: 1 });
    expect((stopped as Error).message).toMatch(/^stopped with 0 of 1 parts of http:\/\/127\.0\.0\.1:\d+\/assets\/presentations\/.*\.pdf published: gave up publishing 1 records to .* after 300 s: Connection error: connect ECONNREFUSED; run the same command again$/);
    down = false;
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live' })).resolves.toMatchObject({ status: 'published', records: 1 });
    expect(memory.records).toHaveLength(1);
  }, 30_000); // two extractions of a 36-page deck: seconds on a loaded 2-core machine

  it('rejects a PDF over DECKS_MAX_BYTES while reading it', async () => {
    const { service: decks } = service({ DECKS_MAX_BYTES: '1000000' });
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live' })).rejects.toMatchObject({ code: 'too_large', message: expect.stringMatching(/over DECKS_MAX_BYTES \(1000000\)/) as unknown });
  });

  it('tries a 503 again, and gives up as fetch_failed after DECKS_FETCH_ATTEMPTS', async () => {
    const { publisher, service: decks } = service({ DECKS_FETCH_ATTEMPTS: '2' });
    server.failNext(DECK_PATH, 503, 1);
    await expect(decks.execute({ link: link(DECK_PATH), origin: 'live' })).resolves.toMatchObject({ status: 'published' });
    server.failNext(DECK_PATH, 503, 2);
    const { service: fresh } = service({ DECKS_FETCH_ATTEMPTS: '2' });
    await expect(fresh.execute({ link: link(DECK_PATH), origin: 'live' })).rejects.toMatchObject({ code: 'fetch_failed', message: expect.stringMatching(/HTTP 503 \(2 attempts\)/) as unknown });
    expect(publisher.records).toHaveLength(1);
  });
});
