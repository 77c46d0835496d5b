import {
  contentHash,
  padCik,
  recordId,
  sourceId,
  stableStringify,
  type FundHeader,
  type FundHolding,
  type FundHoldingsRecordV1,
  type SecurityIdentifiers,
} from '@app/contracts';
import { securityIsinOf, type HoldingMatch, type NportFund, type NportHolding } from '@app/edgar';
import type { FetchedSource, MapContext } from '../company.mapper';

export const NPORT_PRODUCED_BY = 'ingest-sec';

/** Whether an EDGAR form is a fund's monthly portfolio report (NPORT-P, or its amendment NPORT-P/A). */
export function isNportForm(form: string): boolean {
  return /^NPORT-P(\/A)?$/i.test(form.trim());
}

/** The fund's natural key: its series id, or `CIK<cik>` for a registrant that files without series. */
export function fundKey(fund: Pick<NportFund, 'seriesId' | 'registrantCik'>): string {
  return fund.seriesId ?? `CIK${fund.registrantCik ?? 'unknown'}`;
}

/**
 * Parsed header -> fund@ data. `registrantTicker` is the registrant's ticker in the SEC ticker map,
 * used as the fund ticker only for a registrant without series (a closed-end fund like ADX is the
 * registrant itself); a series' ticker would need SEC's mutual-fund ticker file, not read here.
 */
export function fundHeaderOf(fund: NportFund, registrantTicker: string | null): FundHeader {
  if (!fund.registrantCik) throw new RangeError('N-PORT filing without a registrant CIK');
  if (!fund.reportDate) throw new RangeError('N-PORT filing without repPdDate');
  const classes = fund.classIds.map((id) => ({ class_id: id, ticker: fund.classTickers[id] ?? null }));
  const classTicker = classes.find((c) => c.ticker !== null)?.ticker ?? null;
  const label = `${fund.seriesName ?? ''} ${fund.registrantName ?? ''}`;
  return {
    key: fundKey(fund),
    registrant_cik: padCik(fund.registrantCik),
    registrant_name: fund.registrantName,
    registrant_lei: fund.registrantLei,
    series_id: fund.seriesId,
    series_name: fund.seriesName,
    series_lei: fund.seriesLei,
    classes,
    fund_ticker: classTicker ?? (fund.seriesId === null ? registrantTicker : null),
    is_etf: /\bETFs?\b/i.test(label),
    report_date: fund.reportDate,
    report_period_end: fund.reportPeriodEnd,
    net_assets: fund.netAssets,
    total_assets: fund.totalAssets,
    submission_type: fund.submissionType,
  };
}

/** The security's identifiers as this holding gives them (see securityIdentifiersSchema). Pure. */
export function securityIdentifiersOf(h: NportHolding, listingSymbol: string | null): SecurityIdentifiers {
  const isin = securityIsinOf(h);
  return {
    isin: isin?.isin ?? null,
    isin_from: isin?.from ?? null,
    isin_quote: isin ? (isin.from === 'filed' ? h.isinQuote : h.cusipQuote) : null,
    lei_quote: h.lei === null ? null : h.leiQuote,
    listing_symbol: listingSymbol,
  };
}

/** Parsed holding + its match (and the listing it names, see HoldingMatcher.listingOf) -> the record's holding. Pure. */
export function fundHoldingOf(h: NportHolding, match: HoldingMatch | null, listingSymbol: string | null = null): FundHolding {
  return {
    index: h.index,
    name: h.name,
    title: h.title,
    lei: h.lei,
    cusip: h.cusip,
    isin: h.isin,
    ticker: h.ticker,
    other_ids: h.otherIds.map((o) => ({ value: o.value, description: o.description })),
    balance: h.balance,
    units: h.units,
    cur_cd: h.curCd,
    val_usd: h.valUsd,
    pct_val: h.pctVal,
    payoff_profile: h.payoffProfile,
    asset_cat: h.assetCat,
    asset_conditional: h.assetConditional ? { asset_cat: h.assetConditional.assetCat, description: h.assetConditional.description } : null,
    issuer_cat: h.issuerCat,
    issuer_conditional: h.issuerConditional ? { issuer_cat: h.issuerConditional.issuerCat, description: h.issuerConditional.description } : null,
    inv_country: h.invCountry,
    fair_val_level: h.fairValLevel,
    is_restricted: h.isRestricted,
    quote: h.quote,
    match: match
      ? { cik: match.cik, symbol: match.symbol, method: match.method, confidence: match.confidence }
      : { cik: null, symbol: null, method: null, confidence: 0 },
    security: securityIdentifiersOf(h, match ? listingSymbol : null),
  };
}

export interface HoldingsChunk {
  accession: string;
  fund: FundHeader;
  index: number;
  count: number;
  holdingsTotal: number;
  holdings: FundHolding[];
}

/**
 * One chunk of one filing -> one fund-holdings@1 record. Pure. Provenance is the filing's
 * primary_doc.xml; its quote is the chunk's first holding's `<name>` element (each holding
 * carries its own quote in data).
 */
export function fundHoldingsRecordOf(chunk: HoldingsChunk, source: FetchedSource, ctx: MapContext): FundHoldingsRecordV1 {
  const data = {
    accession: chunk.accession,
    source_url: source.url,
    fund: chunk.fund,
    chunk: { index: chunk.index, count: chunk.count, holdings_total: chunk.holdingsTotal },
    holdings: chunk.holdings,
  };
  const key = chunk.fund.key;
  return {
    schema: 'fund-holdings@1',
    key,
    id: recordId(`${key}/${chunk.accession}/${chunk.index}`, contentHash(stableStringify(data))),
    observed_at: source.fetchedAt,
    produced_by: NPORT_PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(source.url, source.contentHash),
      source_provider: 'sec',
      source_url: source.url,
      accession: chunk.accession,
      quote: chunk.holdings.find((h) => h.quote !== null)?.quote ?? null,
      content_hash: source.contentHash,
      extracted_at: ctx.extractedAt,
    },
    data,
  };
}
