import type { Provenance } from '@app/contracts';
import type { CompanyListing, CompanyRecord } from '@app/persistence';
import type { CompanyDetailBody, CompanyReferenceBody } from './companies.schemas';

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
  // The issuer's own description (its IR pages) when captured, else SEC's (usually empty).
  const issuer = c.issuerDescription;
  const description = issuer?.description ?? c.description ?? null;
  const descriptionProvenance: Provenance | null = issuer
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
  if (!sec) gaps.push(`detail: SEC submissions not fetched yet; ${issuer ? 'website, country' : 'website, country, description'} and flags unavailable`);
  else {
    if (website === null) gaps.push('website: SEC submissions list no website for this issuer');
    if (country === null) gaps.push('country: SEC submissions give no country for this issuer');
  }
  if (description === null) gaps.push('description: no issuer description captured yet (neither SEC nor the issuer IR page)');
  if (c.listingExchange === null) gaps.push('listing_exchange: SEC lists no exchange for this listing');
  if (c.isin === null) gaps.push('isin: not available from SEC');
  if (c.figi === null) gaps.push('figi: not available from SEC (no OpenFIGI mapping in this service)');
  gaps.push('sector: not stored by this service', 'industry: not stored by this service', 'employee_count: not stored by this service');
  return {
    ...toCompanyReference(c),
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
