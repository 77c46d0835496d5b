import { ConfigError, loadConfig } from '@app/config';
import { form4LiveRefusal, ingestForm4ConfigSchema, parseForm4Args, parseForm4FilingRef } from './ingest-form4.config';

const UA = { EDGAR_USER_AGENT: 'Filings Platform ops@filings.example' };

describe('ingest-form4 config', () => {
  it('defaults: every issuer covered, no submissions read, 20 latest, group ingest-form4', () => {
    const c = loadConfig(ingestForm4ConfigSchema, UA);
    expect(c.FORM4_ISSUERS).toEqual({ kind: 'all' });
    expect(c.FORM4_SUBMISSIONS).toEqual({ kind: 'none' });
    expect(c.FORM4_FILINGS).toEqual([]);
    expect(c.FORM4_LATEST).toBe(20);
    expect(c.FORM4_GROUP_ID).toBe('ingest-form4');
    expect(c.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
  });

  it('reads the submissions of a covered-issuer list by default, or of its own list', () => {
    const c = loadConfig(ingestForm4ConfigSchema, { ...UA, FORM4_ISSUERS: 'msft, 1318605' });
    expect(c.FORM4_SUBMISSIONS).toEqual({ kind: 'list', tickers: new Set(['MSFT']), ciks: new Set(['0001318605']) });
    const own = loadConfig(ingestForm4ConfigSchema, { ...UA, FORM4_ISSUERS: 'MSFT', FORM4_SUBMISSIONS: 'none' });
    expect(own.FORM4_SUBMISSIONS).toEqual({ kind: 'none' });
  });

  it('parses filing references with and without a document', () => {
    const c = loadConfig(ingestForm4ConfigSchema, { ...UA, FORM4_FILINGS: '789019:0001062993-24-016587:xslF345X05/form4.xml, 1883685:0001104659-25-025206' });
    expect(c.FORM4_FILINGS).toEqual([
      { cik: '0000789019', accession: '0001062993-24-016587', document: 'xslF345X05/form4.xml' },
      { cik: '0001883685', accession: '0001104659-25-025206', document: null },
    ]);
    expect(parseForm4FilingRef('0000789019:0001062993-24-016587')).toMatchObject({ cik: '0000789019' });
    expect(parseForm4FilingRef('MSFT:0001062993-24-016587')).toBeNull();
    expect(parseForm4FilingRef('789019:000106299324016587')).toBeNull();
  });

  it('reports every invalid variable at once', () => {
    let error: unknown;
    try {
      loadConfig(ingestForm4ConfigSchema, { EDGAR_USER_AGENT: 'curl', FORM4_FILINGS: 'nope', FORM4_SUBMISSIONS: 'all', FORM4_LATEST: '0', FORM4_FROM: '2024-13' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['EDGAR_USER_AGENT', 'FORM4_FILINGS', 'FORM4_SUBMISSIONS', 'FORM4_LATEST', 'FORM4_FROM']) expect(problems).toContain(name);
  });

  it('rejects a date range that ends before it starts', () => {
    expect(() => loadConfig(ingestForm4ConfigSchema, { ...UA, FORM4_FROM: '2025-01-02', FORM4_TO: '2025-01-01' })).toThrow(/FORM4_FROM/);
  });
});

describe('ingest-form4 arguments', () => {
  it('takes --filing (repeatable), --follow and --once', () => {
    expect(parseForm4Args(['--filing', '789019:0001062993-24-016587:form4.xml', '--filing', '1883685:0001104659-25-025206', '--follow', '--once'])).toEqual({
      filings: [
        { cik: '0000789019', accession: '0001062993-24-016587', document: 'form4.xml' },
        { cik: '0001883685', accession: '0001104659-25-025206', document: null },
      ],
      follow: true,
      once: true,
      live: false,
    });
  });

  it('takes --live: the named filings are live discoveries the poller missed', () => {
    expect(parseForm4Args(['--filing', '789019:0001062993-24-016587', '--live'])).toMatchObject({ filings: [{ accession: '0001062993-24-016587' }], live: true, follow: false });
    expect(parseForm4Args(['--live', '--filing', '789019:0001062993-24-016587'])).toMatchObject({ live: true });
    expect(parseForm4Args(['--filing', '789019:0001062993-24-016587'])).toMatchObject({ live: false });
  });

  it('refuses --live without a named filing, or with submissions discovery (an issuer history is not news)', () => {
    const config = (env: Record<string, string> = {}) => loadConfig(ingestForm4ConfigSchema, { ...UA, ...env });
    expect(form4LiveRefusal(1, config())).toBeNull();
    expect(form4LiveRefusal(2, config({ FORM4_ISSUERS: 'MSFT', FORM4_SUBMISSIONS: 'none' }))).toBeNull();
    expect(form4LiveRefusal(0, config())).toMatch(/^--live announces named filings: give --filing/);
    // FORM4_ISSUERS as a list makes FORM4_SUBMISSIONS default to it: discovery would be announced too.
    expect(form4LiveRefusal(1, config({ FORM4_ISSUERS: 'MSFT,TSLA' }))).toMatch(/FORM4_SUBMISSIONS.*set FORM4_SUBMISSIONS=none/);
    expect(form4LiveRefusal(1, config({ FORM4_SUBMISSIONS: '789019' }))).toMatch(/set FORM4_SUBMISSIONS=none/);
  });

  it('explains malformed arguments', () => {
    expect(parseForm4Args(['--filing'])).toEqual({ error: expect.stringContaining('--filing wants') });
    expect(parseForm4Args(['--once'])).toEqual({ error: '--once only goes with --follow' });
    expect(parseForm4Args(['backfill'])).toEqual({ error: 'unexpected argument "backfill"' });
    expect(parseForm4Args(['--help'])).toEqual({ help: true });
    expect(parseForm4Args(['--follow', '-h'])).toEqual({ help: true });
  });
});
