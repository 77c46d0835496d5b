import { randomBytes } from 'node:crypto';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { TOPICS, namespacedTopic } from '@app/contracts';
import { loadConfig } from '@app/config';
import { ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import { expectEventually, kafkaBrokersForTests, uniqueGroupId } from '@app/testing';
import { startForm4Follow } from './form4-follow.runner';
import { ingestForm4ConfigSchema } from './ingest-form4.config';

// `--follow` with OPS_PORT: the long-running follower answers /healthz, /readyz and /metrics
// (its consumer's counts and lag, and the process and Node.js runtime metrics).
describe('ingest-form4 --follow ops port (real broker)', () => {
  it('serves consumer and process metrics as Prometheus text, and closes with the follower', async () => {
    const brokers = await kafkaBrokersForTests();
    const namespace = `test-form4-ops-${randomBytes(4).toString('hex')}`;
    await ensureTopics({ brokers, clientId: 'form4-ops-int', logLevel: 'nothing' }, [namespacedTopic(TOPICS.filings, namespace)]);
    const group = uniqueGroupId('ingest-form4');
    const config = loadConfig(ingestForm4ConfigSchema, {
      EDGAR_USER_AGENT: 'Filings Platform Tests ops@filings.example',
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      FORM4_GROUP_ID: group,
      LOG_LEVEL: 'silent',
      OPS_PORT: '0',
    });
    const follower = await startForm4Follow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_ops' });
    const ops = (path: string) => fetch(`http://127.0.0.1:${follower.opsPort}${path}`);
    try {
      expect(follower.opsPort).toEqual(expect.any(Number));
      expect((await ops('/healthz')).status).toBe(200);
      await expectEventually(async () => expect((await ops('/readyz')).status).toBe(200), { timeoutMs: 30_000 });
      const families = new Map(parsePrometheusTextFormat(await (await ops('/metrics')).text()).map((f) => [f.name, f]));
      expect(families.get('consumer_records_processed_total')!.metrics).toEqual([{ labels: { group }, value: '0' }]);
      expect(families.get('consumer_lag_up')!.metrics).toHaveLength(1);
      // The EDGAR budget of the process (nothing fetched yet: no grants, no pause).
      expect(families.get('edgar_budget_grants_total')!.metrics.map((m) => m.labels?.priority).sort()).toEqual(['backfill', 'discovery', 'documents']);
      expect(families.get('edgar_budget_paused_until_seconds')!.metrics).toEqual([{ value: '0' }]);
      expect(families.get('edgar_budget_degraded')!.metrics).toEqual([{ value: '0' }]);
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        expect([name, families.get(name)?.metrics.length]).toEqual([name, 1]);
      }
    } finally {
      await follower.stop();
    }
    await expect(ops('/healthz')).rejects.toThrow();
  }, 60_000);
});
