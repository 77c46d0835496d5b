import { Histogram, type Registry } from 'prom-client';

/**
 * The stages of a filing's way from EDGAR's acceptance to a subscriber, in order. One list for the
 * `filing_freshness_seconds` histogram (each process observes its own stages) and for
 * GET /v1/status/freshness, which computes the same lags from the database.
 * - first_seen: a poller fetched the source that listed the filing (the record's observed_at);
 * - published: its record was produced to Kafka;
 * - served: the projector committed it, so the API serves it;
 * - event_created: its webhook event was written (in the same transaction as the row, or later:
 *   an 8-K is announced once its items are known);
 * - first_attempt: the dispatcher sent the first attempt of a delivery of that event;
 * - delivered: a delivery of that event succeeded.
 */
export const FRESHNESS_STAGES = ['first_seen', 'published', 'served', 'event_created', 'first_attempt', 'delivered'] as const;
export type FreshnessStage = (typeof FRESHNESS_STAGES)[number];

/**
 * Seconds from acceptance: fine below the targets (detection p99 <= 3 s, delivery p99 <= 5 s),
 * coarse above them up to the overnight daily index (a filing accepted after the last feed poll of
 * the evening is found the next morning: hours).
 */
export const FRESHNESS_BUCKETS: readonly number[] = [0.25, 0.5, 1, 2, 3, 4, 5, 7.5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600];

export type FilingFreshnessHistogram = Histogram<'stage' | 'event_type'>;

/**
 * The `filing_freshness_seconds` histogram, in the given registries (none: the app registers it in
 * its registry later, as with any metric an object owns): seconds from EDGAR's acceptance of
 * a filing found by live discovery (not backfills) to each stage. Labels: `stage`, and
 * `event_type` (the webhook event type) on the event and delivery stages only. Delivery stages
 * count per delivery (one per subscribed endpoint), the others per filing (or event).
 */
export function filingFreshnessHistogram(registers: Registry[] = []): FilingFreshnessHistogram {
  return new Histogram({
    name: 'filing_freshness_seconds',
    help: "Seconds from EDGAR's acceptance of a filing found by live discovery to each stage of the pipeline (first_seen, published, served, event_created, first_attempt, delivered).",
    labelNames: ['stage', 'event_type'],
    buckets: [...FRESHNESS_BUCKETS],
    registers,
  });
}

/**
 * Observes `at - acceptedAt` for a stage. A negative lag (the clock of this host behind EDGAR's)
 * counts as 0: a histogram's sum should not shrink.
 */
export function observeFreshness(histogram: FilingFreshnessHistogram, stage: FreshnessStage, acceptedAt: Date, at: Date, eventType?: string): void {
  const seconds = Math.max(0, at.getTime() - acceptedAt.getTime()) / 1000;
  histogram.observe(eventType === undefined ? { stage } : { stage, event_type: eventType }, seconds);
}
