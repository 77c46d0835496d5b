import type { Provenance } from '@app/contracts';
import type { CompanyListing, CompanyRecord, IdentifierCandidate } from '@app/persistence';
import type { CompanyDetailBody, CompanyReferenceBody } from './companies.schemas';

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
function identifierSource(what: string, resolved: string | null | undefined, candidates: IdentifierCandidate[], gaps: string[], none: string): IdentifierCandidate | null {
  const chosen = resolved === undefined ? (candidates.length === 1 ? candidates[0]! : null) : candidates.find((x) => x.value === resolved) ?? null;
  if (chosen) return chosen;
  if (candidates.length === 0) gaps.push(`${what}: ${none}`);
  else {
    const values = candidates.map((x) => `${x.value} (${x.fundName ?? x.fundKey}, ${x.accession})`).join(', ');
    gaps.push(`${what}: ambiguous: N-PORT holdings give ${candidates.length} different values (${values}); none is served`);
  }
  return null;
}

/** SEC's former-name timestamps (1994-02-14T00:00:00.000Z) as dates. */
const dateOf = (v: string | null): string | null => (v === null ? null : /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v);

/** Read model -> the spec's company reference. */
export function toCompanyReference(c: CompanyListing): CompanyReferenceBody {
  return {
    symbol: c.symbol,
    ticker: c.ticker,
    market: c.market,
    name: c.name,
    cik: c.cik,
    isin: c.isin,
    figi: c.figi,
    issuer_id: Number(c.issuerId),
  };
}

/** Read model -> the spec's company detail, with a note for every field it cannot fill. */
export function toCompanyDetail(c: CompanyRecord): CompanyDetailBody {
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
  const gaps: string[] = [];
  // Identifier notes go where isin's note always stood (after the detail, website and description notes).
  const idGaps: string[] = [];
  const isin = identifierSource('isin', c.isin, c.isinCandidates, idGaps, "no N-PORT holding read so far gives this listing's ISIN (SEC publishes none; ISINs come from fund holdings' CUSIPs)");
  const secLei = sec?.lei ?? null;
  const nportLei = secLei === null ? identifierSource('lei', undefined, c.leiCandidates, idGaps, 'neither the SEC submissions nor an N-PORT holding read so far give an LEI') : null;
  if (!sec) gaps.push(`detail: SEC submissions not fetched yet; ${issuer || tenk ? 'website, country' : 'website, country, description'} and flags unavailable`);
  else {
    if (website === null) gaps.push('website: SEC submissions list no website for this issuer');
    if (country === null) gaps.push('country: SEC submissions give no country for this issuer');
    if (sec.investor_website === null) gaps.push('investor_website: SEC submissions list no investor website for this issuer');
    if (sec.sic === null) gaps.push('sic: SEC submissions give no SIC code for this issuer');
  }
  if (description === null) gaps.push('description: no issuer description captured yet (neither SEC nor the issuer IR page)');
  if (c.listingExchange === null) gaps.push('listing_exchange: SEC lists no exchange for this listing');
  gaps.push(...idGaps);
  if (c.figi === null) gaps.push('figi: not available from SEC (no OpenFIGI mapping in this service)');
  gaps.push('sector: not stored by this service', 'industry: not stored by this service', 'employee_count: not stored by this service');
  return {
    ...toCompanyReference(c),
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
    _gaps: gaps,
  };
}
