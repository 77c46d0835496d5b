import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TOPICS, contentHash, validateRecord } from '@app/contracts';
import { parseSubmissions, parseTickerMap, parseTickerMapExchange } from '@app/edgar';
import { companyRecordOf, type FetchedSource } from './company.mapper';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const exchangeBytes = readFileSync(join(FIXTURES, 'tickers/company_tickers_exchange.json'));
const msftBytes = readFileSync(join(FIXTURES, 'submissions/CIK0000789019.json'));
const murBytes = readFileSync(join(FIXTURES, 'submissions/CIK0000717423.json'));

const WWW = 'https://www.sec.gov';
const DATA = 'https://data.sec.gov';
const tickerMap: FetchedSource = {
  url: `${WWW}/files/company_tickers_exchange.json`,
  contentHash: contentHash(exchangeBytes),
  fetchedAt: '2025-08-02T10:00:00.000Z',
};
const ctx = { runId: 'run_test', origin: 'live' as const, extractedAt: '2025-08-02T10:00:05.000Z' };
const entries = parseTickerMapExchange(exchangeBytes);
const entry = (ticker: string) => entries.find((e) => e.ticker === ticker)!;

describe('companyRecordOf', () => {
  it('maps MSFT with detail from its real submissions JSON', () => {
    const source: FetchedSource = { url: `${DATA}/submissions/CIK0000789019.json`, contentHash: contentHash(msftBytes), fetchedAt: '2025-08-02T10:00:01.000Z' };
    const record = companyRecordOf(entry('MSFT'), tickerMap, { source, company: parseSubmissions(msftBytes) }, ctx);

    expect(validateRecord(TOPICS.companies, record)).toMatchObject({ ok: true });
    expect(record).toMatchObject({
      schema: 'company@1',
      key: 'MSFT:US',
      observed_at: '2025-08-02T10:00:01.000Z',
      produced_by: 'ingest-sec',
      correlation_id: 'run_test',
      origin: 'live' as const,
      provenance: {
        source_provider: 'sec',
        source_url: 'https://data.sec.gov/submissions/CIK0000789019.json',
        accession: null,
        quote: '"name": "MICROSOFT CORP"',
        content_hash: contentHash(msftBytes),
        extracted_at: ctx.extractedAt,
      },
      data: {
        cik: '0000789019',
        ticker: 'MSFT',
        market: 'US',
        name: 'MICROSOFT CORP',
        listing_exchange: 'Nasdaq',
        reference_source: { source_url: tickerMap.url, content_hash: tickerMap.contentHash },
        detail: {
          sec_name: 'MICROSOFT CORP',
          entity_type: 'operating',
          sic: '7372',
          sic_description: 'Services-Prepackaged Software',
          category: 'Large accelerated filer',
          fiscal_year_end: '0630',
          state_of_incorporation: 'WA',
          country: 'US',
          website: null,
          investor_website: null,
          description: null,
          ein: '911144442',
          lei: null,
          phone: '425-882-8080',
          tickers: ['MSFT'],
          exchanges: ['Nasdaq'],
          former_names: [],
          is_fund: false,
        },
      },
    });
    expect(msftBytes.toString('utf8')).toContain(record.provenance.quote);
    expect(record.provenance.src_id).toMatch(/^src_[0-9a-f]{24}$/);
  });

  it('maps a row without submissions: provenance is the ticker map row', () => {
    const record = companyRecordOf(entry('BRK-B'), tickerMap, null, ctx);
    expect(validateRecord(TOPICS.companies, record)).toMatchObject({ ok: true });
    expect(record).toMatchObject({
      key: 'BRK-B:US',
      observed_at: tickerMap.fetchedAt,
      provenance: { source_url: tickerMap.url, quote: '[1067983,"BERKSHIRE HATHAWAY INC","BRK-B","NYSE"]', content_hash: tickerMap.contentHash },
      data: { cik: '0001067983', name: 'BERKSHIRE HATHAWAY INC', listing_exchange: 'NYSE', detail: null },
    });
    expect(exchangeBytes.toString('utf8')).toContain(record.provenance.quote);
  });

  it('maps MUR (unpadded CIK in its submissions) with its former name', () => {
    const source: FetchedSource = { url: `${DATA}/submissions/CIK0000717423.json`, contentHash: contentHash(murBytes), fetchedAt: '2025-08-02T10:00:02.000Z' };
    const record = companyRecordOf(entry('MUR'), tickerMap, { source, company: parseSubmissions(murBytes) }, ctx);
    expect(validateRecord(TOPICS.companies, record)).toMatchObject({ ok: true });
    expect(record.data.cik).toBe('0000717423');
    expect(record.data.detail?.former_names).toEqual([{ name: 'MURPHY OIL CORP /DE', from: '1994-02-14T00:00:00.000Z', to: '2019-07-12T00:00:00.000Z' }]);
    expect(record.provenance.quote).toBe('"name":"MURPHY OIL CORP"');
  });

  it('takes the exchange from the submissions when the plain ticker map has none', () => {
    const plain = parseTickerMap(readFileSync(join(FIXTURES, 'tickers/company_tickers.json')));
    const msft = plain.find((e) => e.ticker === 'MSFT')!;
    const source: FetchedSource = { url: `${DATA}/submissions/CIK0000789019.json`, contentHash: contentHash(msftBytes), fetchedAt: ctx.extractedAt };
    expect(companyRecordOf(msft, tickerMap, null, ctx).data.listing_exchange).toBeNull();
    expect(companyRecordOf(msft, tickerMap, { source, company: parseSubmissions(msftBytes) }, ctx).data.listing_exchange).toBe('Nasdaq');
  });

  it('is deterministic: the same sources give the same id; other data gives another', () => {
    const a = companyRecordOf(entry('AAPL'), tickerMap, null, ctx);
    const b = companyRecordOf(entry('AAPL'), tickerMap, null, { runId: 'run_other', origin: 'live' as const, extractedAt: '2030-01-01T00:00:00.000Z' });
    expect(b.id).toBe(a.id);
    expect(companyRecordOf(entry('AAPL'), { ...tickerMap, contentHash: contentHash('x') }, null, ctx).id).not.toBe(a.id);
  });

  it('maps every row of the real exchange map to a valid record', () => {
    for (const e of entries) {
      const result = validateRecord(TOPICS.companies, companyRecordOf(e, tickerMap, null, ctx));
      if (!result.ok) throw new Error(`${e.ticker}: ${result.error}`);
    }
  });
});

describe('committed example records (libs/contracts/src/examples)', () => {
  const EXAMPLES = resolve(__dirname, '../../../libs/contracts/src/examples');
  const ctxExample = { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };
  const tickerMapExample: FetchedSource = { ...tickerMap, url: 'https://www.sec.gov/files/company_tickers_exchange.json', fetchedAt: '2025-08-02T12:00:00.000Z' };

  it('are what the mapper makes of the fixture files today', () => {
    const msftSource: FetchedSource = { url: 'https://data.sec.gov/submissions/CIK0000789019.json', contentHash: contentHash(msftBytes), fetchedAt: '2025-08-02T12:00:00.500Z' };
    const msft = companyRecordOf(entry('MSFT'), tickerMapExample, { source: msftSource, company: parseSubmissions(msftBytes) }, ctxExample);
    const brk = companyRecordOf(entry('BRK-B'), tickerMapExample, null, ctxExample);
    expect(JSON.parse(readFileSync(join(EXAMPLES, 'company@1.msft.json'), 'utf8'))).toEqual(msft);
    expect(JSON.parse(readFileSync(join(EXAMPLES, 'company@1.brk-b.json'), 'utf8'))).toEqual(brk);
  });
});
