import type { Form4ReportingOwnerData } from '@app/contracts';
import { EXECUTIVE_SENIORITY, seniorityTier } from '@app/issuer-pages';
import { personKey } from '../roster/ir-roster.projection';

/*
 * The SEC half of the executives roster, pure: how one owner's Form 4 filings of an issuer make
 * their roster entry. The Form 4 projection stores it (roster_entries); the roster repository
 * rebuilds it from the filings filed by a day for `as_of`.
 */

/** Where an SEC roster entry ranks: officers by the issuer-page seniority table, unmatched titles next, directors last. */
export const FORM4_OFFICER_OTHER_RANK = EXECUTIVE_SENIORITY.length + 1;
export const FORM4_DIRECTOR_RANK = EXECUTIVE_SENIORITY.length + 2;

/** A reporting owner's identity: the CIK, else the normalized name. */
export function form4OwnerKey(owner: Form4ReportingOwnerData): string {
  return owner.cik ? `cik:${owner.cik}` : `name:${personKey(owner.name ?? '')}`;
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

/** One filing of an issuer naming an owner, as the roster rules read it (form4_filings). */
export interface OwnerFiling {
  /** bigint, as pg returns it */
  probe: string;
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

/** The roster_entries row of one owner of one issuer from the issuer's filings naming them (latest first); null when they were never an insider. */
export function secRosterEntryOf(cik: string, key: string, filings: readonly OwnerFiling[]) {
  const named = filings
    .map((f) => ({ filing: f, owner: f.reporting_owners.find((o) => form4OwnerKey(o) === key) }))
    .filter((x): x is { filing: OwnerFiling; owner: Form4ReportingOwnerData } => x.owner !== undefined);
  const insider = named.filter((x) => isRosterInsider(x.owner) && x.owner.name);
  const latest = insider[0];
  if (!latest || !named[0]) return null;
  const f = latest.filing;
  const o = latest.owner;
  const observed = insider.map((x) => x.filing.observed_at.getTime());
  return {
    cik,
    person_key: key,
    name: o.name,
    role: form4RosterRole(o),
    affiliation: f.issuer_name ?? f.trading_symbol ?? cik,
    rank: form4RosterRank(o),
    // Current only while no later filing shows the owner without the officer/director flag.
    is_current: named[0].filing.accession === f.accession,
    src_id: f.src_id,
    source_url: f.source_url,
    // The record keeps no reportingOwner XML: the officer title as filed, else the name as filed.
    quote: o.is_officer && o.officer_title ? o.officer_title : o.name,
    content_hash: f.content_hash,
    extracted_at: f.extracted_at,
    accession: f.accession,
    record_id: f.record_id,
    record_observed_at: f.observed_at,
    first_seen_at: new Date(Math.min(...observed)),
    last_seen_at: new Date(Math.max(...observed)),
    last_filed_at: f.as_of,
  };
}
