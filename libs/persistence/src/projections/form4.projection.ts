import type { DataSource, EntityManager } from 'typeorm';
import type { Form4Data, Form4ReportingOwnerData, RecordEnvelope } from '@app/contracts';
import { EXECUTIVE_SENIORITY, seniorityTier } from '@app/issuer-pages';
import type { ProjectionOutcome } from './company.projection';
import { personKey } from './ir-roster.projection';

/*
 * edgar.form4.v1 -> form4_filings, insider_transactions and the SEC half of roster_entries.
 *
 * Amendments (4/A). A filing's "family" is every filing of the same issuer, the same set of
 * reporting owners (owners_key) and the same period_of_report. An insider often files several
 * Form 4s the same day for the same period (a large 10b5-1 sale split over filings), so a 4/A
 * restates one original only when it singles it out (form4AmendmentTargets):
 * - the originals (4s) of the family whose filing date is the 4/A's date_of_original_submission
 *   match it (an unknown date on either side does not rule a match out);
 * - exactly one matches: the 4/A restates that filing;
 * - several match and the 4/A has an original date: it restates only their rows whose (table,
 *   security, transaction date) it carries, when those rows are all in one filing;
 * - otherwise (several match and its rows do not single one out, or it has no original date)
 *   it restates nothing, and says why in form4_filings.amendment_note.
 * A later 4/A of the same original also restates an earlier one (two 4/As with no original in
 * the read model: when their original dates agree). A 4/A restates the kinds of rows it carries:
 * one with transaction rows supersedes transactions, one with holding rows holdings, so a
 * holdings-only 4/A never touches the original's transactions. A row is superseded by the latest
 * such 4/A after its own filing (4 before 4/A, then by filing date, acceptance time, accession).
 * Rows are never deleted for it: `superseded_by` names the 4/A. The family is recomputed whole on
 * every filing, so the result does not depend on arrival order (the topic is keyed by accession:
 * an original and its 4/A may arrive in either order).
 *
 * Roster. Every reporting owner a filing shows as officer or director gets an SEC roster entry
 * (category executives) keyed by owner CIK, rebuilt from all the issuer's filings of that owner:
 * name, role and provenance from the latest filing showing the flag, is_current when no later
 * filing shows the owner without it, last_filed_at the date of that filing (the API adds the
 * 18-month window at query time). Filings are dated as of their original (a 4/A by its
 * date_of_original_submission), so a late amendment of an old filing does not revive a departed officer.
 */

const SEC = 'sec';
const EXECUTIVES = 'executives';

/** Where an SEC roster entry ranks: officers by the issuer-page seniority table, unmatched titles next, directors last. */
export const FORM4_OFFICER_OTHER_RANK = EXECUTIVE_SENIORITY.length + 1;
export const FORM4_DIRECTOR_RANK = EXECUTIVE_SENIORITY.length + 2;

/** The YYYY-MM-DD day of an xs:date as filed ("2024-09-12", "2024-09-12-05:00"); null when it is not a calendar date. */
export function isoDay(value: string | null): string | null {
  const day = value ? /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1] : undefined;
  if (!day) return null;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}

/** A reporting owner's identity: the CIK, else the normalized name. */
export function form4OwnerKey(owner: Form4ReportingOwnerData): string {
  return owner.cik ? `cik:${owner.cik}` : `name:${personKey(owner.name ?? '')}`;
}

/** The set of a filing's reporting owners, sorted: a 4/A restates filings of the same owners. */
export function form4OwnersKey(owners: readonly Form4ReportingOwnerData[]): string {
  return [...new Set(owners.map(form4OwnerKey))].sort().join(',');
}

/** Whether the filing shows the owner as an insider the roster lists. */
function isRosterInsider(owner: Form4ReportingOwnerData): boolean {
  return owner.is_officer || owner.is_director;
}

/** Role of an officer and/or director as filed: the officer title ("Officer" when none), ", Director" when both. */
export function form4RosterRole(owner: Form4ReportingOwnerData): string {
  const title = owner.officer_title?.trim() || 'Officer';
  if (owner.is_officer && owner.is_director) return `${title}, Director`;
  return owner.is_officer ? title : 'Director';
}

/** 1-based seniority: officers by EXECUTIVE_SENIORITY (1..), other officer titles next, directors last. */
export function form4RosterRank(owner: Form4ReportingOwnerData): number {
  if (!owner.is_officer) return FORM4_DIRECTOR_RANK;
  return Math.min(seniorityTier(owner.officer_title ?? ''), EXECUTIVE_SENIORITY.length) + 1;
}

/** Dates of a filing: filed (or else), and the date of the original filing of its family. */
function filingDates(envelope: RecordEnvelope<Form4Data>): { effectiveDate: string; originalDate: string | null } {
  const d = envelope.data;
  const effectiveDate = d.filed_date ?? isoDay(d.period_of_report) ?? envelope.observed_at.slice(0, 10);
  return { effectiveDate, originalDate: d.is_amendment ? isoDay(d.date_of_original_submission) : d.filed_date };
}

/** The form4_filings row of a record; pure. */
export function form4FilingRow(envelope: RecordEnvelope<Form4Data>) {
  const d = envelope.data;
  const p = envelope.provenance;
  const { effectiveDate, originalDate } = filingDates(envelope);
  return {
    accession: d.accession,
    cik: d.issuer.cik,
    issuer_name: d.issuer.name,
    trading_symbol: d.issuer.trading_symbol,
    form: d.form,
    is_amendment: d.is_amendment,
    date_of_original_submission: d.date_of_original_submission,
    period_of_report: d.period_of_report,
    filed_date: d.filed_date,
    accepted_at: d.accepted_at,
    effective_date: effectiveDate,
    original_date: originalDate,
    owners_key: form4OwnersKey(d.reporting_owners),
    reporting_owners: d.reporting_owners,
    aff10b5one: d.aff10b5one,
    no_securities_owned: d.no_securities_owned,
    not_subject_to_section16: d.not_subject_to_section16,
    schema_version: d.schema_version,
    footnotes: d.footnotes,
    rule_10b5_1_footnote_ids: d.rule_10b5_1_footnote_ids,
    remarks: d.remarks,
    signatures: d.signatures,
    transaction_count: d.rows.filter((r) => r.kind === 'transaction').length,
    holding_count: d.rows.filter((r) => r.kind === 'holding').length,
    src_id: p.src_id,
    source_url: d.source_url,
    quote: p.quote,
    content_hash: p.content_hash,
    extracted_at: p.extracted_at,
    record_id: envelope.id,
    observed_at: envelope.observed_at,
  };
}

/** A footnote a row cites, with its text (null when the filing has no footnote of that id). */
export interface ResolvedFootnote {
  id: string;
  text: string | null;
}

/** The insider_transactions rows of a record, one per row of Tables I and II; pure. */
export function insiderTransactionRows(envelope: RecordEnvelope<Form4Data>) {
  const d = envelope.data;
  const p = envelope.provenance;
  const { effectiveDate } = filingDates(envelope);
  const footnoteText = new Map<string, string>();
  // A repeated id keeps its first text, as a reader of the form would.
  for (const f of d.footnotes) if (!footnoteText.has(f.id)) footnoteText.set(f.id, f.text);
  return d.rows.map((r) => {
    const footnotes: Record<string, ResolvedFootnote[]> = {};
    for (const [field, ids] of Object.entries(r.footnotes)) footnotes[field] = ids.map((id) => ({ id, text: footnoteText.get(id) ?? null }));
    return {
      accession: d.accession,
      row_table: r.table,
      sequence: r.sequence,
      cik: d.issuer.cik,
      kind: r.kind,
      form: d.form,
      is_amendment: d.is_amendment,
      filed_date: d.filed_date,
      period_of_report: d.period_of_report,
      sort_date: isoDay(r.transaction_date) ?? isoDay(d.period_of_report) ?? effectiveDate,
      security_title: r.security_title,
      transaction_date: r.transaction_date,
      deemed_execution_date: r.deemed_execution_date,
      transaction_form_type: r.transaction_form_type,
      code: r.code,
      code_label: r.code_label,
      classification: r.classification,
      is_open_market: r.is_open_market,
      equity_swap_involved: r.equity_swap_involved,
      transaction_timeliness: r.transaction_timeliness,
      shares: r.shares,
      shares_text: r.shares_text,
      total_value: r.total_value,
      total_value_text: r.total_value_text,
      price_per_share: r.price_per_share,
      price_per_share_text: r.price_per_share_text,
      acquired_disposed: r.acquired_disposed,
      shares_owned_following: r.shares_owned_following,
      shares_owned_following_text: r.shares_owned_following_text,
      value_owned_following: r.value_owned_following,
      value_owned_following_text: r.value_owned_following_text,
      direct_indirect: r.direct_indirect,
      nature_of_ownership: r.nature_of_ownership,
      conversion_or_exercise_price: r.conversion_or_exercise_price,
      conversion_or_exercise_price_text: r.conversion_or_exercise_price_text,
      exercise_date: r.exercise_date,
      expiration_date: r.expiration_date,
      underlying_security_title: r.underlying_security_title,
      underlying_shares: r.underlying_shares,
      underlying_shares_text: r.underlying_shares_text,
      underlying_value: r.underlying_value,
      underlying_value_text: r.underlying_value_text,
      footnotes,
      is_10b5_1: r.is_10b5_1,
      is_10b5_1_reason: r.is_10b5_1_reason,
      is_10b5_1_footnote_ids: r.is_10b5_1_footnote_ids,
      reporting_owners: d.reporting_owners,
      src_id: p.src_id,
      source_url: d.source_url,
      quote: r.quote,
      content_hash: p.content_hash,
      extracted_at: p.extracted_at,
      record_id: envelope.id,
      observed_at: envelope.observed_at,
    };
  });
}

type FilingRow = ReturnType<typeof form4FilingRow>;
type TransactionRow = ReturnType<typeof insiderTransactionRows>[number];

const FILING_COLUMNS: ReadonlyArray<[keyof FilingRow, string]> = [
  ['accession', 'text'], ['cik', 'text'], ['issuer_name', 'text'], ['trading_symbol', 'text'], ['form', 'text'],
  ['is_amendment', 'boolean'], ['date_of_original_submission', 'text'], ['period_of_report', 'text'], ['filed_date', 'date'],
  ['accepted_at', 'timestamptz'], ['effective_date', 'date'], ['original_date', 'date'], ['owners_key', 'text'],
  ['reporting_owners', 'jsonb'], ['aff10b5one', 'boolean'], ['no_securities_owned', 'boolean'], ['not_subject_to_section16', 'boolean'],
  ['schema_version', 'text'], ['footnotes', 'jsonb'], ['rule_10b5_1_footnote_ids', 'jsonb'], ['remarks', 'text'], ['signatures', 'jsonb'],
  ['transaction_count', 'integer'], ['holding_count', 'integer'], ['src_id', 'text'], ['source_url', 'text'], ['quote', 'text'],
  ['content_hash', 'text'], ['extracted_at', 'timestamptz'], ['record_id', 'text'], ['observed_at', 'timestamptz'],
];

const TRANSACTION_COLUMNS: ReadonlyArray<[keyof TransactionRow, string]> = [
  ['accession', 'text'], ['row_table', 'text'], ['sequence', 'integer'], ['cik', 'text'], ['kind', 'text'], ['form', 'text'],
  ['is_amendment', 'boolean'], ['filed_date', 'date'], ['period_of_report', 'text'], ['sort_date', 'date'], ['security_title', 'text'],
  ['transaction_date', 'text'], ['deemed_execution_date', 'text'], ['transaction_form_type', 'text'], ['code', 'text'],
  ['code_label', 'text'], ['classification', 'text'], ['is_open_market', 'boolean'], ['equity_swap_involved', 'boolean'],
  ['transaction_timeliness', 'text'], ['shares', 'numeric'], ['shares_text', 'text'], ['total_value', 'numeric'],
  ['total_value_text', 'text'], ['price_per_share', 'numeric'], ['price_per_share_text', 'text'], ['acquired_disposed', 'text'],
  ['shares_owned_following', 'numeric'], ['shares_owned_following_text', 'text'], ['value_owned_following', 'numeric'],
  ['value_owned_following_text', 'text'], ['direct_indirect', 'text'], ['nature_of_ownership', 'text'],
  ['conversion_or_exercise_price', 'numeric'], ['conversion_or_exercise_price_text', 'text'], ['exercise_date', 'text'],
  ['expiration_date', 'text'], ['underlying_security_title', 'text'], ['underlying_shares', 'numeric'],
  ['underlying_shares_text', 'text'], ['underlying_value', 'numeric'], ['underlying_value_text', 'text'], ['footnotes', 'jsonb'],
  ['is_10b5_1', 'boolean'], ['is_10b5_1_reason', 'text'], ['is_10b5_1_footnote_ids', 'jsonb'], ['reporting_owners', 'jsonb'],
  ['src_id', 'text'], ['source_url', 'text'], ['quote', 'text'], ['content_hash', 'text'], ['extracted_at', 'timestamptz'],
  ['record_id', 'text'], ['observed_at', 'timestamptz'],
];

/** INSERT ... SELECT FROM jsonb_to_recordset($1) ... ON CONFLICT DO UPDATE of every column but the key (and what the projection derives later). */
function upsertSql(table: string, columns: ReadonlyArray<readonly [string, string]>, key: readonly string[]): string {
  const names = columns.map(([c]) => c);
  return `
    INSERT INTO ${table} (${names.join(', ')})
    SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${columns.map(([c, t]) => `${c} ${t}`).join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET
      ${names.filter((c) => !key.includes(c)).map((c) => `${c} = EXCLUDED.${c}`).join(',\n      ')}`;
}

const UPSERT_FILING_SQL = `${upsertSql('form4_filings', FILING_COLUMNS, ['accession'])}, updated_at = now()`;
const UPSERT_TRANSACTIONS_SQL = upsertSql('insider_transactions', TRANSACTION_COLUMNS, ['accession', 'row_table', 'sequence']);

/* A reprocessed filing (same accession) that no longer has a row drops it: that is a new reading of one document, not a restatement. */
const DELETE_STALE_ROWS_SQL = `
  DELETE FROM insider_transactions
  WHERE accession = $1 AND NOT ((row_table, sequence) = ANY (SELECT x.row_table, x.sequence FROM jsonb_to_recordset($2::jsonb) AS x(row_table text, sequence integer)))`;

/** A filing of a family, in version order (4 before 4/A, then filing date, acceptance time, accession). */
export interface FamilyFiling {
  accession: string;
  is_amendment: boolean;
  /** A 4: its filing date; a 4/A: its date_of_original_submission (YYYY-MM-DD or null). */
  original_date: string | null;
  transaction_count: number;
  holding_count: number;
}

/** A row of a family's filing, with what identifies it across an original and its 4/A. */
export interface FamilyRow {
  accession: string;
  row_table: string;
  sequence: number;
  kind: string;
  security_title: string | null;
  transaction_date: string | null;
}

/** What one 4/A restates: an original (all its rows, or only the rows it carries), nothing, or no original yet. */
export type Form4AmendmentTarget =
  | { kind: 'original'; accession: string; rowKeys: ReadonlySet<string> | null; note: string }
  | { kind: 'none'; note: string }
  | { kind: 'no_original'; note: string };

/** (kind, table, security, transaction date): a row of an original restated by a row of its 4/A. */
function rowKey(r: FamilyRow): string {
  return JSON.stringify([r.kind, r.row_table, r.security_title?.trim().toLowerCase() ?? null, isoDay(r.transaction_date) ?? r.transaction_date]);
}

const datesAgree = (a: string | null, b: string | null) => a === null || b === null || a === b;

/** Which original each 4/A of a family restates (see the comment at the top); pure. */
export function form4AmendmentTargets(filings: readonly FamilyFiling[], rows: readonly FamilyRow[]): Map<string, Form4AmendmentTarget> {
  const originals = filings.filter((f) => !f.is_amendment);
  const targets = new Map<string, Form4AmendmentTarget>();
  for (const a of filings.filter((f) => f.is_amendment)) {
    const matching = originals.filter((o) => datesAgree(a.original_date, o.original_date));
    if (matching.length === 0) {
      targets.set(a.accession, { kind: 'no_original', note: 'no original of its family matches (yet)' });
    } else if (matching.length === 1) {
      targets.set(a.accession, { kind: 'original', accession: matching[0]!.accession, rowKeys: null, note: `restates ${matching[0]!.accession}` });
    } else if (a.original_date === null) {
      targets.set(a.accession, { kind: 'none', note: `restates nothing: no date of original submission, and ${matching.length} originals in its family` });
    } else {
      const carried = new Set(rows.filter((r) => r.accession === a.accession).map(rowKey));
      const candidates = new Set(matching.map((o) => o.accession));
      const hits = rows.filter((r) => candidates.has(r.accession) && carried.has(rowKey(r)));
      const hitFilings = [...new Set(hits.map((r) => r.accession))];
      targets.set(
        a.accession,
        hitFilings.length === 1
          ? { kind: 'original', accession: hitFilings[0]!, rowKeys: carried, note: `restates the rows it carries of ${hitFilings[0]!} (one of ${matching.length} originals of ${a.original_date})` }
          : { kind: 'none', note: `restates nothing: ${matching.length} originals of ${a.original_date}, and its rows ${hitFilings.length === 0 ? 'match none of them' : `match ${hitFilings.length} of them`}` },
      );
    }
  }
  return targets;
}

/** Row (accession|table|sequence) -> the 4/A that supersedes it, for every row of a family; pure. `filings` in version order. */
export function form4FamilySupersession(filings: readonly FamilyFiling[], rows: readonly FamilyRow[]): { supersededBy: Map<string, string | null>; targets: Map<string, Form4AmendmentTarget> } {
  const targets = form4AmendmentTargets(filings, rows);
  const version = new Map(filings.map((f, i) => [f.accession, i]));
  const byAccession = new Map(filings.map((f) => [f.accession, f]));
  const supersededBy = new Map<string, string | null>(rows.map((r) => [`${r.accession}|${r.row_table}|${r.sequence}`, null]));
  // Amendments in version order: the latest that restates a row wins.
  for (const a of filings.filter((f) => f.is_amendment)) {
    const target = targets.get(a.accession)!;
    if (target.kind === 'none') continue;
    const restates = (f: FamilyFiling): boolean => {
      if (f.accession === a.accession || version.get(f.accession)! > version.get(a.accession)!) return false;
      if (target.kind === 'original') {
        if (f.accession === target.accession) return true;
        const earlier = targets.get(f.accession);
        return f.is_amendment && earlier?.kind === 'original' && earlier.accession === target.accession;
      }
      // No original in the read model: earlier 4/As of the same original date, as far as known.
      return f.is_amendment && targets.get(f.accession)?.kind === 'no_original' && datesAgree(a.original_date, f.original_date);
    };
    for (const r of rows) {
      const f = byAccession.get(r.accession);
      if (!f || !restates(f)) continue;
      if ((r.kind === 'transaction' ? a.transaction_count : a.holding_count) === 0) continue;
      if (target.kind === 'original' && target.rowKeys && !target.rowKeys.has(rowKey(r))) continue;
      supersededBy.set(`${r.accession}|${r.row_table}|${r.sequence}`, a.accession);
    }
  }
  return { supersededBy, targets };
}

/* The filings of a family in version order (4 before 4/A, then filing date, acceptance time, accession). */
const FAMILY_FILINGS_SQL = `
  SELECT accession, is_amendment, to_char(original_date, 'YYYY-MM-DD') AS original_date, transaction_count, holding_count, amendment_note
  FROM form4_filings WHERE cik = $1 AND owners_key = $2 AND period_of_report = $3
  ORDER BY is_amendment, effective_date, accepted_at ASC NULLS FIRST, accession`;

const FAMILY_ROWS_SQL = `
  SELECT t.accession, t.row_table, t.sequence, t.kind, t.security_title, t.transaction_date, t.superseded_by
  FROM insider_transactions t JOIN form4_filings f ON f.accession = t.accession
  WHERE f.cik = $1 AND f.owners_key = $2 AND f.period_of_report = $3`;

const SET_SUPERSEDED_SQL = `
  UPDATE insider_transactions t SET superseded_by = x.superseded_by
  FROM jsonb_to_recordset($1::jsonb) AS x(accession text, row_table text, sequence integer, superseded_by text)
  WHERE t.accession = x.accession AND t.row_table = x.row_table AND t.sequence = x.sequence`;

const SET_NOTES_SQL = `
  UPDATE form4_filings f SET amendment_note = x.amendment_note
  FROM jsonb_to_recordset($1::jsonb) AS x(accession text, amendment_note text)
  WHERE f.accession = x.accession`;

/** Recomputes which 4/A supersedes each row of one family, writing only what changed. */
async function supersedeFamily(m: EntityManager, cik: string, ownersKey: string, period: string): Promise<void> {
  const filings = await m.query<Array<FamilyFiling & { amendment_note: string | null }>>(FAMILY_FILINGS_SQL, [cik, ownersKey, period]);
  const rows = await m.query<Array<FamilyRow & { superseded_by: string | null }>>(FAMILY_ROWS_SQL, [cik, ownersKey, period]);
  const { supersededBy, targets } = form4FamilySupersession(filings, rows);
  const changed = rows
    .map((r) => ({ accession: r.accession, row_table: r.row_table, sequence: r.sequence, superseded_by: supersededBy.get(`${r.accession}|${r.row_table}|${r.sequence}`) ?? null, was: r.superseded_by }))
    .filter((r) => r.superseded_by !== r.was)
    .map(({ was: _was, ...r }) => r);
  if (changed.length) await m.query(SET_SUPERSEDED_SQL, [JSON.stringify(changed)]);
  const notes = filings
    .map((f) => ({ accession: f.accession, amendment_note: targets.get(f.accession)?.note ?? null, was: f.amendment_note }))
    .filter((f) => f.amendment_note !== f.was)
    .map(({ was: _was, ...f }) => f);
  if (notes.length) await m.query(SET_NOTES_SQL, [JSON.stringify(notes)]);
}

interface OwnerFiling {
  accession: string;
  as_of: string;
  issuer_name: string | null;
  trading_symbol: string | null;
  reporting_owners: Form4ReportingOwnerData[];
  src_id: string;
  source_url: string;
  content_hash: string | null;
  extracted_at: Date | null;
  record_id: string;
  observed_at: Date;
}

/* The issuer's filings that name the owner, latest first (as of their original filing). */
const OWNER_FILINGS_SQL = `
  SELECT accession, to_char(coalesce(original_date, effective_date), 'YYYY-MM-DD') AS as_of, issuer_name, trading_symbol,
    reporting_owners, src_id, source_url, content_hash, extracted_at, record_id, observed_at
  FROM form4_filings WHERE cik = $1 AND reporting_owners @> $2::jsonb
  ORDER BY coalesce(original_date, effective_date) DESC, effective_date DESC, accepted_at DESC NULLS LAST, accession DESC`;

const UPSERT_ROSTER_SQL = `
  INSERT INTO roster_entries (cik, category, source_provider, person_key, name, role, affiliation, email, phone, rank, is_current,
    src_id, source_url, quote, content_hash, extracted_at, accession, record_id, record_observed_at, first_seen_at, last_seen_at, last_filed_at)
  VALUES ($1, '${EXECUTIVES}', '${SEC}', $2, $3, $4, $5, NULL, NULL, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
  ON CONFLICT (cik, category, source_provider, person_key) DO UPDATE SET
    name = EXCLUDED.name, role = EXCLUDED.role, affiliation = EXCLUDED.affiliation, rank = EXCLUDED.rank,
    is_current = EXCLUDED.is_current, src_id = EXCLUDED.src_id, source_url = EXCLUDED.source_url, quote = EXCLUDED.quote,
    content_hash = EXCLUDED.content_hash, extracted_at = EXCLUDED.extracted_at, accession = EXCLUDED.accession,
    record_id = EXCLUDED.record_id, record_observed_at = EXCLUDED.record_observed_at, first_seen_at = EXCLUDED.first_seen_at,
    last_seen_at = EXCLUDED.last_seen_at, last_filed_at = EXCLUDED.last_filed_at`;

/** Rebuilds the SEC roster entry of one owner of one issuer from every filing that names them. */
async function rebuildRosterEntry(m: EntityManager, cik: string, owner: Form4ReportingOwnerData): Promise<void> {
  const key = form4OwnerKey(owner);
  const filings = await m.query<OwnerFiling[]>(OWNER_FILINGS_SQL, [cik, JSON.stringify([owner.cik ? { cik: owner.cik } : { cik: null }])]);
  const named = filings
    .map((f) => ({ filing: f, owner: f.reporting_owners.find((o) => form4OwnerKey(o) === key) }))
    .filter((x): x is { filing: OwnerFiling; owner: Form4ReportingOwnerData } => x.owner !== undefined);
  const insider = named.filter((x) => isRosterInsider(x.owner) && x.owner.name);
  const latest = insider[0];
  if (!latest || !named[0]) {
    // Never an officer or director of this issuer (a 10% owner is not an executive): no entry, and
    // an entry left by an earlier reading of a reprocessed filing stops being current.
    await m.query(
      `UPDATE roster_entries SET is_current = false WHERE cik = $1 AND category = '${EXECUTIVES}' AND source_provider = '${SEC}' AND person_key = $2 AND is_current`,
      [cik, key],
    );
    return;
  }
  const f = latest.filing;
  const o = latest.owner;
  const observed = insider.map((x) => x.filing.observed_at.getTime());
  await m.query(UPSERT_ROSTER_SQL, [
    cik,
    key,
    o.name,
    form4RosterRole(o),
    f.issuer_name ?? f.trading_symbol ?? cik,
    form4RosterRank(o),
    // Current only while no later filing shows the owner without the officer/director flag.
    named[0].filing.accession === f.accession,
    f.src_id,
    f.source_url,
    // The record keeps no reportingOwner XML: the officer title as filed, else the name as filed.
    o.is_officer && o.officer_title ? o.officer_title : o.name,
    f.content_hash,
    f.extracted_at,
    f.accession,
    f.record_id,
    f.observed_at,
    new Date(Math.min(...observed)),
    new Date(Math.max(...observed)),
    f.as_of,
  ]);
}

interface ExistingFiling {
  record_id: string;
  newer: boolean;
  owners_key: string;
  period_of_report: string | null;
  reporting_owners: Form4ReportingOwnerData[];
}

/**
 * Projects one form4@1 record (one filing) in one transaction: the filing, its rows, the
 * supersession of its family and the SEC roster entries of its owners. Serialized per issuer (an
 * advisory lock), since amendments and roster entries are computed across an issuer's filings.
 * The same record twice writes nothing; an older record of the filing never replaces a newer one.
 */
export async function projectForm4(ds: DataSource, envelope: RecordEnvelope<Form4Data>): Promise<ProjectionOutcome> {
  const d = envelope.data;
  return ds.transaction(async (m: EntityManager) => {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`form4:${d.issuer.cik}`]);
    const existing = (
      await m.query<ExistingFiling[]>(
        `SELECT record_id, observed_at > $2::timestamptz AS newer, owners_key, period_of_report, reporting_owners
         FROM form4_filings WHERE accession = $1`,
        [d.accession, envelope.observed_at],
      )
    )[0];
    if (existing && (existing.record_id === envelope.id || existing.newer)) return 'unchanged';

    const filing = form4FilingRow(envelope);
    const rows = insiderTransactionRows(envelope);
    await m.query(UPSERT_FILING_SQL, [JSON.stringify([filing])]);
    if (rows.length) await m.query(UPSERT_TRANSACTIONS_SQL, [JSON.stringify(rows)]);
    await m.query(DELETE_STALE_ROWS_SQL, [d.accession, JSON.stringify(rows.map((r) => ({ row_table: r.row_table, sequence: r.sequence })))]);

    const families = new Map<string, [string, string | null]>();
    families.set(`${filing.owners_key}|${filing.period_of_report}`, [filing.owners_key, filing.period_of_report]);
    if (existing) families.set(`${existing.owners_key}|${existing.period_of_report}`, [existing.owners_key, existing.period_of_report]);
    for (const [ownersKey, period] of families.values()) {
      if (period !== null) await supersedeFamily(m, d.issuer.cik, ownersKey, period);
    }

    const owners = new Map<string, Form4ReportingOwnerData>();
    for (const o of [...(existing?.reporting_owners ?? []), ...d.reporting_owners]) owners.set(form4OwnerKey(o), o);
    for (const key of [...owners.keys()].sort()) await rebuildRosterEntry(m, d.issuer.cik, owners.get(key)!);
    return existing ? 'updated' : 'inserted';
  });
}
