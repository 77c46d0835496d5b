import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';

/** One roster entry as the read side returns it (read model, camelCase; not an API shape). */
export interface RosterEntryRecord {
  category: string;
  sourceProvider: string;
  /** The person's identity within the source (see roster_entries.person_key in roster.table.ts). */
  personKey: string;
  name: string;
  role: string;
  affiliation: string;
  email: string | null;
  phone: string | null;
  rank: number;
  isCurrent: boolean;
  srcId: string;
  sourceUrl: string | null;
  accession: string | null;
  quote: string | null;
  contentHash: string | null;
  extractedAt: Date | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** observed_at of the record that last decided this entry (an issuer-page crawl, a Form 4). */
  recordObservedAt: Date;
  /** SEC entries: YYYY-MM-DD of the latest Form 4 showing the person as officer or director; null otherwise. */
  lastFiledAt: string | null;
}

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

const COLUMNS = `category, source_provider AS "sourceProvider", person_key AS "personKey", name, role, affiliation, email, phone, rank,
  ${IS_CURRENT} AS "isCurrent", src_id AS "srcId", source_url AS "sourceUrl", accession, quote, content_hash AS "contentHash",
  extracted_at AS "extractedAt", first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt",
  record_observed_at AS "recordObservedAt", to_char(last_filed_at, 'YYYY-MM-DD') AS "lastFiledAt"`;

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
