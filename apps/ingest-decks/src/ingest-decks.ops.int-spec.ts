import { randomBytes } from 'node:crypto';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { TOPICS, namespacedTopic } from '@app/contracts';
import { loadConfig } from '@app/config';
import { ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import { expectEventually, kafkaBrokersForTests } from '@app/testing';
import { ingestDecksConfigSchema } from './ingest-decks.config';
import { decksGroupId, startDecksWorker } from './ingest-decks.runner';

// The ir.documents consumer with OPS_PORT: /healthz, /readyz and /metrics (its consumer's counts
// and lag, and the process and Node.js runtime metrics) while it runs.
describe('ingest-decks ops port (real broker)', () => {
  it('serves consumer and process metrics as Prometheus text, and closes with the worker', async () => {
    const brokers = await kafkaBrokersForTests();
    const namespace = `test-decks-ops-${randomBytes(4).toString('hex')}`;
    await ensureTopics({ brokers, clientId: 'decks-ops-int', logLevel: 'nothing' }, [namespacedTopic(TOPICS.issuerDocuments, namespace)]);
    const config = loadConfig(ingestDecksConfigSchema, {
      DECKS_USER_AGENT: 'Filings Platform Tests ops@filings.example',
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      LOG_LEVEL: 'silent',
      OPS_PORT: '0',
    });
    const decks = await startDecksWorker({ config, logger: createLogger({ level: 'silent' }) });
    const ops = (path: string) => fetch(`http://127.0.0.1:${decks.opsPort}${path}`);
    try {
      expect((await ops('/healthz')).status).toBe(200);
      await expectEventually(async () => expect((await ops('/readyz')).status).toBe(200), { timeoutMs: 30_000 });
      const families = new Map(parsePrometheusTextFormat(await (await ops('/metrics')).text()).map((f) => [f.name, f]));
      expect(families.get('consumer_records_processed_total')!.metrics).toEqual([{ labels: { group: decksGroupId(config) }, value: '0' }]);
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        expect([name, families.get(name)?.metrics.length]).toEqual([name, 1]);
      }
    } finally {
      await decks.stop();
    }
    await expect(ops('/healthz')).rejects.toThrow();
  }, 60_000);
});
