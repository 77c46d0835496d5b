import type { EdgarClient } from './edgar.client';
import type { EdgarLogger } from './edgar.logger';
import { EdgarError } from './edgar.errors';
import { EdgarParseError } from './edgar.parse-error';
import { TICKER_MAP_EXCHANGE_PATH, TICKER_MAP_PATH, parseTickerMap, parseTickerMapExchange, type TickerMapEntry } from './ticker-map.parser';

/** SEC's ticker map: the exchange map, else (missing or invalid) the plain one. */
export async function fetchTickerMap(edgar: EdgarClient, logger?: EdgarLogger): Promise<TickerMapEntry[]> {
  const exchange = await edgar.getWww(TICKER_MAP_EXCHANGE_PATH);
  if (exchange.kind === 'ok') {
    try {
      return parseTickerMapExchange(exchange.bytes);
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      logger?.warn({ error: error.message }, 'exchange ticker map invalid: using the plain map');
    }
  }
  const plain = await edgar.getWww(TICKER_MAP_PATH);
  if (plain.kind === 'not_found') throw new EdgarError('EDGAR_HTTP_ERROR', plain.url, 404, `ticker map not found at ${plain.url}`);
  return parseTickerMap(plain.bytes);
}

/** Which companies an ingestor covers: all, none, or listed tickers and CIKs. */
export type CompanySelector = { kind: 'all' } | { kind: 'none' } | { kind: 'list'; tickers: ReadonlySet<string>; ciks: ReadonlySet<string> };

/** A covered-company test by CIK: `all`, or the CIKs of the listed tickers and CIKs. */
export type CikCoverage = { kind: 'all' } | { kind: 'set'; ciks: ReadonlySet<string> };

/** Resolves a selector to CIKs; the ticker map is read only when the list names tickers. */
export async function coverageOf(selector: CompanySelector, tickerMap: () => Promise<readonly TickerMapEntry[]>): Promise<CikCoverage> {
  switch (selector.kind) {
    case 'all':
      return { kind: 'all' };
    case 'none':
      return { kind: 'set', ciks: new Set() };
    case 'list': {
      const ciks = new Set(selector.ciks);
      if (selector.tickers.size > 0) {
        for (const e of await tickerMap()) if (selector.tickers.has(e.ticker.toUpperCase())) ciks.add(e.cik);
      }
      return { kind: 'set', ciks };
    }
  }
}

export const covers = (c: CikCoverage, cik: string): boolean => c.kind === 'all' || c.ciks.has(cik);
