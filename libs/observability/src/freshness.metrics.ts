import { Histogram, type Registry } from 'prom-client';
import type { FreshnessStage } from '@app/contracts';

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
