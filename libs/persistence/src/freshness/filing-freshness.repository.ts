import { FRESHNESS_STAGES, PIPELINE_STAGES, type FreshnessStage, type PipelineStage } from '@app/contracts';
import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { webhookEventIdSql } from '../webhooks/webhooks.table';

/** Lags of one stage from acceptance, in seconds to the millisecond. */
export interface StageLags {
  /** Filings of the group that reached the stage (only they are in the percentiles). */
  filings: number;
  /** percentile_cont: the median and the 95th percentile, interpolated; null when no filing reached the stage. */
  p50: number | null;
  p95: number | null;
}

export interface FreshnessGroup {
  /** null for the whole window. */
  form: string | null;
  filings: number;
  /** Lag from EDGAR's acceptance to each stage. */
  stages: Record<FreshnessStage, StageLags>;
  /** Lag from first seen to each later stage: what the pipeline adds once a filing is found. */
  sinceSeen: Record<PipelineStage, StageLags>;
}

/** The freshness of the last N filings live discovery found (read model; not an API shape). */
export interface FreshnessWindowRecord {
  filings: number;
  oldestAcceptedAt: Date | null;
  newestAcceptedAt: Date | null;
  overall: FreshnessGroup;
  /** Per form in the window, most filings first (ties by form). */
  byForm: FreshnessGroup[];
}

/**
 * When each filing reached each stage. The first three are the filing's freshness row; the later
 * ones come from its filing.created event (looked up by its derived id, the primary key), the
 * event's deliveries (by their (event_id, endpoint_id) key) and their first attempts (by
 * (delivery_id, attempt)): first to any endpoint.
 */
const STAGE_TIMES: Readonly<Record<FreshnessStage, string>> = {
  first_seen: 'w.first_seen_at',
  published: 'w.published_at',
  served: 'w.projected_at',
  event_created: 'ev.created_at',
  first_attempt: 'd.first_attempt_at',
  delivered: 'd.delivered_at',
};

function windowSql(byForm: boolean): string {
  const lag = (stage: FreshnessStage) => `extract(epoch FROM ${STAGE_TIMES[stage]} - w.accepted_at)::float8 AS ${stage}`;
  const sinceSeen = (stage: PipelineStage) => `extract(epoch FROM ${STAGE_TIMES[stage]} - w.first_seen_at)::float8 AS ${stage}_since_seen`;
  const stats = (column: string) =>
    `count(${column})::int AS ${column}_filings, percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY ${column}) AS ${column}_p`;
  return `
    WITH w AS (
      SELECT accession, form, accepted_at, first_seen_at, published_at, projected_at FROM filing_freshness
      ${byForm ? 'WHERE upper(form) = $2' : ''}
      ORDER BY accepted_at DESC, accession DESC
      LIMIT $1
    ), lags AS (
      SELECT w.form, w.accepted_at, ${FRESHNESS_STAGES.map(lag).join(', ')}, ${PIPELINE_STAGES.map(sinceSeen).join(', ')}
        FROM w
        LEFT JOIN webhook_events ev ON ev.id = ${webhookEventIdSql('filing.created', 'w.accession')}
        LEFT JOIN LATERAL (
          SELECT min(a.sent_at) AS first_attempt_at, min(dl.succeeded_at) AS delivered_at
            FROM webhook_deliveries dl LEFT JOIN webhook_attempts a ON a.delivery_id = dl.id AND a.attempt = 1
           WHERE dl.event_id = ev.id
        ) d ON true
    )
    SELECT grouping(form) = 1 AS overall, form, count(*)::int AS filings, min(accepted_at) AS oldest, max(accepted_at) AS newest,
           ${[...FRESHNESS_STAGES, ...PIPELINE_STAGES.map((s) => `${s}_since_seen`)].map(stats).join(',\n           ')}
      FROM lags
     GROUP BY GROUPING SETS ((), (form))`;
}

/** Seconds to the millisecond: Postgres keeps microseconds, and interpolating adds float noise (16.999999999999993). */
const toMs = (seconds: number | null | undefined): number | null => (seconds === null || seconds === undefined ? null : Math.round(seconds * 1000) / 1000);

type WindowRow = { overall: boolean; form: string | null; filings: number; oldest: Date | null; newest: Date | null } & Record<string, unknown>;

function lagsOf(row: WindowRow, column: string): StageLags {
  const p = row[`${column}_p`] as [number | null, number | null] | null;
  return { filings: row[`${column}_filings`] as number, p50: toMs(p?.[0]), p95: toMs(p?.[1]) };
}

function groupOf(row: WindowRow): FreshnessGroup {
  const stages = Object.fromEntries(FRESHNESS_STAGES.map((stage) => [stage, lagsOf(row, stage)])) as Record<FreshnessStage, StageLags>;
  const sinceSeen = Object.fromEntries(PIPELINE_STAGES.map((stage) => [stage, lagsOf(row, `${stage}_since_seen`)])) as Record<PipelineStage, StageLags>;
  return { form: row.overall ? null : row.form, filings: row.filings, stages, sinceSeen };
}

/**
 * Freshness, read side: the last `last` filings found by live discovery (newest acceptance first),
 * optionally of one form, and the median and 95th percentile of each stage's lag from acceptance,
 * overall and per form, in one statement. The window is an index walk of at most `last` rows, and
 * each of its filings costs a few primary-key lookups, whatever the size of the tables.
 */
export class FilingFreshnessRepository {
  private readonly pool: PgQueryable;

  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  /** `form` is compared upper-cased (pass it upper-cased). */
  async window(last: number, form?: string): Promise<FreshnessWindowRecord> {
    const byForm = form !== undefined;
    const result = await this.pool.query<WindowRow>({
      name: byForm ? 'filing_freshness_window_form' : 'filing_freshness_window',
      text: windowSql(byForm),
      values: byForm ? [last, form] : [last],
    });
    const overallRow = result.rows.find((r) => r.overall)!;
    const byFormGroups = result.rows
      .filter((r) => !r.overall)
      .map(groupOf)
      .sort((a, b) => b.filings - a.filings || (a.form! < b.form! ? -1 : a.form! > b.form! ? 1 : 0));
    return { filings: overallRow.filings, oldestAcceptedAt: overallRow.oldest, newestAcceptedAt: overallRow.newest, overall: groupOf(overallRow), byForm: byFormGroups };
  }
}
