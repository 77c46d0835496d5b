import { ConfigError, loadConfig } from '@app/config';
import { ingestSecConfigSchema, selects } from './ingest-sec.config';

const UA = { EDGAR_USER_AGENT: 'Filings Platform ops@filings.example' };

describe('ingest-sec config', () => {
  it('defaults to all companies, no submissions, the exchange map', () => {
    const c = loadConfig(ingestSecConfigSchema, UA);
    expect(c.SEC_COVERAGE).toEqual({ kind: 'all' });
    expect(c.SEC_SUBMISSIONS).toEqual({ kind: 'none' });
    expect(c.SEC_TICKER_MAP).toBe('exchange');
    expect(c.EDGAR_MAX_RPS).toBe(10);
    expect(c.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
  });

  it('fetches submissions for a coverage list by default', () => {
    const c = loadConfig(ingestSecConfigSchema, { ...UA, SEC_COVERAGE: 'msft, brk-b,717423' });
    expect(c.SEC_SUBMISSIONS).toBe(c.SEC_COVERAGE);
    expect(selects(c.SEC_COVERAGE, '0000789019', 'MSFT')).toBe(true);
    expect(selects(c.SEC_COVERAGE, '0001067983', 'BRK-B')).toBe(true);
    expect(selects(c.SEC_COVERAGE, '0000717423', 'MUR')).toBe(true);
    expect(selects(c.SEC_COVERAGE, '0000320193', 'AAPL')).toBe(false);
  });

  it('takes an explicit submissions selector', () => {
    const c = loadConfig(ingestSecConfigSchema, { ...UA, SEC_COVERAGE: 'all', SEC_SUBMISSIONS: 'MSFT' });
    expect(selects(c.SEC_SUBMISSIONS, '0000789019', 'MSFT')).toBe(true);
    expect(selects(c.SEC_SUBMISSIONS, '0000320193', 'AAPL')).toBe(false);
  });

  it('reports every invalid variable at once', () => {
    let error: unknown;
    try {
      loadConfig(ingestSecConfigSchema, { EDGAR_USER_AGENT: 'curl', EDGAR_MAX_RPS: '50', SEC_TICKER_MAP: 'xml', SEC_COVERAGE: 'MSFT;AAPL' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['EDGAR_USER_AGENT', 'EDGAR_MAX_RPS', 'SEC_TICKER_MAP', 'SEC_COVERAGE']) expect(problems).toContain(name);
  });
});
