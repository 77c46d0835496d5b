import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import http, { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { namespacedTopic, TOPICS, webhookEventId, type FilingRecordV1 } from '@app/contracts';
import { ensureTopics, RecordProducer } from '@app/messaging';
import { runMigrations } from '@app/persistence';
import { generateSigningSecret, SecretBox, webhookBody } from '@app/webhooks';
import { positiveNumberEnv } from '../bench-support';

/*
 * `node dist/bench/webhooks/bench.js` (the lead wires `npm run bench:webhooks`), on loopback:
 * 1. end-to-end latency from a filing record produced to its signed delivery received (and
 *    verified with standardwebhooks): Kafka -> projector (rows + event + delivery, one
 *    transaction; NOTIFY at commit) -> dispatcher (woken by it) -> POST;
 * 2. deliveries/s of the dispatcher (claim, sign, POST, record the attempt) to one local receiver
 *    vs raw HTTP clients posting the same bodies with the same concurrency.
 * Prints figures; asserts nothing about speed. See README.md.
 */

const env = process.env;
const num = positiveNumberEnv;

const settings = {
  databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  brokers: (env.KAFKA_BROKERS || '127.0.0.1:9092').split(','),
  events: num('BENCH_EVENTS', 500),
  rate: num('BENCH_RATE', 100),
  deliveries: num('BENCH_DELIVERIES', 10000),
  concurrency: num('BENCH_CONCURRENCY', 16),
  rounds: num('BENCH_ROUNDS', 2),
};

// Run from the repository root (npm scripts do); the apps are the built ones beside this file.
const FILING_EXAMPLE = join(process.cwd(), 'libs', 'contracts', 'src', 'examples', 'filing@1.msft-10-k.json');
const DIST = resolve(__dirname, '..', '..');

/** A built app in its own process (as deployed); stop() is SIGTERM and waits for the exit. */
function spawnApp(label: string, env: Record<string, string>): { stop(): Promise<void> } {
  const script = join(DIST, 'apps', label, 'src', 'main.js');
  if (!existsSync(script)) throw new Error(`${script} not found: build first`);
  const child: ChildProcess = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', NODE_PATH: process.env.NODE_PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (c: Buffer) => process.stderr.write(c.toString().replace(/^(?=.)/gm, `[${label}] `)));
  return {
    stop: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}
const secretsKey = randomBytes(32).toString('hex');
const box = new SecretBox(secretsKey);

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: settings.databaseUrl, application_name: 'bench-admin' });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The receiver: 204 to everything; on /signed it verifies the signature and notes when each event arrived. */
function startReceiver(secretOf: () => string) {
  const arrivals = new Map<string, number>();
  let count = 0;
  let first = 0;
  let last = 0;
  let badSignatures = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      count += 1;
      if (count === 1) first = now;
      last = now;
      if (req.url === '/signed') {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        try {
          new Webhook(secretOf()).verify(Buffer.concat(chunks).toString('utf8'), headers);
          if (!arrivals.has(headers['webhook-id']!)) arrivals.set(headers['webhook-id']!, Date.now());
        } catch {
          badSignatures += 1;
        }
      }
      res.writeHead(204).end();
    });
  });
  return {
    server,
    arrivals,
    reset() {
      count = 0;
      first = 0;
      last = 0;
    },
    stats: () => ({ count, first, last, badSignatures }),
  };
}

function filingRecords(count: number): FilingRecordV1[] {
  const base = JSON.parse(readFileSync(FILING_EXAMPLE, 'utf8')) as FilingRecordV1;
  return Array.from({ length: count }, (_, i) => {
    const accession = `0000950170-25-${String(i).padStart(6, '0')}`;
    return { ...base, key: accession, id: `rec_${randomBytes(16).toString('hex')}`, provenance: { ...base.provenance, accession }, data: { ...base.data, accession } };
  });
}

/**
 * The raw clients run in a child process of their own (this script with `--raw-client`), as the
 * dispatcher does: in the receiver's process they would skip the cross-process hop the dispatcher
 * cannot skip. The child prints `{ms}` per round as one JSON line.
 */
async function rawClientMain(): Promise<void> {
  const [, , , client, url, concurrencyText, countText] = process.argv;
  const body = readFileSync(0, 'utf8');
  const bodies = Array<string>(Number(countText)).fill(body);
  const concurrency = Number(concurrencyText);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const post =
    client === 'fetch'
      ? async (b: string) => {
          const res = await fetch(url!, { method: 'POST', body: b, headers: { 'content-type': 'application/json' } });
          await res.arrayBuffer();
          return res.status;
        }
      : (b: string) =>
          new Promise<number>((ok, fail) => {
            const req = http.request(url!, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) } }, (res) => {
              res.resume();
              res.on('end', () => ok(res.statusCode ?? 0));
            });
            req.on('error', fail);
            req.end(b);
          });
  // Warm-up (JIT, sockets), then the measured round.
  await rawRun(post, bodies.slice(0, 500), concurrency);
  const ms = await rawRun(post, bodies, concurrency);
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
}

/** One raw-client round in its own process; resolves with the elapsed ms of the measured part. */
function rawRound(client: 'fetch' | 'http', url: string, body: string, count: number): Promise<number> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [__filename, '--raw-client', client, url, String(settings.concurrency), String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`raw ${client} client exited with ${code}`));
      ok((JSON.parse(out.trim()) as { ms: number }).ms);
    });
    child.stdin.end(body);
  });
}

/** POSTs every body with `concurrency` workers; resolves with the elapsed ms. */
async function rawRun(post: (body: string) => Promise<number>, bodies: string[], concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const status = await post(bodies[next++]!);
        if (status < 200 || status >= 300) throw new Error(`raw client got ${status}`);
      }
    }),
  );
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dbName = `bench_webhooks_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(settings.databaseUrl);
  dbUrl.pathname = `/${dbName}`;
  const namespace = `bench${randomBytes(4).toString('hex')}`;
  const cleanup: Array<() => Promise<unknown>> = [];
  await admin(`CREATE DATABASE ${dbName}`);
  cleanup.push(() => admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  try {
    await runMigrations({ url: dbUrl.toString(), applicationName: 'bench-migrate' });
    const pg = new Client({ connectionString: dbUrl.toString() });
    await pg.connect();
    cleanup.unshift(() => pg.end());
    const secret = generateSigningSecret();
    const receiver = startReceiver(() => secret);
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    cleanup.unshift(() => new Promise<void>((r) => { receiver.server.closeAllConnections(); receiver.server.close(() => r()); }));
    const base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_bench', 'bench', 'builder')`);
    const endpoint = async (id: string, path: string, topics: string[]) => {
      await pg.query(`INSERT INTO webhook_endpoints (id, account_id, url, topics) VALUES ($1, 'acct_bench', $2, $3)`, [id, `${base}${path}`, topics]);
      await pg.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)`, [id, box.seal(secret)]);
    };
    await endpoint('we_bench_latency', '/signed', ['filing.created']);

    const kafka = { brokers: settings.brokers, clientId: 'bench-webhooks', logLevel: 'nothing' as const };
    const topic = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(kafka, [topic, namespacedTopic(TOPICS.form4, namespace), namespacedTopic(TOPICS.issuerDocuments, namespace)]);
    const common = { DATABASE_URL: dbUrl.toString(), LOG_LEVEL: 'warn' };
    const projector = spawnApp('projector', {
      ...common,
      KAFKA_BROKERS: settings.brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      PROJECTOR_GROUP_ID: `projector-${namespace}`,
    });
    cleanup.unshift(() => projector.stop());
    // The dispatcher: Postgres only, default poll (new deliveries wake it at the projector's commit).
    const webhooks = spawnApp('webhooks', {
      ...common,
      WEBHOOK_SECRETS_KEY: secretsKey,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
      WEBHOOKS_CONCURRENCY: String(settings.concurrency),
    });
    cleanup.unshift(() => webhooks.stop());
    const producer = new RecordProducer(kafka);
    await producer.connect();
    cleanup.unshift(() => producer.disconnect());

    // Ready when a first record has gone all the way through (both apps started, groups joined).
    const [warm, ...records] = filingRecords(settings.events + 1);
    await producer.publish(topic, [warm!]);
    const ready = Date.now() + 120_000;
    while (!receiver.arrivals.has(webhookEventId('filing.created', warm!.key))) {
      if (Date.now() > ready) throw new Error('no delivery within 120 s of the first record: is the pipeline running?');
      await sleep(50);
    }

    // 1. Latency: records produced one at a time at BENCH_RATE per second.
    const produced = new Map<string, number>();
    const interval = 1000 / settings.rate;
    const t0 = performance.now();
    for (const [i, r] of records.entries()) {
      const due = t0 + i * interval;
      if (due > performance.now()) await sleep(due - performance.now());
      produced.set(webhookEventId('filing.created', r.key), Date.now());
      await producer.publish(topic, [r]);
    }
    const deadline = Date.now() + 120_000;
    while (receiver.arrivals.size < records.length + 1 && Date.now() < deadline) await sleep(20);
    const latencies = [...produced].flatMap(([id, at]) => (receiver.arrivals.has(id) ? [receiver.arrivals.get(id)! - at] : [])).sort((a, b) => a - b);
    const lost = records.length - latencies.length;
    await pg.query(`UPDATE webhook_endpoints SET deleted_at = now() WHERE id = 'we_bench_latency'`);

    // 2. Throughput: the same filing bodies, to one receiver, dispatcher vs raw clients.
    const { rows } = await pg.query<{ data: string; created_at: Date }>(`SELECT data::text AS data, created_at FROM webhook_events LIMIT 1`);
    const sample = rows[0];
    if (!sample) throw new Error('no event was made in the latency run');
    const body = webhookBody('filing.created', sample.created_at, sample.data);
    await endpoint('we_bench_throughput', '/throughput', ['bench.throughput']);
    const dispatcherRun = async (n: number): Promise<number> => {
      receiver.reset();
      const tag = randomBytes(4).toString('hex');
      // Deliveries due at once (one commit), claimed by the running dispatcher; timed from the
      // commit to the last attempt recorded (not just sent).
      await pg.query(
        `WITH ev AS (
           INSERT INTO webhook_events (id, type, entity_key, data)
           SELECT 'evt_bench_' || $2 || '_' || g, 'bench.throughput', 'k' || g, $3::jsonb FROM generate_series(1, $1) g RETURNING id)
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
         SELECT 'del_' || substr(md5(ev.id), 1, 24), ev.id, 'we_bench_throughput', 'pending', now() FROM ev`,
        [n, tag, sample.data],
      );
      const started = performance.now();
      // Until every POST arrived the receiver's count says enough (asking Postgres every 10 ms
      // took a fifth of a core from the run); then the database, until every attempt is recorded.
      const deadline = Date.now() + 300_000;
      while (receiver.stats().count < n) {
        if (Date.now() > deadline) throw new Error(`only ${receiver.stats().count} of ${n} deliveries arrived within 300 s`);
        await sleep(5);
      }
      for (;;) {
        const r = await pg.query<{ left: boolean }>(`SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id = 'we_bench_throughput') AS left`);
        if (!r.rows[0]!.left) break;
        await sleep(5);
      }
      return performance.now() - started;
    };
    // Warm-up: JIT, sockets, prepared statements (the raw clients warm up in their own process).
    await dispatcherRun(500);
    const rates = { dispatcher: [] as number[], fetch: [] as number[], http: [] as number[] };
    for (let round = 0; round < settings.rounds; round += 1) {
      rates.dispatcher.push(settings.deliveries / ((await dispatcherRun(settings.deliveries)) / 1000));
      rates.fetch.push(settings.deliveries / ((await rawRound('fetch', `${base}/throughput`, body, settings.deliveries)) / 1000));
      rates.http.push(settings.deliveries / ((await rawRound('http', `${base}/throughput`, body, settings.deliveries)) / 1000));
    }
    const best = (xs: number[]) => Math.max(...xs);
    const rawBest = Math.max(best(rates.fetch), best(rates.http));
    const ratio = best(rates.dispatcher) / rawBest;
    const f = (n: number) => n.toFixed(0).padStart(6);

    console.log(`\nwebhooks bench (loopback, ${settings.concurrency} concurrent, ${cpus().length} cores)`);
    console.log(`\n1. end-to-end latency: ${records.length} filing records at ${settings.rate}/s, produced -> signed delivery received and verified`);
    if (latencies.length) {
      console.log(`   p50 ${f(pct(latencies, 50))} ms   p99 ${f(pct(latencies, 99))} ms   max ${f(latencies[latencies.length - 1]!)} ms   lost ${lost}   bad signatures ${receiver.stats().badSignatures}`);
      console.log(`   target p99 < 1000 ms: ${pct(latencies, 99) < 1000 ? 'met' : 'NOT met'}`);
    } else console.log('   no delivery arrived');
    console.log(`\n2. deliveries/s to one local receiver, ${settings.deliveries} bodies of ${Buffer.byteLength(body)} B, best of ${settings.rounds}`);
    console.log(`   webhooks dispatcher (claim, sign, POST, record)  ${f(best(rates.dispatcher))} /s   rounds ${rates.dispatcher.map((r) => r.toFixed(0)).join(', ')}`);
    console.log(`   raw fetch (undici), own process                  ${f(best(rates.fetch))} /s   rounds ${rates.fetch.map((r) => r.toFixed(0)).join(', ')}`);
    console.log(`   raw node:http keep-alive, own process            ${f(best(rates.http))} /s   rounds ${rates.http.map((r) => r.toFixed(0)).join(', ')}`);
    console.log(`   ratio dispatcher / fastest raw client: ${ratio.toFixed(2)} (target >= 0.7: ${ratio >= 0.7 ? 'met' : 'NOT met'})`);
    console.log(`   ratio dispatcher / raw fetch: ${(best(rates.dispatcher) / best(rates.fetch)).toFixed(2)}; / raw node:http: ${(best(rates.dispatcher) / best(rates.http)).toFixed(2)}`);
  } finally {
    for (const step of cleanup) await step().catch((err: unknown) => console.error('cleanup:', err instanceof Error ? err.message : err));
  }
}

(process.argv[2] === '--raw-client' ? rawClientMain() : main()).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
