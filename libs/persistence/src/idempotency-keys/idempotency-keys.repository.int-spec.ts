// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { catalogColumns, schemaDifferences } from '../schema-check';
import { TABLES } from '../tables';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const windows = { ttlSeconds: 86_400, abandonedAfterSeconds: 60 };
const CLAIMED = { kind: 'claimed', claimId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
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

  it('the migration makes the table the spec declares', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences.filter((q) => q.includes('idempotency_keys'))).toEqual([]);
  });

  /** Claims the key, expecting to get it; returns the claim id. */
  const claimed = async (account: string, key: string, hash: string): Promise<string> => {
    const claim = await repo.claim(account, key, hash, windows);
    expect(claim).toEqual(CLAIMED);
    return (claim as { claimId: string }).claimId;
  };

  it('claims a key once; a second claim sees it running, then completed with the response byte for byte', async () => {
    const id = await claimed('acct_a', 'k1', 'h1');
    expect(await repo.claim('acct_a', 'k1', 'h1', windows)).toEqual({ kind: 'running', requestHash: 'h1' });
    expect(await repo.complete('acct_a', 'k1', id, response)).toBe(true);
    expect(await repo.claim('acct_a', 'k1', 'h2', windows)).toEqual({ kind: 'completed', requestHash: 'h1', response });
    // Keys are per account.
    await claimed('acct_b', 'k1', 'h2');
  });

  it('two claims at once: exactly one gets the key', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, () => repo.claim('acct_a', 'race', 'h', windows)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
  });

  it('an expired key, or a request abandoned mid-way, is taken over; a release gives the key back', async () => {
    await repo.complete('acct_a', 'old', await claimed('acct_a', 'old', 'h1'), response);
    await age('old', 86_401);
    await claimed('acct_a', 'old', 'h2');
    expect(await repo.claim('acct_a', 'old', 'h2', windows)).toEqual({ kind: 'running', requestHash: 'h2' });

    await claimed('acct_a', 'stuck', 'h1');
    await age('stuck', 30);
    expect((await repo.claim('acct_a', 'stuck', 'h1', windows)).kind).toBe('running');
    await age('stuck', 61);
    const takenOver = await claimed('acct_a', 'stuck', 'h1');

    await repo.release('acct_a', 'stuck', takenOver);
    const third = await claimed('acct_a', 'stuck', 'h3');
    // A completed key is not released.
    await repo.complete('acct_a', 'stuck', third, response);
    await repo.release('acct_a', 'stuck', third);
    expect((await repo.claim('acct_a', 'stuck', 'h3', windows)).kind).toBe('completed');
  });

  it('a request taken over as abandoned neither records over nor releases the claim of the retry that took its key', async () => {
    const slow = await claimed('acct_a', 'slow', 'h');
    await age('slow', 61);
    const retry = await claimed('acct_a', 'slow', 'h');
    expect(retry).not.toBe(slow);
    expect(await repo.complete('acct_a', 'slow', slow, { ...response, body: 'slow' })).toBe(false);
    await repo.release('acct_a', 'slow', slow);
    expect(await repo.claim('acct_a', 'slow', 'h', windows)).toEqual({ kind: 'running', requestHash: 'h' });
    expect(await repo.complete('acct_a', 'slow', retry, response)).toBe(true);
    expect(await repo.claim('acct_a', 'slow', 'h', windows)).toEqual({ kind: 'completed', requestHash: 'h', response });
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
