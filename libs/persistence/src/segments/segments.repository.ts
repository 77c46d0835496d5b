import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { SEGMENT_OBSERVATION_COLUMNS, type SegmentObservation } from './segments.table';

/** Keyset position: the sort key of the last row of a page. */
export interface SegmentKeyset {
  periodEnd: string;
  metricKey: string;
  member: string;
  recordKey: string;
}

export interface SegmentListQuery {
  cik: string;
  /** The whole key (period end, metric key, member, record key) runs in this direction. */
  direction: 'asc' | 'desc';
  after?: SegmentKeyset;
  /** Rows to fetch (callers ask for page size + 1 to learn has_more). */
  limit: number;
}

/** What a company's segment data covers, for the `_gaps` notes. */
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

  async list(query: SegmentListQuery): Promise<SegmentObservation[]> {
    const asc = query.direction === 'asc';
    const values: unknown[] = [query.cik];
    let where = 'cik = $1';
    if (query.after) {
      const a = query.after;
      values.push(a.periodEnd, a.metricKey, a.member, a.recordKey);
      // Row comparison: one index range scan, whatever the direction.
      where += ` AND (period_end, metric_key, member, record_key) ${asc ? '>' : '<'} ($2::date, $3, $4, $5)`;
    }
    values.push(query.limit);
    const dir = asc ? 'ASC' : 'DESC';
    const text = `SELECT ${SEGMENT_OBSERVATION_COLUMNS} FROM segment_observations WHERE ${where}
      ORDER BY period_end ${dir}, metric_key ${dir}, member ${dir}, record_key ${dir} LIMIT $${values.length}`;
    const name = `segments_list_${asc ? 'asc' : 'desc'}_${query.after ? 'after' : 'first'}`;
    const result = await this.pool.query<SegmentObservation>({ name, text, values });
    return result.rows;
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
