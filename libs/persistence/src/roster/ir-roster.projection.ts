import type { EntityManager } from 'typeorm';
import type { IssuerRosterData, RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { lockKeys, OutcomeTally, type RecordOutcome } from '../projections/batch-reduction';
import { citationSrcId } from '../projections/issuer-citation';

/**
 * A person's identity within one roster: the name lower-cased, accents and punctuation removed,
 * spaces collapsed ("John D. Milton Jr." and "JOHN D MILTON JR" are one person). Suffixes stay:
 * "John D. Baker II" is not "John D. Baker".
 */
export function personKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The roster_entries rows an ir-roster@1 record lists; pure. A name listed twice keeps its first (best-ranked) entry. */
export function issuerRosterRows(envelope: RecordEnvelope<IssuerRosterData>) {
  const d = envelope.data;
  const seen = new Set<string>();
  const rows = [];
  for (const e of [...d.entries].sort((a, b) => a.rank - b.rank)) {
    const key = personKey(e.name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    rows.push({
      person_key: key,
      name: e.name,
      role: e.role,
      affiliation: e.affiliation,
      email: e.email,
      phone: e.phone,
      rank: e.rank,
      src_id: citationSrcId(envelope, e.citation),
      source_url: e.citation.source_url,
      quote: e.citation.quote,
      content_hash: e.citation.content_hash,
    });
  }
  return rows;
}

const ISSUER_PAGE = 'issuer_page';

const RECORDSET = `person_key text, name text, role text, affiliation text, email text, phone text, rank integer,
  src_id text, source_url text, quote text, content_hash text`;

const UPSERT_LISTED_SQL = `
  INSERT INTO roster_entries (cik, category, source_provider, person_key, name, role, affiliation, email, phone, rank,
    is_current, src_id, source_url, quote, content_hash, extracted_at, accession, record_id, record_observed_at,
    first_seen_at, last_seen_at)
  SELECT $2, $3, $4, x.person_key, x.name, x.role, x.affiliation, x.email, x.phone, x.rank,
    true, x.src_id, x.source_url, x.quote, x.content_hash, $5::timestamptz, NULL, $6, $7::timestamptz, $7::timestamptz, $7::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
  ON CONFLICT (cik, category, source_provider, person_key) DO UPDATE SET
    name = EXCLUDED.name, role = EXCLUDED.role, affiliation = EXCLUDED.affiliation, email = EXCLUDED.email,
    phone = EXCLUDED.phone, rank = EXCLUDED.rank, is_current = true, src_id = EXCLUDED.src_id,
    source_url = EXCLUDED.source_url, quote = EXCLUDED.quote, content_hash = EXCLUDED.content_hash,
    extracted_at = EXCLUDED.extracted_at, accession = NULL, record_id = EXCLUDED.record_id,
    record_observed_at = EXCLUDED.record_observed_at,
    first_seen_at = least(roster_entries.first_seen_at, EXCLUDED.first_seen_at),
    last_seen_at = greatest(roster_entries.last_seen_at, EXCLUDED.last_seen_at)`;

/* Everyone of the key the record does not list stops being current (their last citation stays). */
const RETIRE_UNLISTED_SQL = `
  UPDATE roster_entries SET is_current = false, record_id = $5, record_observed_at = $6::timestamptz
  WHERE cik = $1 AND category = $2 AND source_provider = $3 AND person_key <> ALL($4::text[])`;

type RosterEnvelope = RecordEnvelope<IssuerRosterData>;

const rosterLock = (e: RosterEnvelope): string => `roster:${e.data.cik}|${e.data.category}|${ISSUER_PAGE}`;

/**
 * Applies one ir-roster@1 record: the record is the whole roster of (cik, category) on the
 * issuer's pages, so it replaces that roster: listed people are upserted as current, the others of
 * the same key and source become not current. Entries from other sources (SEC) are untouched.
 * Every row of the key carries the id and observed_at of the record last applied to it, so the
 * same record twice writes nothing and an older record never brings back a roster it replaced.
 */
async function applyRoster(m: EntityManager, envelope: RosterEnvelope): Promise<RecordOutcome> {
  const d = envelope.data;
  const latest = (
    await m.query<Array<{ record_id: string; newer: boolean }>>(
      `SELECT record_id, record_observed_at > $4::timestamptz AS newer FROM roster_entries
       WHERE cik = $1 AND category = $2 AND source_provider = $3 ORDER BY record_observed_at DESC LIMIT 1`,
      [d.cik, d.category, ISSUER_PAGE, envelope.observed_at],
    )
  )[0];
  if (latest && (latest.record_id === envelope.id || latest.newer)) return 'unchanged';
  const rows = issuerRosterRows(envelope);
  if (rows.length) {
    await m.query(UPSERT_LISTED_SQL, [
      JSON.stringify(rows),
      d.cik,
      d.category,
      ISSUER_PAGE,
      envelope.provenance.extracted_at,
      envelope.id,
      envelope.observed_at,
    ]);
  }
  const [, retired] = await m.query<[unknown, number]>(RETIRE_UNLISTED_SQL, [
    d.cik,
    d.category,
    ISSUER_PAGE,
    rows.map((r) => r.person_key),
    envelope.id,
    envelope.observed_at,
  ]);
  if (!latest) return rows.length ? 'inserted' : 'unchanged';
  return rows.length || retired ? 'updated' : 'unchanged';
}

/**
 * Projects a batch of ir-roster@1 records (offset order) in the caller's transaction: the
 * advisory locks of every (cik, category) roster of the batch first, in one ordered statement,
 * then the records one by one (rosters are few and each replaces a whole key: a set-based form
 * would not pay for its obscurity).
 */
export async function projectIssuerRosters(m: EntityManager, envelopes: ReadonlyArray<RosterEnvelope>): Promise<BatchOutcome> {
  await lockKeys(m, envelopes.map(rosterLock));
  const tally = new OutcomeTally();
  for (const e of envelopes) tally.add(e.key, await applyRoster(m, e));
  return tally.result();
}
