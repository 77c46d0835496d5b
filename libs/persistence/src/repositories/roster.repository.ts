import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';

/** One roster entry as the read side returns it (read model, camelCase; not an API shape). */
export interface RosterEntryRecord {
  category: string;
  sourceProvider: string;
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
}

export interface RosterQuery {
  cik: string;
  category: string;
  currentOnly: boolean;
  limit: number;
}

const COLUMNS = `category, source_provider AS "sourceProvider", name, role, affiliation, email, phone, rank,
  is_current AS "isCurrent", src_id AS "srcId", source_url AS "sourceUrl", accession, quote, content_hash AS "contentHash",
  extracted_at AS "extractedAt", first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt"`;

/** Roster entries, read side: one issuer's roster of one category, by rank then name, every source together. */
export class RosterRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
  }

  async list(query: RosterQuery): Promise<RosterEntryRecord[]> {
    const text = `SELECT ${COLUMNS} FROM roster_entries WHERE cik = $1 AND category = $2${query.currentOnly ? ' AND is_current' : ''}
      ORDER BY rank, name, source_provider, id LIMIT $3`;
    const result = await this.pool.query<RosterEntryRecord>({
      name: `roster_list_${query.currentOnly ? 'current' : 'all'}`,
      text,
      values: [query.cik, query.category, query.limit],
    });
    return result.rows;
  }
}
