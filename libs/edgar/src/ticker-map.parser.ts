import { EdgarParseError } from './edgar.parse-error';
import { isRecord, parseJsonBytes, textOrNull } from './json-bytes';

/** One row of SEC's ticker map: a ticker of an issuer. */
export interface TickerMapEntry {
  /** 10-digit zero-padded CIK. */
  cik: string;
  ticker: string;
  /** Issuer name as SEC spells it in the map. */
  name: string;
  /** Exchange (Nasdaq, NYSE, OTC, Cboe US, ...); null when SEC gives none or the plain map is used. */
  exchange: string | null;
  /**
   * The row's text exactly as it stands in the file (e.g. `[789019,"MICROSOFT CORP","MSFT","Nasdaq"]`),
   * or, when the row cannot be found verbatim, the JSON string of the name as it stands; null when
   * neither is found. Always a substring of the bytes: usable as a provenance quote.
   */
  quote: string | null;
}

export const TICKER_MAP_EXCHANGE_PATH = '/files/company_tickers_exchange.json';
export const TICKER_MAP_PATH = '/files/company_tickers.json';

/** Parses company_tickers_exchange.json: `{"fields":["cik","name","ticker","exchange"],"data":[[...],...]}`. */
export function parseTickerMapExchange(bytes: Uint8Array | string): TickerMapEntry[] {
  const source = 'company_tickers_exchange.json';
  const text = toText(bytes);
  const json = parseJsonBytes(text, source);
  if (!isRecord(json) || !Array.isArray(json.fields) || !Array.isArray(json.data)) {
    throw new EdgarParseError(source, 'expected {fields, data}');
  }
  const fields = json.fields as unknown[];
  const col = (name: string) => {
    const i = fields.indexOf(name);
    if (i < 0) throw new EdgarParseError(source, `fields has no "${name}"`);
    return i;
  };
  const [iCik, iName, iTicker, iExchange] = [col('cik'), col('name'), col('ticker'), col('exchange')];
  const quotes = new QuoteFinder(text);
  const out: TickerMapEntry[] = [];
  for (const [n, row] of (json.data as unknown[]).entries()) {
    if (!Array.isArray(row)) throw new EdgarParseError(source, `data[${n}] is not an array`);
    const entry = entryOf(row[iCik], row[iTicker], row[iName], row[iExchange], source, `data[${n}]`);
    entry.quote = quotes.find(JSON.stringify(row), entry.name);
    out.push(entry);
  }
  return out;
}

/** Parses company_tickers.json: `{"0":{"cik_str":789019,"ticker":"MSFT","title":"MICROSOFT CORP"},...}`. */
export function parseTickerMap(bytes: Uint8Array | string): TickerMapEntry[] {
  const source = 'company_tickers.json';
  const text = toText(bytes);
  const json = parseJsonBytes(text, source);
  if (!isRecord(json)) throw new EdgarParseError(source, 'expected an object of rows');
  const quotes = new QuoteFinder(text);
  const out: TickerMapEntry[] = [];
  for (const [k, row] of Object.entries(json)) {
    if (!isRecord(row)) throw new EdgarParseError(source, `row "${k}" is not an object`);
    const entry = entryOf(row.cik_str, row.ticker, row.title, null, source, `row "${k}"`);
    entry.quote = quotes.find(JSON.stringify(row), entry.name);
    out.push(entry);
  }
  return out;
}

function entryOf(cik: unknown, ticker: unknown, name: unknown, exchange: unknown, source: string, where: string): TickerMapEntry {
  const cikText = textOrNull(cik);
  const tickerText = textOrNull(ticker);
  const nameText = textOrNull(name);
  if (!cikText || !/^\d{1,10}$/.test(cikText)) throw new EdgarParseError(source, `${where}: bad cik ${JSON.stringify(cik)}`);
  if (!tickerText) throw new EdgarParseError(source, `${where}: missing ticker`);
  if (!nameText) throw new EdgarParseError(source, `${where}: missing name`);
  return {
    cik: cikText.padStart(10, '0'),
    ticker: tickerText,
    name: nameText,
    exchange: textOrNull(exchange),
    quote: null,
  };
}

function toText(bytes: Uint8Array | string): string {
  return typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
}

/**
 * Finds a row's text in the file. Rows are searched in file order from where the last one was
 * found, so a whole map costs one pass; a row re-serialized differently (pretty-printed files,
 * `\u0026` escapes) falls back to the name's JSON string anywhere in the file.
 */
class QuoteFinder {
  private cursor = 0;
  constructor(private readonly text: string) {}

  find(rowJson: string, name: string): string | null {
    const at = this.text.indexOf(rowJson, this.cursor);
    if (at >= 0) {
      this.cursor = at + rowJson.length;
      return rowJson;
    }
    const nameJson = JSON.stringify(name);
    const nameAt = this.text.indexOf(nameJson, this.cursor);
    if (nameAt >= 0) {
      this.cursor = nameAt + nameJson.length;
      return nameJson;
    }
    return this.text.includes(nameJson) ? nameJson : null;
  }
}
