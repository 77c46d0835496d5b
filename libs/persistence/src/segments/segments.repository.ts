import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';
import { SEGMENT_OBSERVATION_COLUMNS, type SegmentObservation } from './segments.table';

/** The segment list's order: period end, then metric key, member and record key, all one direction. */
export const SEGMENTS_ORDER = keysetOrder<SegmentObservation>(
  { sql: 'period_end', type: 'date', of: (o) => o.periodEnd },
  { sql: 'metric_key', type: 'text', of: (o) => o.metricKey },
  { sql: 'member', type: 'text', of: (o) => o.member },
  { sql: 'record_key', type: 'text', of: (o) => o.recordKey },
);

/** What a company's segment data covers, for the segments `gaps`. */
export interface SegmentCoverage {
  total: number;
  annualForms: number;
  derivedQ4: number;
}

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
    const text = `SELECT ${SEGMENT_OBSERVATION_COLUMNS} FROM segment_observations WHERE cik = $1${keyset.predicate ? ` AND ${keyset.predicate}` : ''}
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
