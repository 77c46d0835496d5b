import {
  contentHash,
  recordId,
  sourceId,
  stableStringify,
  type CompanyData,
  type CompanyDetail,
  type CompanyRecordV1,
  type RecordOrigin,
} from '@app/contracts';
import type { SubmissionsCompany, TickerMapEntry } from '@app/edgar';

export const PRODUCED_BY = 'ingest-sec';
export const US_MARKET = 'US';

/** A fetched source: where it came from, when, and the sha256 of its bytes (hashed once per file). */
export interface FetchedSource {
  url: string;
  contentHash: string;
  fetchedAt: string;
}

export interface MapContext {
  /** Id of the ingestion run (correlation_id of every record). */
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  /** When the values were extracted (ISO). */
  extractedAt: string;
}

/** `<TICKER>:US`, the natural key of a company listing. */
export function companySymbol(ticker: string): string {
  return `${ticker}:${US_MARKET}`;
}

/** Submissions JSON -> company@1 detail. Pure. */
export function companyDetailOf(s: SubmissionsCompany): CompanyDetail {
  return {
    sec_name: s.name,
    entity_type: s.entityType,
    sic: s.sic,
    sic_description: s.sicDescription,
    category: s.category,
    fiscal_year_end: s.fiscalYearEnd && /^\d{4}$/.test(s.fiscalYearEnd) ? s.fiscalYearEnd : null,
    state_of_incorporation: s.stateOfIncorporation,
    country: s.country,
    website: s.website,
    investor_website: s.investorWebsite,
    description: s.description,
    ein: s.ein,
    lei: s.lei,
    phone: s.phone,
    tickers: [...s.tickers],
    exchanges: [...s.exchanges],
    former_names: s.formerNames.map((f) => ({ name: f.name, from: f.from, to: f.to })),
    // SEC's entityType is "investment" for registered investment companies (funds, ETF trusts).
    is_fund: s.entityType === 'investment',
  };
}

/**
 * One ticker-map row (+ the issuer's submissions JSON, when fetched) -> one company@1 record. Pure.
 * Provenance names the submissions JSON when there is detail (the record's freshest source), else
 * the ticker map; the quote is always text found verbatim in that source's bytes.
 */
export function companyRecordOf(
  entry: TickerMapEntry,
  tickerMap: FetchedSource,
  submissions: { source: FetchedSource; company: SubmissionsCompany } | null,
  ctx: MapContext,
): CompanyRecordV1 {
  const key = companySymbol(entry.ticker);
  const company = submissions?.company ?? null;
  // The plain ticker map has no exchange: take the one SEC lists for this ticker in the submissions.
  const submissionsExchange = company ? (company.exchanges[company.tickers.indexOf(entry.ticker)] ?? null) : null;
  const data: CompanyData = {
    cik: entry.cik,
    ticker: entry.ticker,
    market: US_MARKET,
    name: entry.name,
    listing_exchange: entry.exchange ?? submissionsExchange,
    reference_source: { source_url: tickerMap.url, content_hash: tickerMap.contentHash },
    detail: company ? companyDetailOf(company) : null,
  };
  const source = submissions?.source ?? tickerMap;
  return {
    schema: 'company@1',
    key,
    id: recordId(key, contentHash(stableStringify(data))),
    observed_at: source.fetchedAt,
    produced_by: PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(source.url, source.contentHash),
      source_provider: 'sec',
      source_url: source.url,
      accession: null,
      quote: company ? company.nameQuote : entry.quote,
      content_hash: source.contentHash,
      extracted_at: ctx.extractedAt,
    },
    data,
  };
}
