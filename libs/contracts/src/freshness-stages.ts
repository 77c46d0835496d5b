/**
 * The stages of a filing's way from EDGAR's acceptance to a subscriber, in order: one list for the
 * `filing_freshness_seconds` histogram (each process observes its own stages) and for
 * GET /v1/status/freshness, which computes the same lags from the database (docs/freshness.md).
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

/** The stages after detection, whose lag from first_seen is the pipeline's own latency. */
export const PIPELINE_STAGES = FRESHNESS_STAGES.filter((s): s is Exclude<FreshnessStage, 'first_seen'> => s !== 'first_seen');
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
