import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { webhookEventRecord, type TopicDefinition } from '@app/contracts';
import type { RecordPublisher } from '@app/messaging';
import type { Logger } from '@app/observability';
import { WebhookEventLogRepository } from '@app/persistence';

/** Events per relay step (one transaction, one publish). */
const RELAY_BATCH = 500;

/**
 * The relay of the webhook event log (a transactional outbox): publishes the events the projector
 * committed (webhook_event_log_pending) to the log topic, in seq order, and deletes them from the
 * outbox only once the broker took them. It runs after each batch that made events and every
 * `intervalMs` (events a failed step or a previous process left); a failure (Kafka down) is logged
 * and the rows stay pending for the next step: nothing is lost, an event may be published twice
 * (same key and record id: the log is compacted and its reader inserts by id).
 */
export class WebhookEventRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly counts = { published: 0, failures: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly ds: DataSource,
    private readonly publisher: RecordPublisher & { close(): Promise<void> },
    private readonly topic: TopicDefinition,
    private readonly logger: Logger,
    private readonly intervalMs = 1_000,
  ) {}

  /** Nest: once the app is up. */
  onApplicationBootstrap(): void {
    this.start();
  }

  /** Nest: after the transport stopped consuming (the last batch committed), before the pool closes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  start(): void {
    this.timer ??= setInterval(() => this.kick(), this.intervalMs);
    this.timer.unref();
  }

  /** Asks for a relay step: starts one now, or one more after the step under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Waits for the steps asked for so far (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops the timer, relays what is pending one last time (a failure leaves it for the next start), closes the producer. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.settled();
    this.stopped = true;
    await this.drain();
    await this.publisher.close();
  }

  /** Relays until the outbox is empty or a step fails. */
  private async drain(): Promise<void> {
    try {
      for (;;) {
        const relayed = await WebhookEventLogRepository.relayPending(this.ds, RELAY_BATCH, (events) => this.publisher.publish(this.topic, events.map(webhookEventRecord)));
        this.counts.published += relayed;
        if (relayed < RELAY_BATCH) return;
      }
    } catch (err) {
      this.counts.failures += 1;
      this.logger.warn({ err: err instanceof Error ? err.message : String(err), topic: this.topic.name }, 'event log relay failed: the events stay pending and go out at a later step');
    }
  }
}
