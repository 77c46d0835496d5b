import { Catch, type DynamicModule, type ExceptionFilter, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseRpcContext, Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { isObservable, lastValueFrom, throwError, type Observable } from 'rxjs';
import { ALL_TOPICS, namespacedTopic, type TopicDefinition } from '@app/contracts';
import type { RetryPolicy } from './backoff.policy';
import { ConsumerRunner, type BatchLimits, type RecordBatch } from './consumer.runner';
import type { KafkaSettings } from './kafka.settings';
import type { MessagingLogger } from './messaging.logger';
import { startWorkerOps, type WorkerOpsOptions } from './consumer.ops';
import type { OpsServer } from '@app/observability';
import { ensureTopics } from './topics.admin';

export interface KafkaBatchTransportOptions {
  settings: KafkaSettings;
  groupId: string;
  /**
   * KAFKA_TOPIC_NAMESPACE: handlers name registry topics (`@EventPattern(TOPICS.filings.name)`);
   * the transport consumes them under this prefix.
   */
  namespace: string;
  /** Where a group without committed offsets starts; default true (a new group reads the whole topic). */
  fromBeginning?: boolean;
  batch?: Partial<BatchLimits>;
  partitionsConcurrently?: number;
  retry?: RetryPolicy;
  logger?: MessagingLogger;
  sessionTimeoutMs?: number;
  maxWaitTimeMs?: number;
}

/** What a handler gets beside its batch: the topic-partition (under its namespaced name). */
export class KafkaBatchContext extends BaseRpcContext<[topic: string, partition: number]> {
  get topic(): string {
    return this.args[0];
  }

  get partition(): number {
    return this.args[1];
  }
}

/**
 * Nest's default filter turns every handler error into `{status: 'error'}`; the runner needs the
 * error itself (PermanentError isolates a record, anything else backs off), so it passes through.
 */
@Catch()
export class RecordErrorPassThrough implements ExceptionFilter {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/**
 * The @nestjs/microservices transport of every consumer app: `@EventPattern([<topic name>, ...])`
 * methods of the app's controllers receive a RecordBatch (validated envelopes of one topic-partition, in offset
 * order) and the ConsumerRunner keeps its guarantees around them: commit after the effect, back-off
 * on transient failures, a permanent failure isolated to `<topic>.dlq`. The topics consumed are
 * exactly those the app declares handlers for.
 */
export class KafkaBatchTransport extends Server implements CustomTransportStrategy {
  private consumer: ConsumerRunner | undefined;
  private readonly patternOf = new Map<string, string>();

  constructor(private readonly options: KafkaBatchTransportOptions) {
    super();
  }

  /** The runner, once listening: health, counters and lag. */
  get runner(): ConsumerRunner {
    if (!this.consumer) throw new Error('KafkaBatchTransport is not listening yet');
    return this.consumer;
  }

  listen(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    this.start().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  }

  async close(): Promise<void> {
    await this.consumer?.stop();
  }

  on(): never {
    throw new Error('KafkaBatchTransport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.runner as T;
  }

  private async start(): Promise<void> {
    const topics = [...this.getHandlers().keys()].map((pattern) => this.topicOf(pattern));
    if (topics.length === 0) throw new Error('no @EventPattern handler is declared: nothing to consume');
    // The broker does not auto-create topics: subscribing to one no producer has written yet would fail.
    await ensureTopics(this.options.settings, topics);
    this.consumer = new ConsumerRunner({
      settings: this.options.settings,
      groupId: this.options.groupId,
      topics,
      fromBeginning: this.options.fromBeginning ?? true,
      ...(this.options.batch ? { batch: this.options.batch } : {}),
      ...(this.options.partitionsConcurrently !== undefined ? { partitionsConcurrently: this.options.partitionsConcurrently } : {}),
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      ...(this.options.logger ? { logger: this.options.logger } : {}),
      ...(this.options.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: this.options.sessionTimeoutMs } : {}),
      ...(this.options.maxWaitTimeMs !== undefined ? { maxWaitTimeMs: this.options.maxWaitTimeMs } : {}),
      handle: (batch) => this.dispatch(batch),
    });
    await this.consumer.start();
  }

  private topicOf(pattern: string): TopicDefinition {
    const def = ALL_TOPICS.find((t) => t.name === pattern);
    if (!def) throw new Error(`@EventPattern('${pattern}') names no topic of the registry`);
    const topic = namespacedTopic(def, this.options.namespace);
    this.patternOf.set(topic.name, pattern);
    return topic;
  }

  private async dispatch(batch: RecordBatch): Promise<void> {
    const handler = this.getHandlerByPattern(this.patternOf.get(batch.topic) ?? batch.topic);
    if (!handler) throw new Error(`no handler for ${batch.topic}`);
    const result: unknown = await handler(batch, new KafkaBatchContext([batch.topic, batch.partition]));
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  }
}

export interface FollowOptions {
  /** Return once the group has caught up (lag 0 on every partition) instead of waiting for `signal`. */
  once: boolean;
  /** Stops following when aborted (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** How often the consumer's health (and, with `once`, the lag) is checked; default 500 ms. */
  checkMs?: number;
}

/** A worker's ops server (/healthz, /readyz, /metrics), from its booted app: the consumer's checks and metrics are added. */
export type WorkerOpsOf = (app: INestMicroservice) => Omit<WorkerOpsOptions, 'consumer'>;

export interface StartWorkerOptions extends KafkaBatchTransportOptions {
  /** When given, the worker serves ops beside consuming, and stop() closes it first. */
  ops?: WorkerOpsOf;
}

export interface RunningWorker {
  app: INestMicroservice;
  runner: ConsumerRunner;
  /** The ops server's port, when `ops` was given. */
  opsPort: number | null;
  /**
   * Waits while the worker consumes: until `signal` aborts, or with `once` until the group has
   * caught up. Throws when the consumer died beyond kafkajs' own restarts (it would wait forever).
   */
  follow(options: FollowOptions): Promise<void>;
  /** Closes the ops server, stops consuming (the batch in flight finishes and commits), then closes the module. Idempotent. */
  stop(): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

async function follow(runner: ConsumerRunner, options: FollowOptions): Promise<void> {
  while (!options.signal?.aborted) {
    await sleep(options.checkMs ?? 500, options.signal);
    if (options.signal?.aborted) return;
    if (!runner.healthy) throw new Error(`consumer ${runner.groupId} is not running (crashed?)`);
    if (options.once && (await runner.lag()).every((p) => p.lag === 0)) return;
  }
}

/**
 * The one worker host: boots `module` as a Nest microservice on a KafkaBatchTransport and starts
 * consuming. Every consumer app starts this way.
 */
export async function startWorker(module: Type | DynamicModule, options: StartWorkerOptions): Promise<RunningWorker> {
  const { ops: opsOf, ...transportOptions } = options;
  const transport = new KafkaBatchTransport(transportOptions);
  const app = await NestFactory.createMicroservice(module, { strategy: transport, logger: ['error', 'warn'] });
  app.useGlobalFilters(new RecordErrorPassThrough());
  let ops: OpsServer | null = null;
  try {
    await app.listen();
    if (opsOf) ops = await startWorkerOps({ ...opsOf(app), consumer: { runner: transport.runner, settings: options.settings, topics: transport.runner.topics } });
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  const runner = transport.runner;
  let stopping: Promise<void> | undefined;
  return {
    app,
    runner,
    opsPort: ops?.port ?? null,
    follow: (followOptions) => follow(runner, followOptions),
    stop: () =>
      (stopping ??= (async () => {
        await ops?.close();
        await app.close();
      })()),
  };
}
