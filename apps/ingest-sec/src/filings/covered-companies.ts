import { EdgarClient, TICKER_MAP_EXCHANGE_PATH, TICKER_MAP_PATH, parseTickerMap, parseTickerMapExchange, type TickerMapEntry } from '@app/edgar';
import type { CompanySelector } from '../ingest-sec.config';

/** Resolves tickers to CIKs through SEC's ticker map (exchange map, else the plain one). */
export async function fetchTickerMap(edgar: EdgarClient): Promise<TickerMapEntry[]> {
  const exchange = await edgar.getWww(TICKER_MAP_EXCHANGE_PATH);
  if (exchange.kind === 'ok') {
    try {
      return parseTickerMapExchange(exchange.bytes);
    } catch {
      // fall back to the plain map below
    }
  }
  const plain = await edgar.getWww(TICKER_MAP_PATH);
  if (plain.kind === 'not_found') throw new Error(`ticker map not found at ${plain.url}`);
  return parseTickerMap(plain.bytes);
}

/** A covered-company test by CIK: `all`, `none`, or the CIKs of the listed tickers and CIKs. */
export type CikCoverage = { kind: 'all' } | { kind: 'set'; ciks: ReadonlySet<string> };

export async function coverageOf(selector: CompanySelector, edgar: EdgarClient): Promise<CikCoverage> {
  switch (selector.kind) {
    case 'all':
      return { kind: 'all' };
    case 'none':
      return { kind: 'set', ciks: new Set() };
    case 'list': {
      const ciks = new Set(selector.ciks);
      if (selector.tickers.size > 0) {
        for (const e of await fetchTickerMap(edgar)) if (selector.tickers.has(e.ticker.toUpperCase())) ciks.add(e.cik);
      }
      return { kind: 'set', ciks };
    }
  }
}

export const covers = (c: CikCoverage, cik: string): boolean => c.kind === 'all' || c.ciks.has(cik);
