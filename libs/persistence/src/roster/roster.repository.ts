import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { selectList, type RowOf } from '../table';
import { secRosterEntryOf, type OwnerFiling } from '../form4/sec-roster';
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

/*
 * Issuer-page entries as of a day ($2): the read model keeps each person's first and last crawl
 * that listed them, not every crawl. Only people a crawl on or before the day listed count; they
 * are current when a crawl on or after the day still listed them, or today's roster lists them
 * (a person dropped and listed again counts as listed in between).
 */
const UTC_DAY = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;
const PAGE_ENTRIES_AS_OF_SQL = `
  SELECT ${selectList(ROSTER_ENTRIES_TABLE, ROSTER_ENTRY_RECORD_FIELDS)}, (${UTC_DAY('last_seen_at')} >= $2::date OR is_current) AS "isCurrent"
  FROM roster_entries WHERE cik = $1 AND category = $3 AND source_provider <> 'sec' AND ${UTC_DAY('first_seen_at')} <= $2::date
  ORDER BY rank, name, source_provider, id`;

/* The day of the first crawl of an issuer-page roster (YYYY-MM-DD, UTC), null when never crawled: before it the pages say nothing. */
const FIRST_CRAWL_SQL = `
  SELECT to_char(min(${UTC_DAY('first_seen_at')}), 'YYYY-MM-DD') AS first FROM roster_entries WHERE cik = $1 AND category = $2 AND source_provider <> 'sec'`;

/*
 * The issuer's Form 4 filings filed on or before a day ($2), per owner latest first, dated as the
 * Form 4 projection dates them (a 4/A by its original): the SEC roster as it stood that day.
 */
const OWNER_FILINGS_AS_OF_SQL = `
  SELECT o.owner_key AS probe, f.accession, to_char(coalesce(f.original_date, f.effective_date), 'YYYY-MM-DD') AS as_of, f.issuer_name,
    f.trading_symbol, f.reporting_owners, f.src_id, f.source_url, f.content_hash, f.extracted_at, f.record_id, f.observed_at
  FROM form4_filing_owners o JOIN form4_filings f ON f.accession = o.accession
  WHERE o.cik = $1 AND f.effective_date <= $2::date
  ORDER BY o.owner_key, coalesce(f.original_date, f.effective_date) DESC, f.effective_date DESC, f.accepted_at DESC NULLS LAST, f.accession DESC`;

/** A roster as of a day: its entries, and the day the issuer-page roster was first crawled (null: never). */
export interface RosterAsOf {
  entries: RosterEntryRecord[];
  pageFirstSeen: string | null;
}

/** Roster entries, read side: one issuer's roster of one category, by rank then name, every source together. */
export class RosterRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
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

  /**
   * One issuer's roster of one category as it stood on `asOf` (YYYY-MM-DD), every source, current
   * or not: issuer-page people a crawl had listed by then (PAGE_ENTRIES_AS_OF_SQL) and, for
   * executives, the SEC entries rebuilt from the Form 4s filed by then by the projection's own rule
   * (secRosterEntryOf), current while the latest one showing the flag is within
   * SEC_ROSTER_CURRENT_MONTHS before the day.
   */
  async listAllAsOf(cik: string, category: string, asOf: string): Promise<RosterAsOf> {
    const [page, crawl] = await Promise.all([
      this.pool.query<RosterEntryRecord>({ name: 'roster_list_pages_as_of', text: PAGE_ENTRIES_AS_OF_SQL, values: [cik, asOf, category] }),
      this.pool.query<{ first: string | null }>({ name: 'roster_first_crawl', text: FIRST_CRAWL_SQL, values: [cik, category] }),
    ]);
    const pageFirstSeen = crawl.rows[0]?.first ?? null;
    if (category !== 'executives') return { entries: page.rows, pageFirstSeen };
    const filings = await this.pool.query<OwnerFiling>({ name: 'roster_sec_filings_as_of', text: OWNER_FILINGS_AS_OF_SQL, values: [cik, asOf] });
    const byOwner = new Map<string, OwnerFiling[]>();
    for (const f of filings.rows) {
      const list = byOwner.get(f.probe);
      if (list) list.push(f);
      else byOwner.set(f.probe, [f]);
    }
    const currentSince = secRosterCurrentSince(new Date(`${asOf}T00:00:00Z`));
    const sec: RosterEntryRecord[] = [];
    for (const [key, list] of byOwner) {
      const e = secRosterEntryOf(cik, key, list);
      if (!e?.name) continue;
      sec.push({
        category, sourceProvider: 'sec', personKey: e.person_key, name: e.name, role: e.role, affiliation: e.affiliation, email: null, phone: null,
        rank: e.rank, srcId: e.src_id, sourceUrl: e.source_url, accession: e.accession, quote: e.quote, contentHash: e.content_hash,
        extractedAt: e.extracted_at, firstSeenAt: e.first_seen_at, lastSeenAt: e.last_seen_at, recordObservedAt: e.record_observed_at,
        lastFiledAt: e.last_filed_at, isCurrent: e.is_current && e.last_filed_at >= currentSince,
      });
    }
    return { entries: [...page.rows, ...sec.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name))], pageFirstSeen };
  }
}
