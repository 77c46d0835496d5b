import { nextStep, responseExcerpt, SecretBox, webhookBody, webhookHeaders } from '@app/webhooks';
import type { WebhookSender } from './webhook.sender';
import type { AttemptRecord, ClaimedDelivery, WebhooksRepository } from './webhooks.repository';

export interface DispatcherOptions {
  concurrency: number;
  pollMs: number;
  timeoutMs: number;
  retrySchedule: readonly number[];
  disableAfterMs: number;
  userAgent: string;
}

export interface DispatcherCounts {
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
  /** Endpoints disabled (410 or failing too long). */
  disabled: number;
  /** Transient errors of the loop itself (database down): it backs off and goes on. */
  errors: number;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** Beyond the attempt timeout: time to write the result before the lease lets another process retry. */
const LEASE_SLACK_MS = 30_000;

/** Attempts written in one transaction at most. */
const MAX_RECORD_BATCH = 64;

/**
 * Claims due deliveries (SKIP LOCKED, leased) and POSTs them, at most `concurrency` at a time.
 * The loop claims as many as there are free slots; it sleeps pollMs when nothing is due, and
 * wakes early when the fan-out inserts deliveries or a slot frees while more are due.
 * stop(): claims nothing more, lets the attempts in flight finish and record their results.
 */
export class Dispatcher {
  readonly counts: DispatcherCounts = { claimed: 0, succeeded: 0, retried: 0, failed: 0, disabled: 0, errors: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly toRecord: Array<{ record: AttemptRecord; resolve: (disabled: string | null) => void; reject: (err: unknown) => void }> = [];
  /** Attempts whose POST is under way (the concurrency bound); inFlight also holds those being recorded. */
  private sending = 0;
  private recording = false;
  /** The last claim filled every free slot: more may be due. */
  private backlog = false;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly options: DispatcherOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Something may be due now (a new delivery, a freed slot). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      // POSTs are bounded by `concurrency`; results being written do not hold a slot, but at most
      // 4x concurrency attempts wait for their write (the database is the slower stage then).
      const free = Math.min(this.options.concurrency - this.sending, 4 * this.options.concurrency - this.inFlight.size);
      if (free > 0) {
        try {
          const claimed = await this.repo.claim(free, this.options.timeoutMs + LEASE_SLACK_MS);
          failures = 0;
          this.backlog = claimed.length === free;
          this.counts.claimed += claimed.length;
          for (const d of claimed) this.track(this.attempt(d));
          if (this.backlog && this.sending < this.options.concurrency) continue;
        } catch (err) {
          this.counts.errors += 1;
          failures += 1;
          this.logger.warn({ err, failures }, 'claiming deliveries failed: backing off');
          await this.sleep(Math.min(30_000, this.options.pollMs * 2 ** Math.min(failures, 7)));
          continue;
        }
      }
      await this.sleep(this.options.pollMs);
    }
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      if (this.backlog) this.wake();
    });
  }

  private async sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = undefined;
    this.woken = false;
  }

  /**
   * Group commit: attempts that finish while a batch is being written wait for the next batch,
   * so under load one transaction records many attempts; alone, an attempt is written at once.
   */
  private recordSoon(record: AttemptRecord): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ record, resolve, reject });
      if (!this.recording) void this.recordBatches();
    });
  }

  private async recordBatches(): Promise<void> {
    this.recording = true;
    try {
      while (this.toRecord.length > 0) {
        const batch = this.toRecord.splice(0, MAX_RECORD_BATCH);
        try {
          const disabled = await this.repo.recordAttempts(
            batch.map((b) => b.record),
            this.options.disableAfterMs,
          );
          for (const b of batch) b.resolve(disabled.get(b.record.endpointId) ?? null);
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /** One attempt, start to recorded result. Never rejects: a failure to record is logged (the lease retries it). */
  private async attempt(d: ClaimedDelivery): Promise<void> {
    this.sending += 1;
    let sent = false;
    const posted = (): void => {
      if (sent) return;
      sent = true;
      this.sending -= 1;
      if (this.backlog) this.wake();
    };
    try {
      await this.attemptAndRecord(d, posted);
    } finally {
      posted();
    }
  }

  private async attemptAndRecord(d: ClaimedDelivery, posted: () => void): Promise<void> {
    const attempt = d.attempts + 1;
    const sentAt = new Date();
    const body = webhookBody(d.type, d.eventCreatedAt, d.data, d.isTest);
    let record: AttemptRecord;
    try {
      const secrets = d.sealedSecrets.map((s) => this.secrets.open(s));
      if (secrets.length === 0) throw new Error('the endpoint has no active signing secret');
      const headers = webhookHeaders(secrets, d.eventId, Math.floor(sentAt.getTime() / 1000), body, this.options.userAgent);
      const res = await this.sender.send(d.url, headers, body);
      const step = nextStep({ statusCode: res.statusCode, retryAfter: res.retryAfter, attempts: attempt }, this.options.retrySchedule, new Date());
      const nextAttemptAt = step.kind === 'retry' ? new Date(Date.now() + step.delayMs) : null;
      record = {
        deliveryId: d.id,
        endpointId: d.endpointId,
        attempt,
        sentAt,
        statusCode: res.statusCode,
        durationMs: res.durationMs,
        responseExcerpt: responseExcerpt(res.body),
        error: res.error ?? (step.kind === 'succeeded' ? null : `HTTP ${res.statusCode}`),
        result: step.kind === 'exhausted' ? 'failed' : step.kind,
        nextAttemptAt,
      };
    } catch (err) {
      // Nothing was sent (a secret that does not open): a failed attempt on the same schedule.
      const step = nextStep({ statusCode: null, attempts: attempt }, this.options.retrySchedule, new Date());
      record = {
        deliveryId: d.id,
        endpointId: d.endpointId,
        attempt,
        sentAt,
        statusCode: null,
        durationMs: 0,
        responseExcerpt: null,
        error: `not sent: ${(err as Error).message}`,
        result: step.kind === 'retry' ? 'retry' : 'failed',
        nextAttemptAt: step.kind === 'retry' ? new Date(Date.now() + step.delayMs) : null,
      };
    }
    posted();
    try {
      const endpointDisabled = await this.recordSoon(record);
      if (record.result === 'succeeded') this.counts.succeeded += 1;
      else if (record.result === 'retry') this.counts.retried += 1;
      else this.counts.failed += 1;
      if (endpointDisabled) {
        this.counts.disabled += 1;
        this.logger.warn({ endpointId: d.endpointId, reason: endpointDisabled }, 'endpoint disabled');
      }
      this.logger.debug({ deliveryId: d.id, eventId: d.eventId, attempt, status: record.statusCode, result: record.result }, 'attempt');
    } catch (err) {
      this.counts.errors += 1;
      this.logger.warn({ err, deliveryId: d.id }, 'recording an attempt failed: the delivery is retried when its lease ends');
    }
  }
}
