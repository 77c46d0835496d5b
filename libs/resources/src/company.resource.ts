import { z } from 'zod';
import type { Provenance } from '@app/contracts';
import type { CompanyRecord, IdentifierCandidate } from '@app/persistence';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema, toCompanyReference } from './shared.resource';

const identifierSourceSchema = z
  .object({
    source: z.enum(['nport_holding', 'sec_submissions']).describe('nport_holding: a fund\'s N-PORT holding of the security; sec_submissions: the issuer\'s submissions JSON'),
    derivation: z.enum(['filed', 'cusip']).describe('filed: the identifier as the source gives it; cusip: an ISIN computed as US + the holding\'s CUSIP + the ISIN check digit'),
    fund: z
      .object({
        key: z.string().describe('Series id, or CIK<10 digits> for a registrant without series'),
        name: z.string().nullable(),
        accession: z.string().describe('Accession of the fund\'s N-PORT filing'),
        holding_index: z.number().int().describe('0-based position of the holding (invstOrSec) in the filing'),
        as_of_date: dateField().describe('The date the fund\'s holdings are as of (YYYY-MM-DD)'),
      })
      .nullable()
      .describe('The fund filing and holding the identifier was read from; null for sec_submissions'),
    cusip: z.string().nullable().describe('The CUSIP the holding files'),
    provenance: provenanceSchema.describe('The fund filing\'s primary_doc.xml; the quote is the holding\'s XML from <name> through the identifier\'s element'),
  })
  .describe('Where an identifier came from');

const formerNameSchema = z
  .object({
    name: z.string(),
    from: dateField().nullable().describe('Date the name was taken (YYYY-MM-DD), as SEC lists it'),
    to: dateField().nullable().describe('Date the name was left (YYYY-MM-DD)'),
  });

export const companyDetailSchema = companyReferenceSchema
  .extend({
    lei: z.string().nullable().describe("The issuer's LEI: from its submissions JSON, else from N-PORT holdings of its securities (null when none or ambiguous, see gaps)"),
    identifier_sources: z
      .object({ isin: identifierSourceSchema.nullable(), lei: identifierSourceSchema.nullable() })
      .describe('Where `isin` and `lei` came from; null where the identifier is null'),
    sic: z.string().nullable().describe('SEC Standard Industrial Classification code, from the submissions JSON'),
    sic_description: z.string().nullable().describe('SEC\'s description of the SIC code'),
    investor_website: z.string().nullable().describe('The investor-relations website the submissions JSON lists (null when empty there)'),
    former_names: z.array(formerNameSchema).describe('Names the issuer filed under before, from the submissions JSON'),
    website: z.string().nullable(),
    country: z.string().nullable(),
    listing_exchange: z.string().nullable(),
    is_etf: z.boolean(),
    is_fund: z.boolean(),
    is_adr: z.boolean(),
    status: z.string().describe("Observed value 'active'"),
    sector: z.null().describe('Not stored by this service'),
    industry: z.null().describe('Not stored by this service'),
    employee_count: z.null().describe('Not stored by this service'),
    description: z.string().nullable().describe('Null when no description has been captured (see gaps)'),
    description_provenance: provenanceSchema.nullable(),
    provenance: provenanceSchema,
    as_of: dateField()
      .optional()
      .describe('With ?as_of=: the day asked. `name` is the name in force that day (SEC former names with their dates); gaps names the fields that are today\'s values'),
    gaps: z.array(gapSchema).describe('Every field this response cannot fill, and why'),
  });

export const companyListSchema = z
  .object({ data: z.array(companyReferenceSchema), pagination: paginationSchema });

export type CompanyDetailBody = z.infer<typeof companyDetailSchema>;
export type CompanyListBody = z.infer<typeof companyListSchema>;

type IdentifierSourceBody = NonNullable<CompanyDetailBody['identifier_sources']['isin']>;

function nportSource(c: IdentifierCandidate): IdentifierSourceBody {
  return {
    source: 'nport_holding',
    derivation: c.derivation === 'cusip' ? 'cusip' : 'filed',
    fund: { key: c.fundKey, name: c.fundName, accession: c.accession, holding_index: c.holdingIndex, as_of_date: c.reportDate },
    cusip: c.cusip,
    provenance: c.provenance,
  };
}

/**
 * One identifier and its N-PORT candidates -> the candidate it cites, or null with a note (none, or
 * several: ambiguous, never a guess). `resolved` is the decision when the read model made it (the
 * ISIN: resolved in SQL, over the same candidates); else exactly one candidate is the value.
 */
function identifierSource(what: string, resolved: string | null | undefined, candidates: IdentifierCandidate[], gaps: GapBody[], none: string): IdentifierCandidate | null {
  const chosen = resolved === undefined ? (candidates.length === 1 ? candidates[0]! : null) : candidates.find((x) => x.value === resolved) ?? null;
  if (chosen) return chosen;
  if (candidates.length === 0) gaps.push(gap('identifier_not_found', `${what}: ${none}`, what));
  else {
    const values = candidates.map((x) => `${x.value} (${x.fundName ?? x.fundKey}, ${x.accession})`).join(', ');
    gaps.push(gap('identifier_ambiguous', `${what}: ambiguous: N-PORT holdings give ${candidates.length} different values (${values}); none is served`, what));
  }
  return null;
}

/** SEC's former-name timestamps (1994-02-14T00:00:00.000Z) as dates. */
const dateOf = (v: string | null): string | null => (v === null ? null : /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v);

type FormerName = { name: string; from: string | null; to: string | null };

/**
 * The issuer's name in force on `day` (YYYY-MM-DD) from SEC's former names, each used from its
 * `from` through its `to` (the day of the last filing under it, inclusive): after every former
 * name's `to`, today's name; else the latest former name taken on or before the day. A day before
 * the first name SEC lists has no name in force: the earliest name is served, with a note. Pure.
 */
export function nameAsOf(current: string, formerNames: readonly FormerName[], day: string): { name: string; note: GapBody | null } {
  const former = formerNames
    .map((f) => ({ name: f.name, from: dateOf(f.from), to: dateOf(f.to) }))
    .sort((a, b) => (a.from ?? '').localeCompare(b.from ?? ''));
  if (former.length === 0) return { name: current, note: null };
  const lastTo = former.reduce<string | null>((m, f) => (f.to !== null && (m === null || f.to > m) ? f.to : m), null);
  if (lastTo !== null && day > lastTo) return { name: current, note: null };
  const taken = former.filter((f) => f.from === null || f.from <= day);
  const inForce = taken[taken.length - 1];
  if (inForce) return { name: inForce.name, note: null };
  const first = former[0]!;
  return {
    name: first.name,
    note: gap('name_before_sec_history', `name: SEC lists no name before ${first.from ?? 'its first former name'}; as_of ${day} predates it, so the earliest name is shown`, 'name'),
  };
}

/** The fields of the company detail that the read model keeps only as they are today. */
const NOT_POINT_IN_TIME =
  'symbol, ticker, isin, lei, figi and identifier_sources, sic, sic_description, website, investor_website, country, listing_exchange, ' +
  'is_etf, is_fund, is_adr, status and description (with its provenance)';

/**
 * Read model -> the spec's company detail, with a note for every field it cannot fill. With
 * `asOf` (YYYY-MM-DD), `name` is the name in force that day (nameAsOf) and gaps says which fields
 * are today's values: the read model keeps only the latest submissions JSON, ticker map, N-PORT
 * identifiers and descriptions, and no dates for them.
 */
export function toCompanyDetail(c: CompanyRecord, asOf?: string): CompanyDetailBody {
  const sec = c.secDetail;
  const website = c.website ?? sec?.website ?? null;
  const country = c.country ?? sec?.country ?? null;
  // Item 1 of the issuer's newest 10-K when read (first party, filed with the SEC, dated), else the
  // issuer's IR page, else the submissions JSON's description field (usually empty).
  const tenk = c.tenkDescription;
  const issuer = c.issuerDescription;
  const description = tenk?.description ?? issuer?.description ?? c.description ?? null;
  const descriptionProvenance: Provenance | null = tenk
    ? tenk.provenance
    : issuer
    ? {
        src_id: issuer.srcId,
        source_provider: 'issuer_page',
        source_url: issuer.sourceUrl,
        accession: null,
        quote: issuer.quote,
        content_hash: issuer.contentHash,
        extracted_at: issuer.extractedAt,
      }
    : c.descriptionProvenance;
  const gaps: GapBody[] = [];
  // Identifier notes go where isin's note always stood (after the detail, website and description notes).
  const idGaps: GapBody[] = [];
  const isin = identifierSource('isin', c.isin, c.isinCandidates, idGaps, "no N-PORT holding read so far gives this listing's ISIN (SEC publishes none; ISINs come from fund holdings' CUSIPs)");
  const secLei = sec?.lei ?? null;
  const nportLei = secLei === null ? identifierSource('lei', undefined, c.leiCandidates, idGaps, 'neither the SEC submissions nor an N-PORT holding read so far give an LEI') : null;
  if (!sec) gaps.push(gap('sec_submissions_pending', `detail: SEC submissions not fetched yet; ${issuer || tenk ? 'website, country' : 'website, country, description'} and flags unavailable`));
  else {
    if (website === null) gaps.push(gap('not_in_source', 'website: SEC submissions list no website for this issuer', 'website'));
    if (country === null) gaps.push(gap('not_in_source', 'country: SEC submissions give no country for this issuer', 'country'));
    if (sec.investor_website === null) gaps.push(gap('not_in_source', 'investor_website: SEC submissions list no investor website for this issuer', 'investor_website'));
    if (sec.sic === null) gaps.push(gap('not_in_source', 'sic: SEC submissions give no SIC code for this issuer', 'sic'));
  }
  if (description === null) gaps.push(gap('not_captured', 'description: no issuer description captured yet (neither SEC nor the issuer IR page)', 'description'));
  if (c.listingExchange === null) gaps.push(gap('not_in_source', 'listing_exchange: SEC lists no exchange for this listing', 'listing_exchange'));
  gaps.push(...idGaps);
  if (c.figi === null) gaps.push(gap('no_source', 'figi: not available from SEC (no OpenFIGI mapping in this service)', 'figi'));
  for (const field of ['sector', 'industry', 'employee_count']) gaps.push(gap('not_stored', `${field}: not stored by this service`, field));
  const reference = toCompanyReference(c);
  if (asOf !== undefined) {
    const named = nameAsOf(c.name, sec?.former_names ?? [], asOf);
    reference.name = named.name;
    if (!sec) gaps.push(gap('sec_submissions_pending', `name: SEC submissions not fetched yet, so former names are unknown; today's name is shown for as_of ${asOf}`, 'name'));
    if (named.note) gaps.push(named.note);
    gaps.push(
      gap('as_of_not_point_in_time', `as_of ${asOf}: point in time: name (SEC former names with their dates; former_names lists them all). Today's values, not point in time: ${NOT_POINT_IN_TIME}`),
    );
  }
  return {
    ...reference,
    isin: isin?.value ?? null,
    lei: secLei ?? nportLei?.value ?? null,
    identifier_sources: {
      isin: isin ? nportSource(isin) : null,
      lei:
        secLei !== null
          ? { source: 'sec_submissions', derivation: 'filed', fund: null, cusip: null, provenance: c.provenance }
          : nportLei
            ? nportSource(nportLei)
            : null,
    },
    sic: sec?.sic ?? null,
    sic_description: sec?.sic_description ?? null,
    investor_website: sec?.investor_website ?? null,
    former_names: (sec?.former_names ?? []).map((f) => ({ name: f.name, from: dateOf(f.from), to: dateOf(f.to) })),
    website,
    country,
    listing_exchange: c.listingExchange,
    is_etf: c.isEtf,
    is_fund: c.isFund || sec?.is_fund === true,
    is_adr: c.isAdr,
    status: c.status,
    sector: null,
    industry: null,
    employee_count: null,
    description,
    description_provenance: description === null ? null : descriptionProvenance,
    provenance: c.provenance,
    ...(asOf !== undefined ? { as_of: asOf } : {}),
    gaps,
  };
}
