/** A unit of a bulk load (an archive entry, a filing) whose records are queued for publishing. */
export interface QueuedUnit {
  index: number;
  name: string;
}

/**
 * Records queued unit by unit and published in batches while the next units are read, one publish
 * in flight at a time. Once the broker acknowledges a batch, the units whose records it held (all
 * of them) are handed to `acknowledged`, which checkpoints them.
 */
export class PublishWindow<R, U extends QueuedUnit = QueuedUnit> {
  private pending: R[] = [];
  private readonly window: Array<{ unit: U; endSeq: number }> = [];
  private seq = 0;
  private publishing: Promise<void> = Promise.resolve();

  constructor(
    private readonly batchSize: number,
    private readonly publish: (records: R[]) => Promise<void>,
    private readonly acknowledged: (units: U[], records: readonly R[]) => Promise<void>,
  ) {}

  /** Queues a unit's records (none is fine: it is done with the batch it falls in); publishes when a batch is full. */
  async add(unit: U, records: readonly R[]): Promise<void> {
    for (const r of records) this.pending.push(r);
    this.seq += records.length;
    this.window.push({ unit, endSeq: this.seq });
    if (this.pending.length >= this.batchSize) await this.flush();
  }

  /** Publishes what is queued once the publish in flight is acknowledged. */
  async flush(): Promise<void> {
    const records = this.pending;
    this.pending = [];
    const upTo = this.seq;
    await this.publishing;
    const publishing = (async () => {
      if (records.length > 0) await this.publish(records);
      const done: U[] = [];
      while (this.window.length > 0 && this.window[0]!.endSeq <= upTo) done.push(this.window.shift()!.unit);
      await this.acknowledged(done, records);
    })();
    // Awaited by the next flush (or settle()); this keeps a failure from being unhandled meanwhile.
    publishing.catch(() => undefined);
    this.publishing = publishing;
  }

  /** Waits for the publish in flight (what is queued stays queued: a stopped run drops it). */
  settle(): Promise<void> {
    return this.publishing;
  }

  /** Publishes everything queued and waits for it. */
  async drain(): Promise<void> {
    await this.flush();
    await this.publishing;
  }
}
