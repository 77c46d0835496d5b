// A request that reaches the api while it closes (issue 19): problem+json 503 with Retry-After and
// Connection: close, not Fastify's own plain JSON. Real server, real socket: the first request of a
// keep-alive connection is in flight (its body not sent yet) when close() starts, so the connection
// stays open and the pipelined second request arrives during the drain.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@app/observability';
import { createTestDatabase, expectEventually, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { apiConfigSchema } from './config/api.config';

const DOCS = 'https://docs.drain.test';

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext } | undefined;

beforeAll(async () => {
  db = await createTestDatabase('drain');
});

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

it('answers a request that arrives during the drain with a problem+json 503 and closes the connection', async () => {
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: DOCS,
      LOG_LEVEL: 'silent',
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await api.server.listen({ port: 0, host: '127.0.0.1' });
  const port = (api.server.server.address() as { port: number }).port;
  const account = `acct_${randomBytes(6).toString('hex')}`;
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, 'enterprise')`, [account]);
  const { key } = await api.context.keys.createKey({ accountId: account, mode: 'live', label: 'drain' });

  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c) => chunks.push(c));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  // Authenticated, so it waits for its body instead of being answered at once.
  const received = new Promise<void>((resolve) => api!.server.server.once('request', () => resolve()));
  socket.write(`POST /v1/webhook-endpoints HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`);
  await received;
  const closing = api.server.close();
  // The listener closes after the preClose hooks: from then on the server is draining.
  await expectEventually(() => expect(api!.server.server.listening).toBe(false), { timeoutMs: 10_000, intervalMs: 20 });
  socket.write(`{}GET /v1/companies HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  await closed;
  await closing;
  api = undefined;

  const text = Buffer.concat(chunks).toString('utf8');
  const responses = text.split(/(?=HTTP\/1\.1 )/);
  expect(responses).toHaveLength(2);
  expect(responses[0]).toMatch(/^HTTP\/1\.1 422 /);
  const [head = '', body = ''] = responses[1]!.split('\r\n\r\n', 2);
  expect(head).toMatch(/^HTTP\/1\.1 503 /);
  expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
  expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
  expect(head).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(body)).toMatchObject({ type: `${DOCS}/errors/unavailable`, status: 503, detail: 'This server is shutting down; retry the request.' });
});
