import type { DataSource } from 'typeorm';
import { createDataSource, catalogColumns, schemaDifferences, TABLES } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('webhooks_schema');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('webhooks schema', () => {
  it('table specs and migrations agree (what db:check asks)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences).toEqual([]);
  });

  it('the delivery key is the named constraint the projector\'s event insert relies on', async () => {
    const rows = await ds.query<{ conname: string }[]>(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'webhook_deliveries'::regclass AND contype = 'u'`,
    );
    expect(rows.map((r) => r.conname)).toEqual(['webhook_deliveries_event_endpoint_key']);
  });
});
