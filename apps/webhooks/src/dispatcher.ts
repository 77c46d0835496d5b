import { filingFreshnessHistogram, Histogram, observeFreshness } from '@app/observability';
import type { AttemptResult, ClaimedDelivery, WebhookDispatchRepository } from '@app/persistence';
import { nextStep, responseExcerpt, SecretBox, webhookBody, webhookHeaders } from '@app/webhooks';
import type { SendResult, WebhookSender } from './webhook.sender';

export interface DispatcherOptions {
  concurrency: number;
  pollMs: number;
  timeoutMs: number;
  retrySchedule: readonly number[];
  disableAfterMs: number;
  /** Beyond the attempt timeouts of a claim: time to write the results before the lease lets another process retry. */
  leaseSlackMs: number;
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

/** Attempts written in one transaction at most. */
const MAX_RECORD_BATCH = 256;

/**
 * A claimed delivery waits in the local queue at most this long; past it, it is given back and
 * claimed again (with fresh endpoint state: deleted or disabled endpoints are not sent to).
 */
const MAX_QUEUE_WAIT_MS = 1_000;

/** Times a batch is written again after Postgres aborted it as a deadlock victim. */
const DEADLOCK_RETRIES = 10;

/** Batches of attempt results written at the same time (their own pooled connections). */
const RECORD_WRITERS = 2;

/**
 * A result waits at most this long for others to share its statement and commit. Each statement
 * costs about as much as a few hundred rows in it, so writing every few results as they come
 * spends the database on statements, not rows. The delivery was already POSTed: the wait delays
 * only the log (and the lease ends long after).
 */
const RECORD_LINGER_MS = 10;

/**
 * Deliveries claimed ahead of the free slots, per slot: one claim feeds many attempts. The loop
 * claims again when the queue is half empty: under load a claim takes a few milliseconds, in
 * which the slots would otherwise drain the queue and wait.
 */
const PREFETCH_PER_SLOT = 8;

/**
 * Claims due deliveries (SKIP LOCKED, leased) into a local queue, several per free slot in one
 * statement, and POSTs them at most `concurrency` at a time: a slot that frees takes the next
 * queued delivery at once, without a round trip to the database. The loop claims again when the
 * queue runs low; it sleeps pollMs when nothing is due, and wakes early when the projector
 * commits new deliveries (its NOTIFY, heard by the runner) or the queue runs low. stop(): claims
 * nothing more, gives queued deliveries back, lets the attempts in flight finish and record their
 * results.
 */
export class Dispatcher {
  readonly counts: DispatcherCounts = { claimed: 0, succeeded: 0, retried: 0, failed: 0, disabled: 0, errors: 0 };
  /** Seconds from sending an attempt to its result (status, error or timeout). */
  readonly attemptSeconds = new Histogram({
    name: 'webhooks_attempt_duration_seconds',
    help: 'Time from sending an attempt to its result.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers: [],
  });
  /** Seconds from an event being made to its delivery's first attempt (again if that attempt's result was not written). */
  readonly firstAttemptDelaySeconds = new Histogram({
    name: 'webhooks_first_attempt_delay_seconds',
    help: "Time from an event being made to its delivery's first attempt.",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [],
  });
  /** The dispatcher's stages of filing freshness (first_attempt, delivered), per delivery of an event about a filing live discovery found. */
  readonly freshness = filingFreshnessHistogram();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly queue: Array<{ delivery: ClaimedDelivery; claimedAt: number }> = [];
  /**
   * Endpoints this process saw answer 410: null until the disable is committed, then when it was.
   * A delivery claimed before that commit may still name the endpoint as enabled: it is not sent.
   */
  private readonly goneEndpoints = new Map<string, number | null>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly toRecord: Array<{ record: AttemptResult; queuedAt: number; resolve: (disabled: string | null) => void; reject: (err: unknown) => void }> = [];
  private lingerTimer: NodeJS.Timeout | undefined;
  /** Attempts whose POST is under way (the concurrency bound); inFlight also holds those being recorded. */
  private sending = 0;
  /** Batches of attempt results being written now. */
  private writers = 0;
  /** The last claim took all it asked for: more may be due. */
  private backlog = false;
  /** Moving average of attempt durations (ms), for how much to claim ahead. */
  private recentAttemptMs = 0;
  /** Opened signing secrets by sealed value: opening is an AES-GCM decryption per delivery otherwise. */
  private readonly openedSecrets = new Map<string, string>();

  constructor(
    private readonly repo: WebhookDispatchRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly options: DispatcherOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Something may be due now (a new delivery, a queue running low). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Started and not stopping. */
  get running(): boolean {
    return this.loop !== undefined && !this.stopping;
  }

  /** Attempts whose POST is under way now. */
  get sendingCount(): number {
    return this.sending;
  }

  /** Claimed deliveries waiting for a free slot. */
  get queuedCount(): number {
    return this.queue.length;
  }

  /** Attempt results waiting to be written. */
  get unrecordedCount(): number {
    return this.toRecord.length;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await this.release(this.queue.splice(0).map((q) => q.delivery));
    await Promise.all([...this.inFlight]);
  }

  private get prefetch(): number {
    return PREFETCH_PER_SLOT * this.options.concurrency;
  }

  /**
   * Deliveries the slots can start within MAX_QUEUE_WAIT_MS at the recent attempt time, minus
   * those queued: with slow receivers, claiming more would only give most of them back.
   */
  private startableWithinQueueWait(): number {
    const perSlot = Math.max(1, Math.floor(MAX_QUEUE_WAIT_MS / Math.max(1, this.recentAttemptMs)));
    return Math.max(0, perSlot * this.options.concurrency - this.queue.length);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      // Claim when the queue is half empty; results waiting for their write bound it too (at
      // most 16x concurrency: the database is the slower stage then).
      const room = Math.min(this.prefetch - this.queue.length, 16 * this.options.concurrency - this.inFlight.size, this.startableWithinQueueWait());
      if (this.queue.length <= this.prefetch / 2 && room > 0) {
        try {
          const claimedAt = Date.now();
          const claimed = await this.repo.claim(room, this.options.timeoutMs + MAX_QUEUE_WAIT_MS + this.options.leaseSlackMs);
          failures = 0;
          this.backlog = claimed.length === room;
          this.counts.claimed += claimed.length;
          for (const delivery of claimed) this.queue.push({ delivery, claimedAt });
          this.startQueued();
          if (this.backlog && !this.stopping) {
            // More is due: claim again as soon as the queue runs low (startQueued wakes the loop).
            await this.sleep(this.options.pollMs);
            continue;
          }
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

  /**
   * Fills free slots from the queue; deliveries that waited too long are given back instead (their
   * lease covers one attempt and the queue wait, no more). Wakes the loop when the queue runs low.
   */
  private startQueued(): void {
    const stale: ClaimedDelivery[] = [];
    const now = Date.now();
    while (!this.stopping && this.sending < this.options.concurrency && this.queue.length > 0) {
      const { delivery, claimedAt } = this.queue.shift()!;
      if (now - claimedAt > MAX_QUEUE_WAIT_MS || this.claimedBeforeGone(delivery.endpointId, claimedAt)) stale.push(delivery);
      else this.track(this.attempt(delivery));
    }
    if (stale.length) this.track(this.release(stale));
    if (this.backlog && this.queue.length <= this.prefetch / 2) this.wake();
  }

  /** Gives claimed, unsent deliveries back (only those this claim still holds). Never rejects. */
  private async release(deliveries: ClaimedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    try {
      await this.repo.release(deliveries.map((d) => ({ id: d.id, leaseToken: d.leaseToken })));
    } catch (err) {
      this.logger.warn({ err, count: deliveries.length }, 'giving back queued deliveries failed: they are due again when their lease ends');
    }
  }

  private claimedBeforeGone(endpointId: string, claimedAt: number): boolean {
    if (!this.goneEndpoints.has(endpointId)) return false;
    const committedAt = this.goneEndpoints.get(endpointId)!;
    return committedAt === null || claimedAt <= committedAt;
  }

  /** The endpoint answered 410: nothing queued for it is sent, nor claimed before its disable is committed. */
  private markGone(endpointId: string): void {
    this.goneEndpoints.set(endpointId, null);
    this.dropQueuedFor(endpointId);
  }

  private goneCommitted(endpointId: string): void {
    const now = Date.now();
    this.goneEndpoints.set(endpointId, now);
    // Claims older than the queue wait are given back anyway: older marks decide nothing.
    for (const [id, at] of this.goneEndpoints) if (at !== null && at < now - 10 * MAX_QUEUE_WAIT_MS) this.goneEndpoints.delete(id);
  }

  /** An endpoint was disabled: what is queued for it is given back, not sent. */
  private dropQueuedFor(endpointId: string): void {
    const dropped: ClaimedDelivery[] = [];
    for (let i = this.queue.length - 1; i >= 0; i -= 1) {
      if (this.queue[i]!.delivery.endpointId === endpointId) dropped.push(...this.queue.splice(i, 1).map((q) => q.delivery));
    }
    if (dropped.length) this.track(this.release(dropped));
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

  private openSecret(sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      secret = this.secrets.open(sealed);
      // Bounded: endpoints x (at most two live secrets each) is small; a flood of rotations is not kept.
      if (this.openedSecrets.size >= 10_000) this.openedSecrets.clear();
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }

  /**
   * Group commit: a result waits until MAX_RECORD_BATCH results are waiting or the oldest has
   * waited RECORD_LINGER_MS, then they are written in one statement. Up to RECORD_WRITERS
   * batches are written at a time (each on its own pooled connection).
   */
  private recordSoon(record: AttemptResult): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ record, queuedAt: performance.now(), resolve, reject });
      this.scheduleRecording();
    });
  }

  private scheduleRecording(): void {
    // Start writers while a batch is due (a writer that finishes calls this again).
    while (this.toRecord.length > 0 && this.writers < RECORD_WRITERS) {
      const waitMs = RECORD_LINGER_MS - (performance.now() - this.toRecord[0]!.queuedAt);
      if (this.toRecord.length < MAX_RECORD_BATCH && waitMs > 0) {
        this.lingerTimer ??= setTimeout(() => {
          this.lingerTimer = undefined;
          this.scheduleRecording();
        }, waitMs);
        return;
      }
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
      void this.recordBatch();
    }
  }

  private async recordBatch(): Promise<void> {
    this.writers += 1;
    const batch = this.toRecord.splice(0, MAX_RECORD_BATCH);
    try {
      const disabled = await this.recordWithRetry(batch.map((b) => b.record));
      for (const b of batch) b.resolve(disabled.get(b.record.endpointId) ?? null);
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.writers -= 1;
      this.scheduleRecording();
    }
  }

  /**
   * Concurrent batches touching the same endpoints' health rows can deadlock; Postgres then
   * aborts one statement whole (40P01), so writing it again, after a short random pause, is safe.
   */
  private async recordWithRetry(records: AttemptResult[]): Promise<Map<string, string>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.repo.recordAttempts(records, this.options.disableAfterMs);
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt > DEADLOCK_RETRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
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
      this.startQueued();
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
    let res: SendResult;
    try {
      const secrets = d.sealedSecrets.map((s) => this.openSecret(s));
      if (secrets.length === 0) throw new Error('the endpoint has no active signing secret');
      const headers = webhookHeaders(secrets, d.eventId, Math.floor(sentAt.getTime() / 1000), body, this.options.userAgent);
      res = await this.sender.send(d.url, headers, body);
    } catch (err) {
      // Nothing was sent (a secret that does not open): a failed attempt on the same schedule.
      res = { statusCode: null, body: Buffer.alloc(0), retryAfter: null, durationMs: 0, error: `not sent: ${(err as Error).message}` };
    }
    const answeredAt = new Date();
    this.recentAttemptMs = this.recentAttemptMs === 0 ? res.durationMs : this.recentAttemptMs + (res.durationMs - this.recentAttemptMs) / 8;
    // Attempts that sent nothing (a refused URL, a secret that does not open) have no duration.
    if (res.statusCode !== null || res.durationMs > 0) this.attemptSeconds.observe(res.durationMs / 1000);
    if (attempt === 1) this.firstAttemptDelaySeconds.observe(Math.max(0, sentAt.getTime() - d.eventCreatedAt.getTime()) / 1000);
    if (attempt === 1 && d.filingAcceptedAt) observeFreshness(this.freshness, 'first_attempt', d.filingAcceptedAt, sentAt, d.type);
    const step = nextStep({ statusCode: res.statusCode, retryAfter: res.retryAfter, attempts: attempt }, this.options.retrySchedule, new Date());
    const record: AttemptResult = {
      deliveryId: d.id,
      leaseToken: d.leaseToken,
      endpointId: d.endpointId,
      attempt,
      sentAt,
      statusCode: res.statusCode,
      durationMs: res.durationMs,
      responseExcerpt: responseExcerpt(res.body),
      error: res.error ?? (step.kind === 'succeeded' ? null : `HTTP ${res.statusCode}`),
      result: step.kind === 'exhausted' ? 'failed' : step.kind,
      nextAttemptAt: step.kind === 'retry' ? new Date(Date.now() + step.delayMs) : null,
    };
    // A 410 disables the endpoint: what is queued for it is not sent (decided before the slot frees).
    if (record.result === 'gone') this.markGone(d.endpointId);
    posted();
    try {
      const endpointDisabled = await this.recordSoon(record);
      if (record.result === 'gone') this.goneCommitted(d.endpointId);
      if (record.result === 'succeeded') {
        this.counts.succeeded += 1;
        // Counted once recorded: a success whose record is lost is sent again, and counted then.
        if (d.filingAcceptedAt) observeFreshness(this.freshness, 'delivered', d.filingAcceptedAt, answeredAt, d.type);
      }
      else if (record.result === 'retry') this.counts.retried += 1;
      else this.counts.failed += 1;
      if (endpointDisabled) {
        this.dropQueuedFor(d.endpointId);
        this.counts.disabled += 1;
        this.logger.warn({ endpointId: d.endpointId, reason: endpointDisabled }, 'endpoint disabled');
      }
      this.logger.debug({ deliveryId: d.id, eventId: d.eventId, attempt, status: record.statusCode, result: record.result }, 'attempt');
    } catch (err) {
      // Not recorded: the endpoint stays enabled and the 410 is asked again when the lease ends.
      if (record.result === 'gone') this.goneEndpoints.delete(d.endpointId);
      this.counts.errors += 1;
      this.logger.warn({ err, deliveryId: d.id }, 'recording an attempt failed: the delivery is retried when its lease ends');
    }
  }
}
