import { randomUUID } from 'node:crypto';
import type { FilingData, TopicDefinition } from '@app/contracts';
import { ConsumerRunner, ensureTopics, type ConsumerCounters, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';
import type { Form4IngestService } from './form4-ingest.service';

export interface Form4FollowOptions {
  settings: KafkaSettings;
  groupId: string;
  /** edgar.filings.v1 (namespaced as configured). */
  filingsTopic: TopicDefinition;
  /** Stop once the group has caught up with the topic (lag 0), instead of waiting for `signal`. */
  once: boolean;
  /** Stops following when aborted (SIGINT/SIGTERM in main.ts). */
  signal: AbortSignal;
  logger: Logger;
  /** How often `once` checks the lag; default 1000 ms. */
  lagCheckMs?: number;
  runId?: string;
}

export interface Form4FollowSummary extends ConsumerCounters {
  runId: string;
  /** form4@1 records published. */
  published: number;
  /** Filing records that were not a Form 4 of a covered issuer (or whose issuer is not covered). */
  ignored: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Consumes filing@1 records and reads each Form 4 / 4/A of a covered issuer. The effect is
 * idempotent (deterministic record ids), so a redelivered filing republishes an identical record.
 * A filing that cannot be read is dead-lettered by the runner with the reason (PermanentError).
 */
export async function followFilings(service: Form4IngestService, options: Form4FollowOptions): Promise<Form4FollowSummary> {
  const runId = options.runId ?? `run_${randomUUID()}`;
  const log = options.logger.child({ runId, useCase: 'form4-follow' });
  let published = 0;
  let ignored = 0;
  const runner = new ConsumerRunner({
    settings: options.settings,
    groupId: options.groupId,
    topics: [options.filingsTopic],
    fromBeginning: true,
    logger: log,
    handle: async (envelope) => {
      // The runner validated the record against the topic's schemas: filing@1 is the only one.
      const outcome = await service.handleFilingRecord(envelope.data as FilingData, runId);
      if (outcome?.status === 'published') published += 1;
      else ignored += 1;
    },
  });
  // The broker does not auto-create topics: subscribing to one no producer has written yet would fail.
  await ensureTopics(options.settings, [options.filingsTopic]);
  await runner.start();
  try {
    while (!options.signal.aborted) {
      await sleep(options.lagCheckMs ?? 1000, options.signal);
      if (options.signal.aborted) break;
      // A consumer that crashed beyond kafkajs' restarts consumes nothing more: `once` would wait
      // for lag 0 forever, and a plain follow would idle without notice. Fail so the process exits.
      if (!runner.healthy) throw new Error(`Form 4 follow: consumer ${options.groupId} is not running (crashed?)`);
      if (!options.once) continue;
      const lag = (await runner.lag()).reduce((n, p) => n + p.lag, 0);
      if (lag === 0) break;
    }
  } finally {
    await runner.stop();
  }
  const counts = { ...runner.counters, published, ignored };
  log.info(counts, 'Form 4 follow stopped');
  return { runId, ...counts };
}
