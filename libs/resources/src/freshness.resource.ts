import { z } from 'zod';
import { FRESHNESS_STAGES, PIPELINE_STAGES, type FreshnessStage } from '@app/contracts';
import type { FreshnessWindowRecord } from '@app/persistence';
import { dateTimeField } from './shared.resource';

/** What the service read, and for which request: the input of toFreshness. */
export interface FilingFreshness {
  record: FreshnessWindowRecord;
  last: number;
  form: string | null;
  measuredAt: Date;
}

const STAGE_MEANINGS: Readonly<Record<FreshnessStage, string>> = {
  first_seen: "a poller fetched the EDGAR source that listed the filing (the latest-filings feed, the current events listing or the daily index): the pipeline's detection",
  published: "the filing's record was published to Kafka (the message timestamp)",
  served: 'the projector committed the filing: from then GET /v1/filings/{accession} serves it',
  event_created: 'its filing.created webhook event was written (for an 8-K, once its items are known)',
  first_attempt: "the first attempt to deliver that event was sent, to any subscribed endpoint; filings whose event reached no endpoint's deliveries are not counted",
  delivered: 'a delivery of that event first succeeded, at any subscribed endpoint',
};

/** One stage's lag from `from` (acceptance or first seen): how many filings reached it, p50 and p95. */
const stageLagSchema = (stage: FreshnessStage, from: string) => {
  const seconds = (p: string) =>
    z.number().nullable().describe(`${p} of the lag from ${from} to this stage, in seconds (to the millisecond; percentile_cont, interpolated); null when no filing reached the stage`);
  return z
    .object({
      filings: z.number().int().describe('Filings of the group that have reached this stage; only they are in the percentiles'),
      p50_seconds: seconds('Median'),
      p95_seconds: seconds('95th percentile'),
    })
    .describe(`Lag from ${from} until ${STAGE_MEANINGS[stage]}`);
};

type StageLag = z.infer<ReturnType<typeof stageLagSchema>>;

/** One object of `stages`, each with its lag from `from`. */
function lagsSchemaOf<S extends FreshnessStage>(stages: readonly S[], from: string) {
  return z.object(Object.fromEntries(stages.map((s) => [s, stageLagSchema(s, from)])) as { [K in S]: ReturnType<typeof stageLagSchema> });
}

const lagsSchema = lagsSchemaOf(FRESHNESS_STAGES, "EDGAR's acceptance").describe("Per stage of the pipeline, in order, how long after EDGAR's acceptance the filings reached it");

const sinceSeenSchema = lagsSchemaOf(PIPELINE_STAGES, 'first seen').describe(
  'Per later stage, how long after the pipeline first saw a filing it reached the stage: the latency the platform adds once a filing is found, ' +
    "apart from EDGAR's own delay in listing it and the poll's wait (both in lag_from_acceptance.first_seen)",
);

const formFreshnessSchema = z.object({
  form: z.string().describe('EDGAR form type as filed (10-K, 8-K, 4, ...)'),
  filings: z.number().int().describe('Filings of this form in the window'),
  lag_from_acceptance: lagsSchema,
  lag_from_first_seen: sinceSeenSchema,
});

export const freshnessSchema = z.object({
  measured_at: dateTimeField().describe('When this answer was computed (ISO 8601, UTC): filings still on their way then count only in the stages they had reached'),
  window: z
    .object({
      last: z.number().int().describe('The `last` asked for: how many of the most recently accepted filings the window holds at most'),
      form: z.string().nullable().describe('The form the window is limited to (upper-cased), or null for every form'),
      filings: z.number().int().describe('Filings in the window: those found by live discovery, newest acceptance first, at most `last`'),
      oldest_accepted_at: dateTimeField().nullable().describe("EDGAR acceptance time of the window's oldest filing (ISO 8601, UTC); null when the window is empty"),
      newest_accepted_at: dateTimeField().nullable().describe("EDGAR acceptance time of the window's newest filing (ISO 8601, UTC); null when the window is empty"),
    })
    .describe(
      'Which filings are measured: the last `last` filings (by EDGAR acceptance time) that live discovery found, of `form` when given. ' +
        'Filings loaded by backfills (the submissions API, bulk archives) are history, not news, and are never counted',
    ),
  lag_from_acceptance: lagsSchema,
  lag_from_first_seen: sinceSeenSchema,
  by_form: z.array(formFreshnessSchema).describe('The same figures per form in the window, most filings first (ties by form)'),
});

export type FreshnessBody = z.infer<typeof freshnessSchema>;

/** The group's figures for `stages`, read from `stats` (its lags from acceptance, or from first seen). */
function lagsOf<S extends FreshnessStage>(stages: readonly S[], stats: Record<S, { filings: number; p50: number | null; p95: number | null }>): Record<S, StageLag> {
  return Object.fromEntries(stages.map((stage) => [stage, { filings: stats[stage].filings, p50_seconds: stats[stage].p50, p95_seconds: stats[stage].p95 }])) as Record<S, StageLag>;
}

/** Read model -> the freshness answer. */
export function toFreshness(f: FilingFreshness): FreshnessBody {
  const r = f.record;
  return {
    measured_at: f.measuredAt.toISOString(),
    window: {
      last: f.last,
      form: f.form,
      filings: r.filings,
      oldest_accepted_at: r.oldestAcceptedAt ? r.oldestAcceptedAt.toISOString() : null,
      newest_accepted_at: r.newestAcceptedAt ? r.newestAcceptedAt.toISOString() : null,
    },
    lag_from_acceptance: lagsOf(FRESHNESS_STAGES, r.overall.stages),
    lag_from_first_seen: lagsOf(PIPELINE_STAGES, r.overall.sinceSeen),
    by_form: r.byForm.map((g) => ({ form: g.form!, filings: g.filings, lag_from_acceptance: lagsOf(FRESHNESS_STAGES, g.stages), lag_from_first_seen: lagsOf(PIPELINE_STAGES, g.sinceSeen) })),
  };
}
