import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import type { Batch, Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
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

/** When the record was produced (its Kafka timestamp), or null when the message does not say. */
export function messageProducedAt(meta: MessageMeta): Date | null {
  const ms = meta.timestamp === undefined ? NaN : Number(meta.timestamp);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** A validated record and where it came from. */
export interface ConsumedRecord {
  envelope: RecordEnvelope;
  meta: MessageMeta;
}

/** Validated records of one topic-partition, in offset order. */
export interface RecordBatch {
  topic: string;
  partition: number;
  records: readonly ConsumedRecord[];
}

/**
 * The effect of a batch. Must be idempotent and all-or-nothing (delivery is at-least-once, and a
 * batch that fails permanently is applied again in halves). Throw PermanentError when a record of
 * the batch can never be handled; any other error is transient.
 */
export type BatchHandler = (batch: RecordBatch) => Promise<void>;

export interface BatchLimits {
  /** Most records handed to the handler at once; default 500. */
  maxRecords: number;
  /** Most message bytes (values) handed to the handler at once; default 4 MiB. A larger single record still goes alone. */
  maxBytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxRecords: 500, maxBytes: 1024 * 1024 };

export interface ConsumerRunnerOptions {
  settings: KafkaSettings;
  groupId: string;
  topics: readonly TopicDefinition[];
  handle: BatchHandler;
  batch?: Partial<BatchLimits>;
  /**
   * Partitions whose batches are handled at the same time; default 1. More lets one partition's
   * batch be prepared while another's is written (records of a key stay in one partition, in order).
   */
  partitionsConcurrently?: number;
  /** Back-off of transient failures; default 500 ms doubling to 30 s. */
  retry?: RetryPolicy;
  /** Where a group without committed offsets starts; default false (only new records). */
  fromBeginning?: boolean;
  logger?: MessagingLogger;
  /**
   * Longest a fetch waits on the broker for new records; default 1000 ms. Also bounds how long
   * stop() waits for an idle fetch (kafkajs' own 5 s default made every stop take ~5 s).
   */
  maxWaitTimeMs?: number;
  /** Group session timeout, default DEFAULT_SESSION_TIMEOUT_MS: a member silent this long is dropped from the group. */
  sessionTimeoutMs?: number;
}

/**
 * The group session timeout of every consumer unless told otherwise (CONSUMER_SESSION_TIMEOUT_MS).
 * A member that dies without leaving its group (SIGKILL, OOM kill, lost host) holds its partitions
 * until its session expires: its replacement joins, and the group rebalances only then. kafkajs'
 * 30 s default made a restarted projector wait about 27 s; kafkajs 2.2 sends no group.instance.id
 * (static membership), so a short session is what makes a restart rejoin at once. The cost: a
 * member that sends no heartbeat for this long (the event loop blocked by a GC pause or
 * synchronous work; a batch being processed heartbeats every second) is dropped, its partitions
 * go to the group again and its uncommitted slice is redelivered (handlers are idempotent).
 */
const DEFAULT_SESSION_TIMEOUT_MS = 10_000;

/** The member heartbeats this often, between fetches and while a batch is processed: ten chances per session. */
const HEARTBEAT_INTERVAL_MS = 1_000;

/**
 * kafkajs fetches, hands every partition's batch to the handlers, waits for all of them, then
 * fetches again. A fetch of a few batches per partition across many partitions keeps the handlers
 * of several partitions busy at once and the fetch round trips few (measured: 8 MiB per
 * partition, 10 MiB a fetch ran about 12 % fewer records/s in bench/projector).
 */
const FETCH_BYTES_PER_PARTITION = 2 * 1024 * 1024;
const FETCH_BYTES = 32 * 1024 * 1024;

export interface ConsumerCounters {
  /** Records handled and committed. */
  processed: number;
  /** Records sent to a DLQ (undecodable, schema-invalid, or isolated by a PermanentError) and committed. */
  dead_lettered: number;
  /** Transient failures that were backed off and retried. */
  retries: number;
  /** Batches handed to the handler (splits of a failing batch included). */
  batches: number;
}

type State = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

/** Returned by the retry loop when stop() or a rebalance interrupted it: nothing is committed. */
const INTERRUPTED = Symbol('interrupted');

interface Slice {
  records: ConsumedRecord[];
  /** Messages of the slice that could not be decoded or validated, with the reason. */
  invalid: Array<{ message: KafkaMessage; meta: MessageMeta; reason: string }>;
  /** Raw messages by offset, for dead-lettering a record isolated by a PermanentError. */
  raw: Map<string, KafkaMessage>;
  lastOffset: string;
}

/**
 * Consumes record topics in a consumer group, in batches, with commit-after-effect. Each fetched
 * partition batch is cut into slices bounded by count and bytes; for each slice:
 * decode and validate (invalid records go to `<topic>.dlq` with the reason) -> hand the valid
 * records to the handler -> commit the slice's last offset + 1. A PermanentError splits the slice
 * in halves, applied in order, until the bad record stands alone; it goes to the DLQ and the rest
 * is applied. Any other failure backs off and retries the same records, never committing past
 * them, until it succeeds or stop() is called (then they are redelivered on the next start).
 * The member heartbeats all the while a batch is processed: handler calls, dead-letter writes, back-off.
 */
export class ConsumerRunner {
  private readonly consumer: Consumer;
  private readonly dlqProducer: RecordProducer;
  private readonly topicsByName: Map<string, TopicDefinition>;
  private readonly retry: RetryPolicy;
  private readonly limits: BatchLimits;
  private readonly logger: MessagingLogger;
  private readonly wakers = new Set<() => void>();
  private readonly stats: ConsumerCounters = { processed: 0, dead_lettered: 0, retries: 0, batches: 0 };
  private state: State = 'idle';
  private crashed = false;
  /**
   * Where the member stands in its group, from kafkajs' events: null while it is in the group
   * with partitions; otherwise why it is not consuming (readiness names it). kafkajs restarts a
   * crashed consumer itself, seconds later: until it has joined again it consumes nothing.
   */
  private membership: string | null = 'has not joined its group yet';
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  /** The partition batches being processed, awaited by stop() before disconnecting. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: ConsumerRunnerOptions) {
    if (options.topics.length === 0) throw new Error('ConsumerRunner needs at least one topic');
    this.topicsByName = new Map(options.topics.map((t) => [t.name, t]));
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.limits = { ...DEFAULT_BATCH_LIMITS, ...options.batch };
    if (this.limits.maxRecords < 1 || this.limits.maxBytes < 1) throw new Error('batch limits must be positive');
    this.logger = options.logger ?? stderrLogger;
    const kafka = createKafka(options.settings);
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: options.maxWaitTimeMs ?? 1000,
      maxBytesPerPartition: Math.max(FETCH_BYTES_PER_PARTITION, 2 * this.limits.maxBytes),
      maxBytes: Math.max(FETCH_BYTES, 2 * this.limits.maxBytes),
      sessionTimeout: options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      // kafkajs sends at most one heartbeat per interval (its default 3 s), however often it is asked.
      heartbeatInterval: HEARTBEAT_INTERVAL_MS,
      // kafkajs restarts a crashed consumer on a timer. With the broker down, a restart under way when
      // stop() runs crashes after it and sets a new timer stop() never clears: it retried for ever.
      retry: { restartOnFailure: async () => !this.isStopping },
    });
    this.dlqProducer = new RecordProducer(options.settings);
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = Object.values(payload.memberAssignment).reduce((n, partitions) => n + partitions.length, 0);
      this.membership = assigned === 0 ? 'is in its group but has no partitions assigned' : null;
    });
    this.consumer.on(this.consumer.events.REBALANCING, () => {
      this.membership = 'is rebalancing';
    });
    this.consumer.on(this.consumer.events.STOP, () => {
      this.membership = 'is stopped';
    });
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      // kafkajs restarts itself after retriable crashes; otherwise the consumer is dead.
      if (!payload.restart) this.crashed = true;
      this.membership = payload.restart ? `crashed (${payload.error.message}) and is restarting` : `crashed (${payload.error.message})`;
      this.logger.error({ groupId: options.groupId, err: payload.error, restart: payload.restart }, 'kafka consumer crashed');
    });
  }

  /** A copy of the counters, for metrics. */
  get counters(): ConsumerCounters {
    return { ...this.stats };
  }

  /** Started, not stopped, and not crashed beyond kafkajs' own restarts (it may be rejoining: see notRunning). */
  get healthy(): boolean {
    return this.state === 'running' && !this.crashed;
  }

  /** For readiness: why the consumer is not consuming now (restarting, rebalancing, no partitions), or null when it is. */
  get notRunning(): string | null {
    if (this.state !== 'running') return `is ${this.state}`;
    if (this.crashed) return this.membership ?? 'crashed';
    return this.membership;
  }

  get groupId(): string {
    return this.options.groupId;
  }

  get topics(): readonly TopicDefinition[] {
    return this.options.topics;
  }

  get settings(): KafkaSettings {
    return this.options.settings;
  }

  /** Connects, subscribes and starts consuming in the background. Idempotent. */
  async start(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') throw new Error('ConsumerRunner was stopped; create a new one');
    this.starting ??= this.doStart();
    return this.starting;
  }

  /**
   * Graceful stop: lets the slice in flight finish (and commits it if it succeeded), interrupts
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
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.max(1, this.options.partitionsConcurrently ?? 1),
      eachBatch: async (payload) => {
        const processing = this.onBatch(payload);
        const settled = processing.catch(() => undefined);
        this.inFlight.add(settled);
        try {
          await processing;
        } finally {
          this.inFlight.delete(settled);
        }
      },
    });
    if (this.state === 'starting') this.state = 'running';
    this.logger.info({ groupId: this.options.groupId, topics: [...this.topicsByName.keys()], ...this.limits }, 'consumer started');
  }

  private async doStop(): Promise<void> {
    const wasStarted = this.state !== 'idle';
    this.state = 'stopping';
    for (const wake of this.wakers) wake();
    if (wasStarted) {
      // A start in progress is finished first, so there is something consistent to tear down.
      await this.starting?.catch(() => undefined);
      for (const wake of this.wakers) wake();
      // Finish (and commit) the slice in flight while the consumer still runs: kafkajs silently
      // drops commits once its runner is stopping, which disconnect() starts with.
      await Promise.all([...this.inFlight]);
      await this.consumer.disconnect();
      await this.dlqProducer.disconnect();
    }
    this.state = 'stopped';
    this.logger.info({ groupId: this.options.groupId, ...this.stats }, 'consumer stopped');
  }

  private get isStopping(): boolean {
    return this.state === 'stopping' || this.state === 'stopped';
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const heartbeat = (): Promise<void> => payload.heartbeat();
    const def = this.topicsByName.get(batch.topic);
    if (!def) throw new Error(`batch from unsubscribed topic ${batch.topic}`);
    // A rebalance (isStale) hands the partition to another member: what is not committed is theirs.
    const interrupted = (): boolean => this.isStopping || !payload.isRunning() || payload.isStale();
    // The member heartbeats for as long as the batch is processed, not per handler call: a slice of
    // many calls each shorter than the tick (a PermanentError isolated record by record, every
    // filing a 404) sent none, the broker dropped the member after the session timeout, and the
    // slice's commit failed (UNKNOWN_MEMBER_ID) until kafkajs gave up and the consumer crashed.
    const beat = setInterval(() => {
      heartbeat().catch((err: unknown) => this.logger.warn({ topic: batch.topic, partition: batch.partition, err }, 'heartbeat during a batch failed: it may be redelivered'));
    }, HEARTBEAT_INTERVAL_MS);
    try {
      for (const slice of this.slices(def, batch)) {
        if (interrupted()) return;
        const done = await this.applySlice(def, slice, heartbeat, interrupted);
        if (!done) return;
        try {
          await this.consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(slice.lastOffset) + 1n).toString() }]);
        } catch (err) {
          throw groupMembershipError(err);
        }
        payload.resolveOffset(slice.lastOffset);
        await heartbeat();
      }
    } finally {
      clearInterval(beat);
    }
  }

  /** Cuts a fetched partition batch into slices of at most maxRecords records and maxBytes bytes. */
  private *slices(def: TopicDefinition, batch: Batch): Generator<Slice> {
    let slice: Slice | undefined;
    let bytes = 0;
    for (const message of batch.messages) {
      const size = message.value?.length ?? 0;
      if (slice && (slice.raw.size >= this.limits.maxRecords || bytes + size > this.limits.maxBytes)) {
        yield slice;
        slice = undefined;
        bytes = 0;
      }
      slice ??= { records: [], invalid: [], raw: new Map(), lastOffset: message.offset };
      bytes += size;
      slice.raw.set(message.offset, message);
      slice.lastOffset = message.offset;
      const meta: MessageMeta = { topic: batch.topic, partition: batch.partition, offset: message.offset, timestamp: message.timestamp };
      const decoded = decodeRecord(def, message.value);
      if (decoded.ok) slice.records.push({ envelope: decoded.envelope, meta });
      else slice.invalid.push({ message, meta, reason: decoded.error });
    }
    if (slice) yield slice;
  }

  /** The slice's effect: invalid records dead-lettered, the rest applied (isolating permanent failures). False when interrupted. */
  private async applySlice(def: TopicDefinition, slice: Slice, heartbeat: () => Promise<void>, interrupted: () => boolean): Promise<boolean> {
    for (const bad of slice.invalid) {
      this.logger.warn({ ...bad.meta, reason: bad.reason }, 'invalid record: dead-lettering');
      if (!(await this.deadLetter(def, bad.message, bad.meta, bad.reason, heartbeat, interrupted))) return false;
    }
    if (slice.records.length === 0) return true;
    return this.applyIsolating(def, slice, slice.records, heartbeat, interrupted);
  }

  /**
   * Applies records as one batch; when it fails permanently, applies each half in turn the same
   * way, so one bad record costs about log2(n) extra batches and every other record is applied.
   */
  private async applyIsolating(
    def: TopicDefinition,
    slice: Slice,
    records: readonly ConsumedRecord[],
    heartbeat: () => Promise<void>,
    interrupted: () => boolean,
  ): Promise<boolean> {
    const first = records[0]!.meta;
    const outcome = await this.untilDone(first, heartbeat, interrupted, 'handler', async () => {
      this.stats.batches += 1;
      try {
        await this.options.handle({ topic: first.topic, partition: first.partition, records });
        return 'handled' as const;
      } catch (e) {
        if (e instanceof PermanentError) return e;
        throw e;
      }
    });
    if (outcome === INTERRUPTED) return false;
    if (outcome === 'handled') {
      this.stats.processed += records.length;
      return true;
    }
    if (records.length === 1) {
      const { meta, envelope } = records[0]!;
      this.logger.warn({ ...meta, recordId: envelope.id, reason: outcome.message }, 'permanent failure: dead-lettering');
      return this.deadLetter(def, slice.raw.get(meta.offset)!, meta, `permanent: ${outcome.message}`, heartbeat, interrupted);
    }
    const half = Math.ceil(records.length / 2);
    return (
      (await this.applyIsolating(def, slice, records.slice(0, half), heartbeat, interrupted)) &&
      this.applyIsolating(def, slice, records.slice(half), heartbeat, interrupted)
    );
  }

  /** Writes the record to the DLQ, retrying as a transient failure until acknowledged. False when interrupted. */
  private async deadLetter(
    def: TopicDefinition,
    message: KafkaMessage,
    meta: MessageMeta,
    reason: string,
    heartbeat: () => Promise<void>,
    interrupted: () => boolean,
  ): Promise<boolean> {
    const headers = deadLetterHeaders(meta, reason, new Date(), headersToStrings(message.headers));
    const sent = await this.untilDone(meta, heartbeat, interrupted, 'dead-letter', async () => {
      await this.dlqProducer.publishRaw(def.dlq, message.key, message.value, headers);
      return 'sent' as const;
    });
    if (sent === INTERRUPTED) return false;
    this.stats.dead_lettered += 1;
    return true;
  }

  /**
   * Runs `attempt` until it resolves, backing off after each throw; INTERRUPTED when stop() was
   * called or the partition was taken away meanwhile. onBatch heartbeats while it runs and sleep()
   * while it waits, so a long handler or a long outage does not cost the group membership (and a
   * second delivery).
   */
  private async untilDone<T>(
    meta: MessageMeta,
    heartbeat: () => Promise<void>,
    interrupted: () => boolean,
    what: string,
    attempt: () => Promise<T>,
  ): Promise<T | typeof INTERRUPTED> {
    for (let failures = 0; ; failures += 1) {
      try {
        return await attempt();
      } catch (e) {
        if (interrupted()) return INTERRUPTED;
        const delayMs = backoffDelay(failures, this.retry);
        this.stats.retries += 1;
        this.logger.warn({ ...meta, err: e, attempt: failures + 1, delayMs }, `transient ${what} failure: retrying`);
        await this.sleep(delayMs, heartbeat);
        if (interrupted()) return INTERRUPTED;
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
      // A rebalance makes heartbeat throw: the batch is then redelivered (it was not committed).
      if (!this.isStopping) await heartbeat();
    }
  }
}

/** Group errors kafkajs's runner recovers from by joining the group again (kafkajs's isRebalancing, and UNKNOWN_MEMBER_ID). */
const REJOIN_TYPES = new Set(['UNKNOWN_MEMBER_ID', 'REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'NOT_COORDINATOR_FOR_GROUP']);

/**
 * A commit refused because the broker dropped the member (a session expired under load) comes
 * wrapped by kafkajs's retrier in a KafkaJSNonRetriableError, which its runner does not recognise:
 * the consumer crashed for good. The protocol error itself makes the runner join again (the slice
 * not committed is redelivered; handlers are idempotent). Any other error is returned as it is.
 */
export function groupMembershipError(err: unknown): unknown {
  const cause = (err as { cause?: { type?: unknown } } | null)?.cause;
  return cause && typeof cause.type === 'string' && REJOIN_TYPES.has(cause.type) ? cause : err;
}
