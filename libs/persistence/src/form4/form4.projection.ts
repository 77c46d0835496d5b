import type { EntityManager } from 'typeorm';
import type { Form4Data, Form4ReportingOwnerData, RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { latestPerKey, lockKeys } from '../projections/batch-reduction';
import { columnArrays, unnestUpsertSql } from '../projections/batch-upsert';
import type { ResolvedFootnote } from './form4.table';
import { form4OwnerKey, secRosterEntryOf, type OwnerFiling } from './sec-roster';

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
 * every batch that touches it (once per family, however many of its filings the batch holds), so
 * the result does not depend on arrival order nor on how records are cut into batches (the topic is
 * keyed by accession: an original and its 4/A may arrive in either order, in one batch or two).
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

/** The YYYY-MM-DD day of an xs:date as filed ("2024-09-12", "2024-09-12-05:00"); null when it is not a calendar date. */
export function isoDay(value: string | null): string | null {
  const day = value ? /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1] : undefined;
  if (!day) return null;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}

/** The set of a filing's reporting owners, sorted: a 4/A restates filings of the same owners. */
export function form4OwnersKey(owners: readonly Form4ReportingOwnerData[]): string {
  return [...new Set(owners.map(form4OwnerKey))].sort().join(',');
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

/*
 * One multi-row upsert per table, every column an unnest array (unnestUpsertSql), updating every
 * column but the key (and what the projection derives later: superseded_by, amendment_note). One
 * JSON document of the batch's rows (jsonb_to_recordset) cost Postgres about 3.7x what COPY of the
 * same rows costs (insider rows carry their footnotes and owners as jsonb; see bench/projector/README.md).
 */
const UPSERT_FILING_SQL = unnestUpsertSql('form4_filings', FILING_COLUMNS, 'accession', 'true', null);
const UPSERT_TRANSACTIONS_SQL = unnestUpsertSql('insider_transactions', TRANSACTION_COLUMNS, 'accession, row_table, sequence', 'true', null, { updatedAt: false });

/* A reprocessed filing (same accession) that no longer has a row drops it: that is a new reading of one document, not a restatement. */
const DELETE_STALE_ROWS_SQL = `
  DELETE FROM insider_transactions t
  WHERE t.accession = ANY($1::text[])
    AND NOT EXISTS (
      SELECT 1 FROM jsonb_to_recordset($2::jsonb) AS x(accession text, row_table text, sequence integer)
      WHERE x.accession = t.accession AND x.row_table = t.row_table AND x.sequence = t.sequence)`;

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

/** A family: the filings of one issuer, one set of reporting owners and one period. */
interface FamilyKey {
  cik: string;
  owners_key: string;
  period_of_report: string;
}

const familyId = (f: FamilyKey): string => JSON.stringify([f.cik, f.owners_key, f.period_of_report]);

/* The filings of the given families, each family's in version order (4 before 4/A, then filing date, acceptance time, accession). */
const FAMILY_FILINGS_SQL = `
  SELECT f.cik, f.owners_key, f.period_of_report, f.accession, f.is_amendment, to_char(f.original_date, 'YYYY-MM-DD') AS original_date,
    f.transaction_count, f.holding_count, f.amendment_note
  FROM jsonb_to_recordset($1::jsonb) AS k(cik text, owners_key text, period_of_report text)
  JOIN form4_filings f ON f.cik = k.cik AND f.owners_key = k.owners_key AND f.period_of_report = k.period_of_report
  ORDER BY f.is_amendment, f.effective_date, f.accepted_at ASC NULLS FIRST, f.accession`;

const FAMILY_ROWS_SQL = `
  SELECT f.cik, f.owners_key, f.period_of_report, t.accession, t.row_table, t.sequence, t.kind, t.security_title, t.transaction_date, t.superseded_by
  FROM jsonb_to_recordset($1::jsonb) AS k(cik text, owners_key text, period_of_report text)
  JOIN form4_filings f ON f.cik = k.cik AND f.owners_key = k.owners_key AND f.period_of_report = k.period_of_report
  JOIN insider_transactions t ON t.accession = f.accession`;

const SET_SUPERSEDED_SQL = `
  UPDATE insider_transactions t SET superseded_by = x.superseded_by
  FROM jsonb_to_recordset($1::jsonb) AS x(accession text, row_table text, sequence integer, superseded_by text)
  WHERE t.accession = x.accession AND t.row_table = x.row_table AND t.sequence = x.sequence`;

const SET_NOTES_SQL = `
  UPDATE form4_filings f SET amendment_note = x.amendment_note
  FROM jsonb_to_recordset($1::jsonb) AS x(accession text, amendment_note text)
  WHERE f.accession = x.accession`;

/** Groups rows by family, keeping their order. */
function byFamily<T extends FamilyKey>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const id = familyId(r);
    const group = groups.get(id);
    if (group) group.push(r);
    else groups.set(id, [r]);
  }
  return groups;
}

/**
 * Recomputes which 4/A supersedes each row of the given families (each family once, whatever the
 * number of its filings in the batch): two reads for all of them, then one write of the rows whose
 * superseded_by changed and one of the filings whose amendment_note changed.
 */
async function supersedeFamilies(m: EntityManager, families: readonly FamilyKey[]): Promise<void> {
  if (families.length === 0) return;
  const keys = JSON.stringify(families);
  const filings = byFamily(await m.query<Array<FamilyKey & FamilyFiling & { amendment_note: string | null }>>(FAMILY_FILINGS_SQL, [keys]));
  const rows = byFamily(await m.query<Array<FamilyKey & FamilyRow & { superseded_by: string | null }>>(FAMILY_ROWS_SQL, [keys]));
  const changed: Array<{ accession: string; row_table: string; sequence: number; superseded_by: string | null }> = [];
  const notes: Array<{ accession: string; amendment_note: string | null }> = [];
  for (const [id, familyFilings] of filings) {
    const familyRows = rows.get(id) ?? [];
    const { supersededBy, targets } = form4FamilySupersession(familyFilings, familyRows);
    for (const r of familyRows) {
      const by = supersededBy.get(`${r.accession}|${r.row_table}|${r.sequence}`) ?? null;
      if (by !== r.superseded_by) changed.push({ accession: r.accession, row_table: r.row_table, sequence: r.sequence, superseded_by: by });
    }
    for (const f of familyFilings) {
      const note = targets.get(f.accession)?.note ?? null;
      if (note !== f.amendment_note) notes.push({ accession: f.accession, amendment_note: note });
    }
  }
  if (changed.length) await m.query(SET_SUPERSEDED_SQL, [JSON.stringify(changed)]);
  if (notes.length) await m.query(SET_NOTES_SQL, [JSON.stringify(notes)]);
}

/*
 * For each probe (an issuer and an owner key), the issuer's filings naming that owner, latest
 * first (as of their original filing), through form4_filing_owners' primary key.
 */
const OWNER_FILINGS_SQL = `
  SELECT p.probe, f.accession, to_char(coalesce(f.original_date, f.effective_date), 'YYYY-MM-DD') AS as_of, f.issuer_name,
    f.trading_symbol, f.reporting_owners, f.src_id, f.source_url, f.content_hash, f.extracted_at, f.record_id, f.observed_at
  FROM unnest($1::bpchar[], $2::text[]) WITH ORDINALITY AS p(cik, owner_key, probe)
  JOIN form4_filing_owners o ON o.cik = p.cik AND o.owner_key = p.owner_key
  JOIN form4_filings f ON f.accession = o.accession
  ORDER BY p.probe, coalesce(f.original_date, f.effective_date) DESC, f.effective_date DESC, f.accepted_at DESC NULLS LAST, f.accession DESC`;

/** The owner index of the written filings: one row per distinct owner key (a re-read filing's old rows are deleted first). */
const INSERT_OWNERS_SQL = `
  INSERT INTO form4_filing_owners (cik, owner_key, accession)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT DO NOTHING`;

const ROSTER_RECORDSET = `cik text, person_key text, name text, role text, affiliation text, rank integer, is_current boolean,
  src_id text, source_url text, quote text, content_hash text, extracted_at timestamptz, accession text, record_id text,
  record_observed_at timestamptz, first_seen_at timestamptz, last_seen_at timestamptz, last_filed_at date`;

const UPSERT_ROSTER_SQL = `
  INSERT INTO roster_entries (cik, category, source_provider, person_key, name, role, affiliation, email, phone, rank, is_current,
    src_id, source_url, quote, content_hash, extracted_at, accession, record_id, record_observed_at, first_seen_at, last_seen_at, last_filed_at)
  SELECT x.cik, '${EXECUTIVES}', '${SEC}', x.person_key, x.name, x.role, x.affiliation, NULL, NULL, x.rank, x.is_current,
    x.src_id, x.source_url, x.quote, x.content_hash, x.extracted_at, x.accession, x.record_id, x.record_observed_at,
    x.first_seen_at, x.last_seen_at, x.last_filed_at
  FROM jsonb_to_recordset($1::jsonb) AS x(${ROSTER_RECORDSET})
  ON CONFLICT (cik, category, source_provider, person_key) DO UPDATE SET
    name = EXCLUDED.name, role = EXCLUDED.role, affiliation = EXCLUDED.affiliation, rank = EXCLUDED.rank,
    is_current = EXCLUDED.is_current, src_id = EXCLUDED.src_id, source_url = EXCLUDED.source_url, quote = EXCLUDED.quote,
    content_hash = EXCLUDED.content_hash, extracted_at = EXCLUDED.extracted_at, accession = EXCLUDED.accession,
    record_id = EXCLUDED.record_id, record_observed_at = EXCLUDED.record_observed_at, first_seen_at = EXCLUDED.first_seen_at,
    last_seen_at = EXCLUDED.last_seen_at, last_filed_at = EXCLUDED.last_filed_at`;

/*
 * Owners who (no longer) appear as officer or director of the issuer in any filing: no entry, and
 * an entry left by an earlier reading of a reprocessed filing stops being current. Each owner is
 * probed on the unique key by a scalar subquery: as a join, a fresh table without statistics was
 * planned as a nested loop over every roster entry per owner (3,110 x 3,110 rows: 7 s).
 */
const RETIRE_ROSTER_SQL = `
  UPDATE roster_entries r SET is_current = false
  WHERE r.id = ANY (ARRAY(
    SELECT id FROM (
      SELECT (SELECT e.id FROM roster_entries e
               WHERE e.cik = x.cik AND e.category = '${EXECUTIVES}' AND e.source_provider = '${SEC}' AND e.person_key = x.person_key AND e.is_current) AS id
        FROM jsonb_to_recordset($1::jsonb) AS x(cik bpchar, person_key text)) AS current
    WHERE id IS NOT NULL))`;

/** An owner of an issuer whose SEC roster entry is rebuilt. */
interface IssuerOwner {
  cik: string;
  owner: Form4ReportingOwnerData;
}

/**
 * Rebuilds the SEC roster entries of the given owners (each (issuer, owner) once) from every
 * filing of the issuer naming them: one read for all, one upsert, one retirement.
 */
async function rebuildRosterEntries(m: EntityManager, owners: readonly IssuerOwner[]): Promise<void> {
  if (owners.length === 0) return;
  // One probe per (issuer, owner key); `owners` holds each once. Probes are numbered from 1 (WITH ORDINALITY).
  const keys = owners.map((o) => form4OwnerKey(o.owner));
  const found = await m.query<OwnerFiling[]>(OWNER_FILINGS_SQL, [owners.map((o) => o.cik), keys]);
  const filingsOf = new Map<number, OwnerFiling[]>();
  for (const f of found) {
    const probe = Number(f.probe);
    const list = filingsOf.get(probe);
    if (list) list.push(f);
    else filingsOf.set(probe, [f]);
  }
  const entries = [];
  const retired: Array<{ cik: string; person_key: string }> = [];
  for (const [i, o] of owners.entries()) {
    const key = keys[i]!;
    const entry = secRosterEntryOf(o.cik, key, filingsOf.get(i + 1) ?? []);
    if (entry) entries.push(entry);
    else retired.push({ cik: o.cik, person_key: key });
  }
  if (entries.length) await m.query(UPSERT_ROSTER_SQL, [JSON.stringify(entries)]);
  if (retired.length) await m.query(RETIRE_ROSTER_SQL, [JSON.stringify(retired)]);
}

interface StoredFiling {
  accession: string;
  record_id: string;
  observed_at: Date;
  owners_key: string;
  period_of_report: string | null;
  reporting_owners: Form4ReportingOwnerData[];
}

/**
 * Projects a batch of form4@1 records (one filing each, in offset order) in the caller's
 * transaction, with the result of applying them one by one:
 * 1. the per-issuer advisory locks of every issuer of the batch, in one ordered statement (amendments
 *    and roster entries are computed across an issuer's filings);
 * 2. one read of the stored filings, and the batch reduced per accession (latestPerKey): the same
 *    record twice writes nothing, an older record never replaces a newer one;
 * 3. one upsert of the filings, one of their rows, one delete of the rows a re-read filing dropped;
 * 4. supersession recomputed once per family the batch touched (the new and the former family of
 *    each filing), roster entries rebuilt once per (issuer, owner) the batch touched.
 * A record replaced by a later record of its accession in the same batch is never written, so the
 * roster entry only such a record would have created (and retired at once) does not appear.
 * Returns the accessions written (inserted: new filings) for the form4.filed events.
 */
export async function projectForm4Filings(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<Form4Data>>): Promise<BatchOutcome> {
  if (envelopes.length === 0) return { inserted: [], updated: [], unchanged: 0 };
  await lockKeys(m, envelopes.map((e) => `form4:${e.data.issuer.cik}`));
  const stored = await m.query<StoredFiling[]>(
    `SELECT accession, record_id, observed_at, owners_key, period_of_report, reporting_owners FROM form4_filings WHERE accession = ANY($1::text[])`,
    [[...new Set(envelopes.map((e) => e.data.accession))]],
  );
  const storedBy = new Map(stored.map((s) => [s.accession, s]));
  const { winners, outcome } = latestPerKey(envelopes, (e) => e.data.accession, storedBy);
  if (winners.length === 0) return outcome;

  const filings = winners.map((w) => form4FilingRow(w.winner));
  const rows = winners.flatMap((w) => insiderTransactionRows(w.winner));
  await m.query(UPSERT_FILING_SQL, columnArrays(filings, FILING_COLUMNS));
  if (rows.length) await m.query(UPSERT_TRANSACTIONS_SQL, columnArrays(rows, TRANSACTION_COLUMNS));
  const reread = new Set(filings.filter((f) => storedBy.has(f.accession)).map((f) => f.accession));
  if (reread.size) {
    const kept = rows.filter((r) => reread.has(r.accession)).map((r) => ({ accession: r.accession, row_table: r.row_table, sequence: r.sequence }));
    await m.query(DELETE_STALE_ROWS_SQL, [[...reread], JSON.stringify(kept)]);
    await m.query('DELETE FROM form4_filing_owners WHERE accession = ANY($1::text[])', [[...reread]]);
  }
  const filingOwners = winners.flatMap((w) => [...new Set(w.winner.data.reporting_owners.map(form4OwnerKey))].map((key) => ({ cik: w.winner.data.issuer.cik, key, accession: w.key })));
  await m.query(INSERT_OWNERS_SQL, [filingOwners.map((o) => o.cik), filingOwners.map((o) => o.key), filingOwners.map((o) => o.accession)]);

  const families = new Map<string, FamilyKey>();
  const addFamily = (cik: string, ownersKey: string, period: string | null): void => {
    if (period === null) return;
    const family = { cik, owners_key: ownersKey, period_of_report: period };
    families.set(familyId(family), family);
  };
  const owners = new Map<string, IssuerOwner>();
  const addOwners = (cik: string, list: readonly Form4ReportingOwnerData[]): void => {
    for (const owner of list) owners.set(JSON.stringify([cik, form4OwnerKey(owner)]), { cik, owner });
  };
  for (const w of winners) {
    const cik = w.winner.data.issuer.cik;
    const before = storedBy.get(w.key);
    if (before) {
      addFamily(cik, before.owners_key, before.period_of_report);
      addOwners(cik, before.reporting_owners);
    }
    const filing = form4FilingRow(w.winner);
    addFamily(cik, filing.owners_key, filing.period_of_report);
    addOwners(cik, w.winner.data.reporting_owners);
  }
  await supersedeFamilies(m, [...families.values()]);
  await rebuildRosterEntries(m, [...owners.values()]);
  return outcome;
}
