import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { selectList, type RowOf } from '../table';
import { ROSTER_ENTRIES_TABLE } from './roster.table';

/** The roster_entries columns of a RosterEntryRecord (besides isCurrent, which is computed). */
const ROSTER_ENTRY_RECORD_FIELDS = [
  'category', 'source_provider', 'person_key', 'name', 'role', 'affiliation', 'email', 'phone', 'rank', 'src_id', 'source_url',
  'accession', 'quote', 'content_hash', 'extracted_at', 'first_seen_at', 'last_seen_at', 'record_observed_at', 'last_filed_at',
] as const;

/** One roster entry as the read side returns it (read model, camelCase; not an API shape). lastFiledAt is YYYY-MM-DD. */
export type RosterEntryRecord = RowOf<typeof ROSTER_ENTRIES_TABLE.columns, (typeof ROSTER_ENTRY_RECORD_FIELDS)[number]> & {
  /** Current on the roster, SEC entries only while recently filed (IS_CURRENT). */
  isCurrent: boolean;
};

export interface RosterQuery {
  cik: string;
  category: string;
  currentOnly: boolean;
  limit: number;
  /** YYYY-MM-DD: an SEC entry is current only if filed as officer or director on or after it (default: SEC_ROSTER_CURRENT_MONTHS ago). */
  currentSince?: string;
}

/** An SEC roster entry stays current this long after the latest Form 4 that shows the person as officer or director. */
export const SEC_ROSTER_CURRENT_MONTHS = 18;

/** The day SEC_ROSTER_CURRENT_MONTHS before `now` (UTC), YYYY-MM-DD. */
export function secRosterCurrentSince(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - SEC_ROSTER_CURRENT_MONTHS, now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/* An SEC entry is current while no later Form 4 drops the flag (is_current) and the latest one showing it is recent enough ($2). */
const IS_CURRENT = `(is_current AND (source_provider <> 'sec' OR coalesce(last_filed_at >= $2::date, false)))`;

const COLUMNS = `${selectList(ROSTER_ENTRIES_TABLE, ROSTER_ENTRY_RECORD_FIELDS)}, ${IS_CURRENT} AS "isCurrent"`;

/** Roster entries, read side: one issuer's roster of one category, by rank then name, every source together. */
export class RosterRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  async list(query: RosterQuery): Promise<RosterEntryRecord[]> {
    const text = `SELECT ${COLUMNS} FROM roster_entries WHERE cik = $1 AND category = $3${query.currentOnly ? ` AND ${IS_CURRENT}` : ''}
      ORDER BY rank, name, source_provider, id LIMIT $4`;
    const result = await this.pool.query<RosterEntryRecord>({
      name: `roster_list_${query.currentOnly ? 'current' : 'all'}`,
      text,
      values: [query.cik, query.currentSince ?? secRosterCurrentSince(new Date()), query.category, query.limit],
    });
    return result.rows;
  }

  /** Every entry of one issuer's roster of one category, all sources, current or not (rosters are small): for callers that merge sources. */
  async listAll(cik: string, category: string, currentSince: string): Promise<RosterEntryRecord[]> {
    const result = await this.pool.query<RosterEntryRecord>({
      name: 'roster_list_every_source',
      text: `SELECT ${COLUMNS} FROM roster_entries WHERE cik = $1 AND category = $3 ORDER BY rank, name, source_provider, id`,
      values: [cik, currentSince, category],
    });
    return result.rows;
  }
}
