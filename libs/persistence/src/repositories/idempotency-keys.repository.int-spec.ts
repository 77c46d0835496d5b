import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const windows = { ttlSeconds: 86_400, abandonedAfterSeconds: 60 };
const response = { statusCode: 201, headers: { 'content-type': 'application/json; charset=utf-8', location: '/v1/x/1' }, body: '{"id":"1","b":2,"a":1}' };

describe('IdempotencyKeysRepository (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: IdempotencyKeysRepository;
  const age = (key: string, seconds: number) => ds.query(`UPDATE idempotency_keys SET created_at = now() - make_interval(secs => $2) WHERE key = $1`, [key, seconds]);

  beforeAll(async () => {
    db = await createTestDatabase('idem');
    ds = createDataSource({ url: db.url });
    await ds.initialize();
    repo = new IdempotencyKeysRepository(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('the migration makes the table the entity declares', async () => {
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query).filter((q) => q.includes('idempotency_keys'))).toEqual([]);
  });

  it('claims a key once; a second claim sees it running, then completed with the response byte for byte', async () => {
    expect(await repo.claim('acct_a', 'k1', 'h1', windows)).toEqual({ kind: 'claimed' });
    expect(await repo.claim('acct_a', 'k1', 'h1', windows)).toEqual({ kind: 'running', requestHash: 'h1' });
    await repo.complete('acct_a', 'k1', response);
    expect(await repo.claim('acct_a', 'k1', 'h2', windows)).toEqual({ kind: 'completed', requestHash: 'h1', response });
    // Keys are per account.
    expect(await repo.claim('acct_b', 'k1', 'h2', windows)).toEqual({ kind: 'claimed' });
  });

  it('two claims at once: exactly one gets the key', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, () => repo.claim('acct_a', 'race', 'h', windows)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
  });

  it('an expired key, or a request abandoned mid-way, is taken over; a release gives the key back', async () => {
    await repo.claim('acct_a', 'old', 'h1', windows);
    await repo.complete('acct_a', 'old', response);
    await age('old', 86_401);
    expect(await repo.claim('acct_a', 'old', 'h2', windows)).toEqual({ kind: 'claimed' });
    expect(await repo.claim('acct_a', 'old', 'h2', windows)).toEqual({ kind: 'running', requestHash: 'h2' });

    await repo.claim('acct_a', 'stuck', 'h1', windows);
    await age('stuck', 30);
    expect((await repo.claim('acct_a', 'stuck', 'h1', windows)).kind).toBe('running');
    await age('stuck', 61);
    expect(await repo.claim('acct_a', 'stuck', 'h1', windows)).toEqual({ kind: 'claimed' });

    await repo.release('acct_a', 'stuck');
    expect(await repo.claim('acct_a', 'stuck', 'h3', windows)).toEqual({ kind: 'claimed' });
    // A completed key is not released.
    await repo.complete('acct_a', 'stuck', response);
    await repo.release('acct_a', 'stuck');
    expect((await repo.claim('acct_a', 'stuck', 'h3', windows)).kind).toBe('completed');
  });

  it('deleteExpired removes keys past the window only', async () => {
    await repo.claim('acct_c', 'gone', 'h', windows);
    await repo.claim('acct_c', 'kept', 'h', windows);
    await age('gone', 90_000);
    expect(await repo.deleteExpired(windows.ttlSeconds)).toBe(1);
    const keys = await ds.query<{ key: string }[]>(`SELECT key FROM idempotency_keys WHERE account_id = 'acct_c'`);
    expect(keys).toEqual([{ key: 'kept' }]);
  });
});
