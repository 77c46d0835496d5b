import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EdgarParseError } from './edgar.parse-error';
import { parseTickerMap, parseTickerMapExchange } from './ticker-map.parser';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const exchangeBytes = readFileSync(join(FIXTURES, 'tickers/company_tickers_exchange.json'));
const plainBytes = readFileSync(join(FIXTURES, 'tickers/company_tickers.json'));

describe('parseTickerMapExchange (company_tickers_exchange.json)', () => {
  const rows = parseTickerMapExchange(exchangeBytes);

  it('reads every row of the real file', () => {
    expect(rows).toHaveLength(9441);
    expect(new Set(rows.map((r) => r.ticker)).size).toBe(9441);
  });

  it('pads the CIK and keeps the exchange', () => {
    expect(rows.find((r) => r.ticker === 'MSFT')).toEqual({
      cik: '0000789019',
      ticker: 'MSFT',
      name: 'MICROSOFT CORP',
      exchange: 'Nasdaq',
      quote: '[789019,"MICROSOFT CORP","MSFT","Nasdaq"]',
    });
  });

  it('keeps dashed share-class tickers as SEC writes them', () => {
    expect(rows.find((r) => r.ticker === 'BRK-B')).toMatchObject({ cik: '0001067983', name: 'BERKSHIRE HATHAWAY INC', exchange: 'NYSE' });
  });

  it('turns an empty exchange into null', () => {
    const gshn = rows.find((r) => r.ticker === 'GSHN');
    expect(gshn).toMatchObject({ cik: '0001639327', exchange: null, quote: '[1639327,"Gushen, Inc","GSHN",""]' });
    expect(rows.filter((r) => r.exchange === null)).toHaveLength(861);
  });

  it('quotes every row verbatim from the bytes', () => {
    const text = exchangeBytes.toString('utf8');
    for (const row of rows) {
      expect(row.quote).not.toBeNull();
      expect(text.includes(row.quote!)).toBe(true);
    }
  });

  it('accepts a null exchange and rejects a file of another shape', () => {
    const rowsWithNull = parseTickerMapExchange('{"fields":["cik","name","ticker","exchange"],"data":[[1,"A CORP","A",null]]}');
    expect(rowsWithNull).toEqual([{ cik: '0000000001', name: 'A CORP', ticker: 'A', exchange: null, quote: '[1,"A CORP","A",null]' }]);
    expect(() => parseTickerMapExchange('{"0":{}}')).toThrow(EdgarParseError);
    expect(() => parseTickerMapExchange('<html>')).toThrow(EdgarParseError);
  });
});

describe('parseTickerMap (company_tickers.json)', () => {
  const rows = parseTickerMap(plainBytes);

  it('reads every row of the real file', () => {
    expect(rows).toHaveLength(9610);
  });

  it('maps cik_str/ticker/title with no exchange', () => {
    expect(rows[0]).toEqual({
      cik: '0000789019',
      ticker: 'MSFT',
      name: 'MICROSOFT CORP',
      exchange: null,
      quote: '{"cik_str":789019,"ticker":"MSFT","title":"MICROSOFT CORP"}',
    });
    expect(rows.find((r) => r.ticker === 'BRK-B')).toMatchObject({ cik: '0001067983' });
  });

  it('falls back to the name as written when the row is formatted differently', () => {
    const pretty = '{\n  "0": {\n    "cik_str": 789019,\n    "ticker": "MSFT",\n    "title": "MICROSOFT CORP"\n  }\n}';
    expect(parseTickerMap(pretty)[0]?.quote).toBe('"MICROSOFT CORP"');
  });
});
