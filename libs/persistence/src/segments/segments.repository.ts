import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Provenance } from '@app/contracts';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';

/** One segment observation as the API reads it (read model, camelCase; not an API shape). */
export interface SegmentObservation {
  recordKey: string;
  cik: string;
  accession: string;
  form: string;
  metricKey: string;
  concept: string;
  axis: string;
  dimension: string;
  memberQname: string;
  member: string;
  /** segment, corporate, eliminations or other; null for records written before kinds were read. */
  memberKind: string | null;
  issuerLabel: string;
  periodKind: string;
  periodStart: string | null;
  periodEnd: string;
  periodCalendar: string;
  periodFiscal: string | null;
  /** Exact decimal text of the reported value. */
  value: string;
  unit: string;
  decimals: string | null;
  scale: number;
  tier: string;
  provenance: Provenance;
}

/** The segment list's order: period end, then metric key, member and record key, all one direction. */
export const SEGMENTS_ORDER = keysetOrder<SegmentObservation>(
  { sql: 'period_end', type: 'date', of: (o) => o.periodEnd },
  { sql: 'metric_key', type: 'text', of: (o) => o.metricKey },
  { sql: 'member', type: 'text', of: (o) => o.member },
  { sql: 'record_key', type: 'text', of: (o) => o.recordKey },
);

/** What a company's segment data covers, for the `_gaps` notes. */
export interface SegmentCoverage {
  total: number;
  annualForms: number;
  derivedQ4: number;
}

const COLUMNS = `record_key AS "recordKey", cik, accession, form, metric_key AS "metricKey", concept, axis, dimension,
  member_qname AS "memberQname", member, member_kind AS "memberKind", issuer_label AS "issuerLabel", period_kind AS "periodKind",
  to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd",
  period_calendar AS "periodCalendar", period_fiscal AS "periodFiscal", value::text AS value, unit, decimals, scale, tier, provenance`;

/** Segment observations, read side: keyset pages over (cik, period_end, metric_key, member, record_key). */
export class SegmentsRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  async list(cik: string, page: PageRequest): Promise<Page<SegmentObservation>> {
    const values: unknown[] = [cik];
    // Row comparison over the whole key: one range scan of the keyset index, whatever the direction.
    const keyset = keysetSql(SEGMENTS_ORDER, page, values);
    const text = `SELECT ${COLUMNS} FROM segment_observations WHERE cik = $1${keyset.predicate ? ` AND ${keyset.predicate}` : ''}
      ${keyset.orderByLimit}`;
    const name = `segments_list_${page.direction}_${page.after ? 'after' : 'first'}`;
    const result = await this.pool.query<SegmentObservation>({ name, text, values });
    return toPage(SEGMENTS_ORDER, result.rows, page.limit);
  }

  async coverage(cik: string): Promise<SegmentCoverage> {
    const result = await this.pool.query<{ total: string; annual: string; derived: string }>({
      name: 'segments_coverage',
      text: `SELECT count(*) AS total,
                    count(*) FILTER (WHERE form LIKE '10-K%') AS annual,
                    count(*) FILTER (WHERE tier = 'derived_q4') AS derived
               FROM segment_observations WHERE cik = $1`,
      values: [cik],
    });
    const r = result.rows[0];
    return { total: Number(r?.total ?? 0), annualForms: Number(r?.annual ?? 0), derivedQ4: Number(r?.derived ?? 0) };
  }
}
