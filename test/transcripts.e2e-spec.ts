// First-party transcripts end to end on real infrastructure: the Citigroup Q4 2024 transcript PDF
// served by the fixture server -> ingest-decks' one-PDF path (its Nest composition root) ->
// Kafka -> projector (the transcripts row and transcript.published in one transaction) ->
// /v1/transcripts/{id}; the webhooks app then delivers the event, signed so that the reference
// Standard Webhooks library verifies it; a replay of the topic makes no second event.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '@app/config';
import { namespacedTopic, webhookEventId } from '@app/contracts';
import { ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import { generateSigningSecret, SecretBox } from '@app/webhooks';
import type { TranscriptDetailBody, TranscriptListBody } from '@app/resources';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestDecksConfigSchema } from '../apps/ingest-decks/src/ingest-decks.config';
import { IngestDecksModule } from '../apps/ingest-decks/src/ingest-decks.module';
import { IngestDecksService } from '../apps/ingest-decks/src/ingest-decks.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';
import { webhooksConfigSchema } from '../apps/webhooks/src/webhooks.config';
import { WebhooksModule } from '../apps/webhooks/src/webhooks.module';

const UA = 'Filings Platform e2e ops@filings.example';
const PATH = '/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf';
const SECRETS_KEY = randomBytes(32).toString('hex');

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let brokers: string[];
let namespace: string;
let api: NestFastifyApplication;
let key: string;
const closers: Array<() => Promise<unknown>> = [];

interface Received {
  headers: Record<string, string>;
  body: string;
}

async function startReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

async function projectorIn(groupId: string): Promise<RunningProjector> {
  const projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: groupId, LOG_LEVEL: 'warn' }),
  );
  closers.push(() => projector.stop());
  return projector;
}

/** ingest-decks --url <the transcript> --cik 831001 --ticker C, through its composition root (a fresh process each time). */
async function ingestTranscript(): Promise<unknown> {
  const config = loadConfig(ingestDecksConfigSchema, {
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
    DECKS_USER_AGENT: UA,
    DECKS_FETCH_ATTEMPTS: '1',
    DECKS_ALLOW_PRIVATE_HOSTS: 'true',
  });
  const app = await NestFactory.createApplicationContext(IngestDecksModule.forRoot({ config, logger: createLogger({ level: 'silent' }) }), { logger: false });
  try {
    return await app.get(IngestDecksService).execute({ link: { url: `${fixtures.url}${PATH}`, cik: '0000831001', ticker: 'C', title: null, kind: null }, origin: 'live', runId: 'run_e2e_transcript' });
  } finally {
    await app.close();
  }
}

const get = async <T>(url: string): Promise<{ status: number; body: T }> => {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
};

const transcriptEvents = async (): Promise<number> => (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events WHERE type = 'transcript.published'`)).rows[0]!.n;

beforeAll(async () => {
  db = await createTestDatabase('transcripts_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  await ensureTopics({ brokers, clientId: 'e2e-admin' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  api = await createApiApp(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: randomBytes(24).toString('hex'), CURSOR_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e2e', 'e2e', 'enterprise')`);
  key = (await api.get<ApiContext>('API_CONTEXT').keys.createKey({ accountId: 'acct_e2e', mode: 'live', label: 'e2e' })).key;
}, 120_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await api?.close();
  await fixtures?.close();
  await pg?.end();
  await db?.drop();
});

describe('transcript PDF -> Kafka -> projector -> /v1/transcripts and a signed transcript.published', () => {
  it('serves the split transcript and delivers its event once, verified with standardwebhooks', async () => {
    const receiver = await startReceiver();
    const secret = generateSigningSecret();
    await pg.query(`INSERT INTO webhook_endpoints (id, account_id, url, topics) VALUES ('we_transcripts', 'acct_e2e', $1, ARRAY['transcript.published'])`, [receiver.url]);
    await pg.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ('we_transcripts', $1)`, [new SecretBox(SECRETS_KEY).seal(secret)]);
    await projectorIn(`projector-${namespace}`);

    expect(await ingestTranscript()).toMatchObject({ status: 'published', pages: 16, records: 1, docType: 'transcript' });
    expect(fixtures.requests.filter((r) => r.path === PATH)).toEqual([expect.objectContaining({ status: 200, userAgent: UA })]);

    // The projector wrote the row and the event in one transaction.
    const url = `${fixtures.url}${PATH}`;
    await expectEventually(async () => expect(await transcriptEvents()).toBe(1), { timeoutMs: 60_000, intervalMs: 250 });
    const list = await get<TranscriptListBody>('/v1/transcripts?symbols=C:US');
    // No company row for C:US in this database: the symbol matches nothing; the unfiltered list has it.
    expect(list.body.data).toEqual([]);
    const all = await get<TranscriptListBody>('/v1/transcripts');
    expect(all.body.data).toHaveLength(1);
    const detail = await get<TranscriptDetailBody>(`/v1/transcripts/${all.body.data[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ ticker: 'C', url, call: { company: 'Citi', date: '2025-01-15' }, participant_count: 13, turn_count: 59, sections: { presentation: 4, qa: 55 } });
    const text = (await get<{ text: string }>(`/v1/documents/${detail.body.document_id}/text`)).body.text;
    for (const turn of detail.body.turns) expect(turn.text).toBe(text.slice(turn.char_start, turn.char_end));
    expect(detail.body.turns[0]).toMatchObject({ speaker: 'Operator', section: 'presentation', page_index: 0 });
    expect(detail.body.turns.at(-1)).toMatchObject({ speaker: 'Operator', section: 'qa', text: "This concludes Citi's Fourth Quarter 2024 Earnings Call. You may now disconnect." });

    // The dispatcher sends it, signed.
    const webhooks = await NestFactory.createApplicationContext(
      WebhooksModule.forRoot(
        webhooksConfigSchema.parse({
          DATABASE_URL: db.url,
          WEBHOOK_SECRETS_KEY: SECRETS_KEY,
          WEBHOOKS_ALLOW_HTTP: 'true',
          WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
          WEBHOOKS_POLL_MS: '50',
          LOG_LEVEL: 'silent',
        }),
      ),
      { logger: false },
    );
    await webhooks.init();
    closers.push(() => webhooks.close());
    await expectEventually(() => expect(receiver.received).toHaveLength(1), { timeoutMs: 30_000 });
    const [delivery] = receiver.received;
    const verified = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { type: string; data: unknown };
    expect(() => new Webhook(generateSigningSecret()).verify(delivery!.body, delivery!.headers)).toThrow();
    expect(delivery!.headers['webhook-id']).toBe(webhookEventId('transcript.published', url));
    expect(verified.type).toBe('transcript.published');
    // The data is the transcript exactly as the API serves it.
    expect(verified.data).toEqual(detail.body);
  });

  it('makes no second event when the PDF is ingested again or the topic is replayed', async () => {
    // Another ingest-decks process: the same bytes make the same record ids.
    expect(await ingestTranscript()).toMatchObject({ status: 'published' });
    // A projector of a fresh group replays the topic from the beginning into the same database.
    const replay = await projectorIn(`replay-${namespace}`);
    await expectEventually(() => expect(replay.counters().processed).toBeGreaterThanOrEqual(2), { timeoutMs: 60_000, intervalMs: 250 });
    expect(replay.service.counts.events).toBe(0);
    expect(await transcriptEvents()).toBe(1);
    const deliveries = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = 'we_transcripts'`);
    expect(deliveries.rows[0]!.n).toBe(1);
    expect((await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM transcripts`)).rows[0]!.n).toBe(1);
  });
});
