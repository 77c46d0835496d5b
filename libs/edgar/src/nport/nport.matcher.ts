import type { NportHolding } from './nport.types';

/** A company holdings can be matched to: a ticker-map row, plus its LEI when its submissions gave one. */
export interface MatchableCompany {
  cik: string;
  ticker: string;
  name: string;
  lei?: string | null;
}

export type MatchMethod = 'isin' | 'cusip' | 'ticker' | 'lei' | 'name';

export interface HoldingMatch {
  cik: string;
  /** `<TICKER>:US` of the company's listing (the matched ticker, else its first ticker-map row). */
  symbol: string;
  method: MatchMethod;
  /** 0..1: exact identifiers 1, LEI 0.98, ticker 0.9, normalized name 0.75. */
  confidence: number;
}

export const MATCH_CONFIDENCE: Record<MatchMethod, number> = { isin: 1, cusip: 1, lei: 0.98, ticker: 0.9, name: 0.75 };

const SUFFIXES = new Set([
  'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'LTD', 'LIMITED', 'PLC', 'LLC', 'LP', 'SA', 'AG',
  'NV', 'SE', 'THE', 'COM', 'COMMON', 'STOCK', 'SHARES', 'ORD', 'ORDINARY', 'NEW',
]);

/**
 * Issuer name as a comparable key: upper case, SEC's `/DE/` state tags dropped, `&` as AND,
 * punctuation gone, trailing legal-form and share-class words (Inc, Corp, Co, Class A, ...) stripped.
 * "Microsoft Corporation" and "MICROSOFT CORP" both give "MICROSOFT".
 */
export function normalizeIssuerName(name: string): string {
  const tokens = name
    .toUpperCase()
    .replace(/\/[A-Z ]{1,10}\/?\s*$/g, ' ')
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  if (tokens[0] === 'THE') tokens.shift();
  for (;;) {
    const n = tokens.length;
    if (n >= 2 && (tokens[n - 2] === 'CLASS' || tokens[n - 2] === 'CL' || tokens[n - 2] === 'SERIES') && (tokens[n - 1] ?? '').length <= 2) tokens.splice(n - 2, 2);
    else if (n >= 2 && SUFFIXES.has(tokens[n - 1] ?? '')) tokens.pop();
    else break;
  }
  return tokens.join(' ');
}

/** The CUSIP inside a US/CA ISIN (`US` + 9-character CUSIP + check digit), or null. */
export function cusipOfIsin(isin: string | null): string | null {
  return isin && /^(US|CA)[A-Z0-9]{9}\d$/.test(isin) ? isin.slice(2, 11) : null;
}

const validCusip = (c: string | null): c is string => c !== null && /^[A-Z0-9]{9}$/.test(c) && !/^0+$/.test(c);

/**
 * Matches holdings to covered companies. SEC publishes no CUSIP -> issuer map, so `cusips`
 * (9- or 6-character issuer CUSIPs -> CIK) is empty unless a caller has one; then ISIN (through
 * the CUSIP it embeds) and CUSIP match first. LEI (from submissions), ticker, and the normalized
 * issuer name follow. A name shared by several CIKs matches nothing. Pure and in memory.
 */
export class HoldingMatcher {
  private readonly byTicker = new Map<string, string>();
  private readonly firstTicker = new Map<string, string>();
  private readonly tickersOf = new Map<string, Set<string>>();
  private readonly byLei = new Map<string, string>();
  private readonly byName = new Map<string, string | null>();

  constructor(companies: Iterable<MatchableCompany>, private readonly cusips: ReadonlyMap<string, string> = new Map()) {
    for (const c of companies) {
      const ticker = c.ticker.toUpperCase();
      if (!this.byTicker.has(ticker)) this.byTicker.set(ticker, c.cik);
      if (!this.firstTicker.has(c.cik)) this.firstTicker.set(c.cik, ticker);
      const tickers = this.tickersOf.get(c.cik);
      if (tickers) tickers.add(ticker);
      else this.tickersOf.set(c.cik, new Set([ticker]));
      if (c.lei) this.byLei.set(c.lei.toUpperCase(), c.cik);
      const key = normalizeIssuerName(c.name);
      if (!key) continue;
      const seen = this.byName.get(key);
      if (seen === undefined) this.byName.set(key, c.cik);
      else if (seen !== c.cik) this.byName.set(key, null);
    }
  }

  match(h: Pick<NportHolding, 'isin' | 'cusip' | 'lei' | 'ticker' | 'name' | 'invCountry'>): HoldingMatch | null {
    const viaCusip = (cusip: string | null): string | undefined =>
      validCusip(cusip) ? (this.cusips.get(cusip) ?? this.cusips.get(cusip.slice(0, 6))) : undefined;
    const isinCik = viaCusip(cusipOfIsin(h.isin));
    if (isinCik) return this.result(isinCik, 'isin');
    const cusipCik = viaCusip(h.cusip);
    if (cusipCik) return this.result(cusipCik, 'cusip');
    const leiCik = h.lei ? this.byLei.get(h.lei.toUpperCase()) : undefined;
    if (leiCik) return this.result(leiCik, 'lei');
    // A ticker is only a US ticker when nothing says the security is foreign.
    const foreign = (h.isin !== null && !h.isin.startsWith('US')) || (h.invCountry !== null && h.invCountry !== 'US');
    const ticker = h.ticker?.toUpperCase();
    const tickerCik = ticker && !foreign ? this.byTicker.get(ticker) : undefined;
    if (ticker && tickerCik) return { cik: tickerCik, symbol: `${ticker}:US`, method: 'ticker', confidence: MATCH_CONFIDENCE.ticker };
    const nameCik = h.name ? this.byName.get(normalizeIssuerName(h.name)) : undefined;
    if (nameCik) return this.result(nameCik, 'name');
    return null;
  }

  /**
   * The listing (`<TICKER>:US`) a matched holding is a share of: the holding's own ticker when it
   * is one of the company's tickers, else (no ticker given) the company's only ticker; null when
   * the holding's ticker is none of the company's, or the company has several listings (share
   * classes) and the holding does not say which. A name match (the
   * weakest) never names a listing: identifiers read off a holding are only as good as its match.
   */
  listingOf(match: HoldingMatch, h: Pick<NportHolding, 'ticker'>): string | null {
    if (match.method === 'name') return null;
    const tickers = this.tickersOf.get(match.cik);
    if (!tickers) return null;
    // A holding's ticker as funds write it: BRK.B, BRK/B or BRK B for the map's BRK-B.
    const own = h.ticker?.toUpperCase().replace(/[./ ]/g, '-');
    if (own) return tickers.has(own) ? `${own}:US` : null;
    return tickers.size === 1 ? `${[...tickers][0]}:US` : null;
  }

  private result(cik: string, method: MatchMethod): HoldingMatch {
    return { cik, symbol: `${this.firstTicker.get(cik) ?? cik}:US`, method, confidence: MATCH_CONFIDENCE[method] };
  }
}
