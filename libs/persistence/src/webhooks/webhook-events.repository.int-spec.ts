// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import type { DataSource } from 'typeorm';
import { createTestDatabase, expectEventually, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { listenForNewDeliveries } from './webhook-dispatch.repository';
import { WebhookEventsRepository, type NewWebhookEvent } from './webhook-events.repository';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('wh_events');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_1', 'one', 'builder')`);
  await ds.query(
    `INSERT INTO webhook_endpoints (id, account_id, url, topics, enabled, deleted_at) VALUES
       ('we_a', 'acct_1', 'https://example.com/a', ARRAY['filing.created'], true, NULL),
       ('we_b', 'acct_1', 'https://example.com/b', ARRAY['filing.created', 'form4.filed'], true, NULL),
       ('we_off', 'acct_1', 'https://example.com/c', ARRAY['filing.created'], false, NULL)`,
  );
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const event = (id: string, type = 'filing.created'): NewWebhookEvent => ({
  id,
  type,
  entityKey: id,
  data: { id },
  sourceTopic: 'edgar.filings.v1',
  sourceRecordId: `rec_${id}`,
  sourceProducedAt: new Date(),
});

describe('WebhookEventsRepository.insertEvents', () => {
  it('inserts many events in one statement, deliveries only for the new ones, and notifies dispatchers at commit only', async () => {
    let notified = 0;
    const listener = await listenForNewDeliveries(db.url, () => (notified += 1), { warn: () => undefined });
    try {
      await ds.transaction(async (m) => {
        const repo = new WebhookEventsRepository(m);
        expect(await repo.insertEvents([event('evt_1'), event('evt_2'), event('evt_3', 'form4.filed')])).toEqual({ events: 3, deliveries: 5, freshness: [] });
        // Not before the commit: a dispatcher woken now would find nothing it can see.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(notified).toBe(0);
      });
      await expectEventually(() => expect(notified).toBe(1));
      // A replay (ids that exist) writes nothing and notifies nobody; a new id among them is inserted.
      const repo = new WebhookEventsRepository(ds);
      expect(await repo.insertEvents([event('evt_1'), event('evt_2')])).toEqual({ events: 0, deliveries: 0, freshness: [] });
      expect(await repo.insertEvents([event('evt_1'), event('evt_4')])).toEqual({ events: 1, deliveries: 2, freshness: [] });
      await expectEventually(() => expect(notified).toBe(2));
      const rows = await ds.query<Array<{ event_id: string; n: number }>>(
        `SELECT event_id, count(*)::int AS n FROM webhook_deliveries GROUP BY event_id ORDER BY event_id`,
      );
      expect(rows).toEqual([
        { event_id: 'evt_1', n: 2 },
        { event_id: 'evt_2', n: 2 },
        { event_id: 'evt_3', n: 1 },
        { event_id: 'evt_4', n: 2 },
      ]);
      // seq follows the order given.
      const seq = await ds.query<Array<{ id: string }>>(`SELECT id FROM webhook_events ORDER BY seq`);
      expect(seq.map((r) => r.id)).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4']);
    } finally {
      await listener.close();
    }
  });
});
