import { boolean, char, date, integer, serial, text, timestamptz, table } from '../table';

/**
 * Read model of one person on one roster of an issuer (executives, IR contacts, analysts), per
 * source: an issuer's IR page (ir.roster.v1) and SEC Form 4 reporting owners (edgar.form4.v1,
 * executives only). Each source keeps its own rows, so one source never erases the other's people.
 * A person no longer listed stays with `is_current = false`. Written only by the projector.
 */
export const ROSTER_ENTRIES_TABLE = table('roster_entries', ['id'], {
  id: serial('roster_entries', 'id'),
  cik: char(10),
  /** executives | ir | analysts */
  category: text(),
  /** issuer_page | sec */
  source_provider: text(),
  /**
   * The person's identity within one roster and source: on issuer pages the name lower-cased,
   * without accents, punctuation or repeated spaces; on SEC rows `cik:<owner CIK>` (else `name:` and
   * the normalized name), since a reporting owner's CIK outlives spellings of the name.
   */
  person_key: text(),
  name: text(),
  role: text(),
  affiliation: text(),
  email: text().nullable(),
  phone: text().nullable(),
  rank: integer(),
  is_current: boolean(),
  src_id: text(),
  source_url: text().nullable(),
  quote: text().nullable(),
  content_hash: text().nullable(),
  extracted_at: timestamptz().nullable(),
  /** The Form 4 a SEC-sourced entry was read from; null for issuer pages. */
  accession: text().nullable(),
  /** The roster record last applied to this row's (cik, category, source): the idempotence key. */
  record_id: text(),
  /** observed_at of that record: an older record never overwrites a newer roster. */
  record_observed_at: timestamptz(),
  first_seen_at: timestamptz(),
  /** observed_at of the latest record that listed the person. */
  last_seen_at: timestamptz(),
  /**
   * SEC rows: filing date of the latest Form 4 that shows the person as officer or director. The
   * API counts the entry current while that date is within 18 months and `is_current` (no later
   * Form 4 of the person shows them without the flag) holds. Null on issuer-page rows.
   */
  last_filed_at: date().nullable(),
});
