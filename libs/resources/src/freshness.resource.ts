import { z } from 'zod';
import { FRESHNESS_STAGES, type FreshnessStage } from '@app/observability';
import { PIPELINE_STAGES, type FreshnessGroup, type FreshnessWindowRecord, type PipelineStage } from '@app/persistence';

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

const seconds = (p: string) =>
  z.number().nullable().describe(`${p} of the lag from acceptance to this stage, in seconds (to the millisecond; percentile_cont, interpolated); null when no filing reached the stage`);

const stageLagSchema = (stage: FreshnessStage) =>
  z
    .object({
      filings: z.number().int().describe('Filings of the group that have reached this stage; only they are in the percentiles'),
      p50_seconds: seconds('Median'),
      p95_seconds: seconds('95th percentile'),
    })
    .describe(`Lag from EDGAR's acceptance until ${STAGE_MEANINGS[stage]}`);

const lagsSchema = z
  .object(Object.fromEntries(FRESHNESS_STAGES.map((s) => [s, stageLagSchema(s)])) as { [S in FreshnessStage]: ReturnType<typeof stageLagSchema> })
  .describe("Per stage of the pipeline, in order, how long after EDGAR's acceptance the filings reached it");

const sinceSeenLagSchema = (stage: PipelineStage) =>
  z
    .object({
      filings: z.number().int().describe('Filings of the group that have reached this stage; only they are in the percentiles'),
      p50_seconds: z.number().nullable().describe('Median of the lag from first seen to this stage, in seconds (to the millisecond; percentile_cont); null when no filing reached it'),
      p95_seconds: z.number().nullable().describe('95th percentile of the lag from first seen to this stage, in seconds (to the millisecond; percentile_cont); null when no filing reached it'),
    })
    .describe(`Lag from first seen until ${STAGE_MEANINGS[stage]}`);

const sinceSeenSchema = z
  .object(Object.fromEntries(PIPELINE_STAGES.map((s) => [s, sinceSeenLagSchema(s)])) as { [S in PipelineStage]: ReturnType<typeof sinceSeenLagSchema> })
  .describe(
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
  measured_at: z.string().describe('When this answer was computed (ISO 8601, UTC): filings still on their way then count only in the stages they had reached'),
  window: z
    .object({
      last: z.number().int().describe('The `last` asked for: how many of the most recently accepted filings the window holds at most'),
      form: z.string().nullable().describe('The form the window is limited to (upper-cased), or null for every form'),
      filings: z.number().int().describe('Filings in the window: those found by live discovery, newest acceptance first, at most `last`'),
      oldest_accepted_at: z.string().nullable().describe("EDGAR acceptance time of the window's oldest filing (ISO 8601, UTC); null when the window is empty"),
      newest_accepted_at: z.string().nullable().describe("EDGAR acceptance time of the window's newest filing (ISO 8601, UTC); null when the window is empty"),
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

function toLags(group: FreshnessGroup): FreshnessBody['lag_from_acceptance'] {
  const lags = Object.fromEntries(
    FRESHNESS_STAGES.map((stage) => {
      const s = group.stages[stage];
      return [stage, { filings: s.filings, p50_seconds: s.p50, p95_seconds: s.p95 }];
    }),
  );
  // Built from FRESHNESS_STAGES, the keys lagsSchema is made of.
  return lags as FreshnessBody['lag_from_acceptance'];
}

function toSinceSeen(group: FreshnessGroup): FreshnessBody['lag_from_first_seen'] {
  const lags = Object.fromEntries(
    PIPELINE_STAGES.map((stage) => {
      const s = group.sinceSeen[stage];
      return [stage, { filings: s.filings, p50_seconds: s.p50, p95_seconds: s.p95 }];
    }),
  );
  // Built from PIPELINE_STAGES, the keys sinceSeenSchema is made of.
  return lags as FreshnessBody['lag_from_first_seen'];
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
    lag_from_acceptance: toLags(r.overall),
    lag_from_first_seen: toSinceSeen(r.overall),
    by_form: r.byForm.map((g) => ({ form: g.form!, filings: g.filings, lag_from_acceptance: toLags(g), lag_from_first_seen: toSinceSeen(g) })),
  };
}
