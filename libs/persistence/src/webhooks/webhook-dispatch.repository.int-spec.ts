// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { Pool, type QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { DISPATCH_PLANNER_OPTIONS, WebhookDispatchRepository, type AttemptResult } from './webhook-dispatch.repository';

/**
 * The dispatcher's statements under a burst: thousands of deliveries due in a table whose
 * statistics do not know it (here: never gathered, as on a new deployment; autovacuum is off for
 * the table so that they stay so, as they do for the minute or more before it runs in production).
 */
const BURST = 5_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

let db: TestDatabase;
let ds: DataSource;
let dispatchPool: Pool;
let plainPool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('wh_repo');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  dispatchPool = new Pool({ connectionString: db.url, max: 2, options: DISPATCH_PLANNER_OPTIONS });
  plainPool = new Pool({ connectionString: db.url, max: 2 });
  await ds.query(`ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false)`);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_1', 'one', 'builder')`);
  await ds.query(`INSERT INTO webhook_endpoints (id, account_id, url, topics) VALUES ('we_1', 'acct_1', 'https://example.com/hook', ARRAY['filing.created'])`);
  await ds.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ('we_1', 'sealed')`);
  // History: BURST delivered deliveries; then BURST new ones, due now.
  await insertDeliveries('old', 'succeeded');
  await insertDeliveries('new', 'pending');
}, 60_000);

afterAll(async () => {
  await dispatchPool?.end();
  await plainPool?.end();
  await ds?.destroy();
  await db?.drop();
});

async function insertDeliveries(tag: string, status: string): Promise<void> {
  await ds.query(
    `WITH ev AS (
       INSERT INTO webhook_events (id, type, entity_key, data)
       SELECT 'evt_' || $3 || '_' || g, 'filing.created', 'k' || g, '{"accession":"x"}'::jsonb FROM generate_series(1, $1) g RETURNING id)
     INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
     SELECT 'del_' || ev.id, ev.id, 'we_1', $2, CASE WHEN $2 = 'pending' THEN now() END FROM ev`,
    [BURST, status, tag],
  );
}

/** The statements a repository call sends, without running them. */
async function statementsOf(call: (repo: WebhookDispatchRepository) => Promise<unknown>): Promise<QueryConfig[]> {
  const sent: QueryConfig[] = [];
  const capturing = { query: async (q: QueryConfig | string, values?: unknown[]) => (sent.push(typeof q === 'string' ? { text: q, values } : q), { rows: [] }) } as unknown as Pool;
  await call(new WebhookDispatchRepository(ds, capturing));
  return sent;
}

/** Every node of the plan's tree, as `type on relation (index)`. */
async function planOf(pool: Pool, q: QueryConfig): Promise<string[]> {
  const client = await pool.connect();
  try {
    // EXPLAIN without ANALYZE runs nothing: no row is claimed or changed.
    const r = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${q.text}`, q.values);
    const nodes: string[] = [];
    const walk = (n: PlanNode): void => {
      nodes.push(`${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Name'] ? ` (${n['Index Name']})` : ''}`);
      n.Plans?.forEach(walk);
    };
    walk(r.rows[0]!['QUERY PLAN'][0]!.Plan);
    return nodes;
  } finally {
    client.release();
  }
}

function attempts(n: number): AttemptResult[] {
  return Array.from({ length: n }, (_, i) => ({
    deliveryId: `del_evt_new_${i + 1}`,
    leaseToken: '00000000-0000-4000-8000-000000000000',
    endpointId: 'we_1',
    attempt: 1,
    sentAt: new Date(),
    statusCode: 204,
    durationMs: 3,
    responseExcerpt: '',
    error: null,
    result: 'succeeded' as const,
    nextAttemptAt: null,
  }));
}

/** A scan of every pending (or every) delivery, or a hash join over them: work that grows with the backlog. */
const scansAllPending = (plan: string[]): boolean => plan.some((n) => /^(Bitmap Heap Scan|Seq Scan) on webhook_deliveries$|^Hash Join$/.test(n));

describe('WebhookDispatchRepository under a burst the statistics do not know', () => {
  it('claims by walking the due index in order up to the limit, where the default planner would sort every due row', async () => {
    const [claim] = await statementsOf((repo) => repo.claim(128, 60_000));
    const plan = await planOf(dispatchPool, claim!);
    expect(plan).toContain('Index Scan on webhook_deliveries (webhook_deliveries_due_idx)');
    expect(plan.filter((n) => n.startsWith('Sort'))).toEqual(['Sort']); // the secrets of each endpoint, newest first
    expect(scansAllPending(plan)).toBe(false);
    // What the options prevent: the same statement, planned with the server's defaults.
    const plain = await planOf(plainPool, claim!);
    expect(scansAllPending(plain)).toBe(true);
    expect(plain.filter((n) => n.startsWith('Sort')).length).toBe(2);
  });

  it('records a batch of results by primary key, where the default planner would join every pending row', async () => {
    const [record] = await statementsOf((repo) => repo.recordAttempts(attempts(256), 60_000));
    const plan = await planOf(dispatchPool, record!);
    expect(plan).toContain('Index Scan on webhook_deliveries (webhook_deliveries_pkey)');
    expect(scansAllPending(plan)).toBe(false);
    const plain = await planOf(plainPool, record!);
    expect(scansAllPending(plain)).toBe(true);
  });

  it('gives claims back by primary key', async () => {
    const [release] = await statementsOf((repo) => repo.release(attempts(256).map((a) => ({ id: a.deliveryId, leaseToken: a.leaseToken }))));
    const plan = await planOf(dispatchPool, release!);
    expect(plan).toContain('Index Scan on webhook_deliveries (webhook_deliveries_pkey)');
    expect(scansAllPending(plan)).toBe(false);
  });

  it("claims, records and gives back on the dispatch pool; a claim's result is written once", async () => {
    const repo = new WebhookDispatchRepository(ds, dispatchPool);
    const claimed = await repo.claim(3, 60_000);
    expect(claimed).toHaveLength(3);
    expect(claimed[0]).toMatchObject({ endpointId: 'we_1', url: 'https://example.com/hook', sealedSecrets: ['sealed'], attempts: 0, type: 'filing.created' });
    const [first, second, third] = claimed;
    const result = (d: typeof first): AttemptResult => ({ ...attempts(1)[0]!, deliveryId: d!.id, leaseToken: d!.leaseToken });
    await repo.recordAttempts([result(first), result(second)], 60_000);
    await repo.release([{ id: third!.id, leaseToken: third!.leaseToken }]);
    // The same results again (the claim's token was cleared by the first write): logged, nothing changed.
    await repo.recordAttempts([{ ...result(first), result: 'retry', nextAttemptAt: new Date() }], 60_000);
    const rows = await ds.query<{ id: string; status: string; attempts: number; leased: boolean; token: string | null }[]>(
      `SELECT id, status, attempts, leased_until IS NOT NULL AS leased, lease_token::text AS token FROM webhook_deliveries WHERE id = ANY($1) ORDER BY id`,
      [claimed.map((d) => d.id)],
    );
    expect(rows).toEqual(
      [
        { id: first!.id, status: 'succeeded', attempts: 1, leased: false, token: null },
        { id: second!.id, status: 'succeeded', attempts: 1, leased: false, token: null },
        { id: third!.id, status: 'pending', attempts: 0, leased: false, token: third!.leaseToken },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const logged = await ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1`, [first!.id]);
    expect(logged[0]!.n).toBe(2);
  });
});
