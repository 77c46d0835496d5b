import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import type { Consumer, EachMessagePayload, KafkaMessage } from 'kafkajs';
import { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from './backoff.policy';
import { consumerLag, type PartitionLag } from './consumer-lag.query';
import { deadLetterHeaders, headersToStrings } from './dead-letter.headers';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';
import { stderrLogger, type MessagingLogger } from './messaging.logger';
import { PermanentError } from './permanent.error';
import { decodeRecord } from './record.decoder';
import { RecordProducer } from './record.producer';

export interface MessageMeta {
  topic: string;
  partition: number;
  offset: string;
  /** The Kafka message timestamp (ms since the epoch, as kafkajs gives it): when the record was produced. */
  timestamp?: string;
}

export type RecordHandler = (envelope: RecordEnvelope, meta: MessageMeta) => Promise<void>;

export interface ConsumerRunnerOptions {
  settings: KafkaSettings;
  groupId: string;
  topics: readonly TopicDefinition[];
  /** The effect. Must be idempotent (delivery is at-least-once). Throw PermanentError for a bad record. */
  handle: RecordHandler;
  /** Back-off of transient failures; default 500 ms doubling to 30 s. */
  retry?: RetryPolicy;
  /** Where a group without committed offsets starts; default false (only new records). */
  fromBeginning?: boolean;
  logger?: MessagingLogger;
  /** Commit the offsets of handled records once this many are pending; default 500. */
  commitEvery?: number;
  /** ... or once this long passed since the last commit; default 1000 ms. */
  commitIntervalMs?: number;
  /**
   * Longest a fetch waits on the broker for new records; default 1000 ms. Also bounds how long
   * stop() waits for an idle fetch (kafkajs' own 5 s default made every stop take ~5 s).
   */
  maxWaitTimeMs?: number;
  /** Group session timeout (kafkajs default 30 s): a member silent this long is dropped from the group. */
  sessionTimeoutMs?: number;
}

/** While a handler runs, the member heartbeats this often (kafkajs sends at most one per heartbeatInterval). */
const HANDLER_HEARTBEAT_MS = 1_000;

export interface ConsumerCounters {
  /** Records handled and committed. */
  processed: number;
  /** Records sent to a DLQ (undecodable, schema-invalid, or PermanentError) and committed. */
  dead_lettered: number;
  /** Transient failures that were backed off and retried. */
  retries: number;
}

type State = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

/** Returned by the retry loop when stop() interrupted it: nothing is committed. */
const STOPPED = Symbol('stopped');

/**
 * Consumes record topics in a consumer group with commit-after-effect:
 * decode -> validate -> handle -> commit offset+1 (coalesced: see commit()). Undecodable or schema-invalid records and
 * PermanentErrors go to `<topic>.dlq` (the DLQ write is acknowledged before the commit);
 * any other failure is retried on the same record with exponential back-off, never committed
 * past, until it succeeds or stop() is called (then it is redelivered on the next start).
 * Records of a partition are handled one at a time, in order.
 */
export class ConsumerRunner {
  private readonly consumer: Consumer;
  private readonly dlqProducer: RecordProducer;
  private readonly topicsByName: Map<string, TopicDefinition>;
  private readonly retry: RetryPolicy;
  private readonly logger: MessagingLogger;
  private readonly wakers = new Set<() => void>();
  private readonly stats: ConsumerCounters = { processed: 0, dead_lettered: 0, retries: 0 };
  private state: State = 'idle';
  private crashed = false;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly pending = new Map<string, { topic: string; partition: number; offset: string }>();
  private readonly commitEvery: number;
  private readonly commitIntervalMs: number;
  private doneSinceCommit = 0;
  private lastCommitAt = Date.now();
  private flushing: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  /** The record being processed (one at a time), awaited by stop() before disconnecting. */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConsumerRunnerOptions) {
    if (options.topics.length === 0) throw new Error('ConsumerRunner needs at least one topic');
    this.topicsByName = new Map(options.topics.map((t) => [t.name, t]));
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.logger = options.logger ?? stderrLogger;
    this.commitEvery = options.commitEvery ?? 500;
    this.commitIntervalMs = options.commitIntervalMs ?? 1000;
    const kafka = createKafka(options.settings);
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: options.maxWaitTimeMs ?? 1000,
      ...(options.sessionTimeoutMs !== undefined ? { sessionTimeout: options.sessionTimeoutMs } : {}),
    });
    this.dlqProducer = new RecordProducer(options.settings);
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      // kafkajs restarts itself after retriable crashes; otherwise the consumer is dead.
      if (!payload.restart) this.crashed = true;
      this.logger.error({ groupId: options.groupId, err: payload.error, restart: payload.restart }, 'kafka consumer crashed');
    });
  }

  /** A copy of the counters, for metrics. */
  get counters(): ConsumerCounters {
    return { ...this.stats };
  }

  /** For health checks: started, not stopped, and not crashed beyond kafkajs' own restarts. */
  get healthy(): boolean {
    return this.state === 'running' && !this.crashed;
  }

  get groupId(): string {
    return this.options.groupId;
  }

  /** Connects, subscribes and starts consuming in the background. Idempotent. */
  async start(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') throw new Error('ConsumerRunner was stopped; create a new one');
    this.starting ??= this.doStart();
    return this.starting;
  }

  /**
   * Graceful stop: lets the in-flight record finish (and commits it if it succeeded), interrupts
   * back-off waits without committing, leaves the group and disconnects. Idempotent, safe to
   * call before or during start().
   */
  async stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  /** Lag of this runner's group on its topics. */
  async lag(): Promise<PartitionLag[]> {
    return consumerLag(this.options.settings, this.options.groupId, this.options.topics);
  }

  private async doStart(): Promise<void> {
    this.state = 'starting';
    await this.dlqProducer.connect();
    await this.consumer.connect();
    // Topics another process has just created may not be in this broker's metadata yet (retriable).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.consumer.subscribe({ topics: [...this.topicsByName.keys()], fromBeginning: this.options.fromBeginning ?? false });
        break;
      } catch (err) {
        if ((err as { retriable?: boolean }).retriable !== true || attempt >= 20 || this.isStopping) throw err;
        this.logger.warn({ groupId: this.options.groupId, err, attempt }, 'subscribing failed: retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2_000)));
      }
    }
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: 1,
      eachMessage: (payload) => {
        const processing = this.onMessage(payload);
        this.inFlight = processing.catch(() => undefined);
        return processing;
      },
    });
    if (this.state === 'starting') this.state = 'running';
    // Idle partitions still get their last offsets committed.
    this.flushTimer = setInterval(() => {
      this.flush().catch((err: unknown) => this.logger.warn({ groupId: this.options.groupId, err }, 'offset commit failed; will retry'));
    }, this.commitIntervalMs);
    this.flushTimer.unref();
    this.logger.info({ groupId: this.options.groupId, topics: [...this.topicsByName.keys()] }, 'consumer started');
  }

  private async doStop(): Promise<void> {
    const wasStarted = this.state !== 'idle';
    this.state = 'stopping';
    for (const wake of this.wakers) wake();
    if (wasStarted) {
      // A start in progress is finished first, so there is something consistent to tear down.
      await this.starting?.catch(() => undefined);
      for (const wake of this.wakers) wake();
      // Finish (and commit) the in-flight record while the consumer still runs: kafkajs silently
      // drops commits once its runner is stopping, which disconnect() starts with.
      await this.inFlight;
      clearInterval(this.flushTimer);
      await this.flush().catch((err: unknown) =>
        this.logger.warn({ groupId: this.options.groupId, err }, 'final offset commit failed: records since the last commit will be redelivered'),
      );
      await this.consumer.disconnect();
      await this.dlqProducer.disconnect();
    }
    this.state = 'stopped';
    this.logger.info({ groupId: this.options.groupId, ...this.stats }, 'consumer stopped');
  }

  private get isStopping(): boolean {
    return this.state === 'stopping' || this.state === 'stopped';
  }

  private async onMessage(payload: EachMessagePayload): Promise<void> {
    // After stop(): do not start another record. Not committing leaves it for the next consumer.
    if (this.isStopping) return;
    const { topic, partition, message } = payload;
    const heartbeat = (): Promise<void> => payload.heartbeat();
    const def = this.topicsByName.get(topic);
    if (!def) throw new Error(`message from unsubscribed topic ${topic}`);
    const meta: MessageMeta = { topic, partition, offset: message.offset, timestamp: message.timestamp };

    const decoded = decodeRecord(def, message.value);
    if (!decoded.ok) {
      this.logger.warn({ ...meta, reason: decoded.error }, 'invalid record: dead-lettering');
      await this.deadLetterThenCommit(def, meta, message, decoded.error, heartbeat);
      return;
    }

    const outcome = await this.untilDone(meta, heartbeat, 'handler', async () => {
      try {
        await this.options.handle(decoded.envelope, meta);
        return 'handled' as const;
      } catch (e) {
        if (e instanceof PermanentError) return e;
        throw e;
      }
    });
    if (outcome === STOPPED) return;
    if (outcome instanceof PermanentError) {
      this.logger.warn({ ...meta, recordId: decoded.envelope.id, reason: outcome.message }, 'permanent failure: dead-lettering');
      await this.deadLetterThenCommit(def, meta, message, `permanent: ${outcome.message}`, heartbeat);
      return;
    }
    await this.commit(meta);
    this.stats.processed += 1;
  }

  /** Writes the record to the DLQ (retrying as a transient failure until acknowledged), then commits. */
  private async deadLetterThenCommit(
    def: TopicDefinition,
    meta: MessageMeta,
    message: KafkaMessage,
    reason: string,
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    const headers = deadLetterHeaders(meta, reason, new Date(), headersToStrings(message.headers));
    const sent = await this.untilDone(meta, heartbeat, 'dead-letter', async () => {
      await this.dlqProducer.publishRaw(def.dlq, message.key, message.value, headers);
      return 'sent' as const;
    });
    if (sent === STOPPED) return;
    await this.commit(meta);
    this.stats.dead_lettered += 1;
  }

  /**
   * Runs `attempt` until it resolves, backing off after each throw; STOPPED when stop() was
   * called meanwhile. Heartbeats while waiting so a long outage does not cost the group membership.
   */
  private async untilDone<T>(
    meta: MessageMeta,
    heartbeat: () => Promise<void>,
    what: string,
    attempt: () => Promise<T>,
  ): Promise<T | typeof STOPPED> {
    for (let failures = 0; ; failures += 1) {
      // A handler may run longer than the session timeout (a large PDF): keep the membership, or
      // the group rebalances and the record is handled twice.
      const beat = setInterval(() => {
        heartbeat().catch((err: unknown) => this.logger.warn({ ...meta, err }, 'heartbeat during a handler failed: the record may be redelivered'));
      }, HANDLER_HEARTBEAT_MS);
      try {
        return await attempt();
      } catch (e) {
        if (this.isStopping) return STOPPED;
        const delayMs = backoffDelay(failures, this.retry);
        this.stats.retries += 1;
        this.logger.warn({ ...meta, err: e, attempt: failures + 1, delayMs }, `transient ${what} failure: retrying`);
        await this.sleep(delayMs, heartbeat);
        if (this.isStopping) return STOPPED;
      } finally {
        clearInterval(beat);
      }
    }
  }

  /** Sleeps in slices of at most 1 s, heartbeating between them; wakes early on stop(). */
  private async sleep(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (!this.isStopping && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(1000, until - Date.now()));
        this.wakers.add(done);
      });
      // A rebalance makes heartbeat throw: the record is then redelivered (it was not committed).
      if (!this.isStopping) await heartbeat();
    }
  }

  /**
   * Marks a record's effect as done. Its offset (+1) is committed with the next flush: once
   * `commitEvery` records are done, once `commitIntervalMs` passed, and at stop(). Offsets only
   * ever cover records whose effect completed, so after a crash at most that window is redelivered
   * (effects are idempotent); one commit per record would cost a broker round trip per record.
   */
  private async commit(meta: MessageMeta): Promise<void> {
    this.pending.set(`${meta.topic}\u0000${meta.partition}`, {
      topic: meta.topic,
      partition: meta.partition,
      offset: (BigInt(meta.offset) + 1n).toString(),
    });
    this.doneSinceCommit += 1;
    if (this.doneSinceCommit >= this.commitEvery || Date.now() - this.lastCommitAt >= this.commitIntervalMs) await this.flush();
  }

  /** Commits every pending offset; serialized so an older offset never lands after a newer one. */
  private flush(): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.pending.size === 0) return;
      const offsets = [...this.pending.values()];
      this.pending.clear();
      this.doneSinceCommit = 0;
      this.lastCommitAt = Date.now();
      try {
        await this.consumer.commitOffsets(offsets);
      } catch (err) {
        // Put them back unless a newer offset of the same partition is already waiting.
        for (const o of offsets) {
          const key = `${o.topic}\u0000${o.partition}`;
          if (!this.pending.has(key)) this.pending.set(key, o);
        }
        throw err;
      }
    };
    this.flushing = this.flushing.catch(() => undefined).then(run);
    return this.flushing;
  }
}
