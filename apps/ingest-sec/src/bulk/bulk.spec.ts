import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { parseRecentFilings, parseSubmissions } from '@app/edgar';
import { defaultFixturesDir, splitSubmissions } from '@app/testing';
import { classifyEntry, CompanyNames, DonePrefix } from './bulk-entry';
import { bulkCheckpointSchema } from './bulk.checkpoint';
import { COMPANY_FACTS_ZIP_URL, parseZipArgs, SUBMISSIONS_ZIP_URL } from './bulk.config';
import { bulkCompanyRecords, entityFileUrl, mainEntityRecords, overflowEntityRecords } from './bulk.mapper';

const ctx = { runId: 'run_bulk_test', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };
const sourceOf = (bytes: Buffer, name: string) => ({ url: entityFileUrl('https://data.sec.gov', name), contentHash: contentHash(bytes), fetchedAt: '2025-08-02T12:00:00.000Z' });
const fixture = (name: string) => readFileSync(join(defaultFixturesDir(), 'submissions', name));

describe('bulk entry names', () => {
  it('tells main files, overflow files and anything else apart, by name only', () => {
    expect(classifyEntry('CIK0000789019.json')).toEqual({ kind: 'main', cik: '0000789019' });
    expect(classifyEntry('CIK0000789019-submissions-001.json')).toEqual({ kind: 'overflow', cik: '0000789019' });
    expect(classifyEntry('CIK0000789019-submissions-012.json')).toEqual({ kind: 'overflow', cik: '0000789019' });
    expect(classifyEntry('submissions/CIK0001318605.json')).toEqual({ kind: 'main', cik: '0001318605' });
    for (const other of ['README.txt', 'CIK789019.json', 'CIK0000789019.json.tmp', 'CIK0000789019-submissions.json', '__MACOSX/']) {
      expect(classifyEntry(other)).toEqual({ kind: 'other' });
    }
  });

  it('keeps a main file name while its listed overflow files are not done, and across a restart', () => {
    const names = new CompanyNames(2);
    names.remember({ cik: '0000789019', name: 'MICROSOFT CORP', filingFiles: [{ name: 'CIK0000789019-submissions-001.json', filingCount: 1, filingFrom: null, filingTo: null }] });
    for (const cik of ['0000000001', '0000000002', '0000000003']) names.remember({ cik, name: `N${cik}`, filingFiles: [] });
    // Out of the small recent cache, kept for its overflow file.
    expect(names.nameOf('0000789019')).toBe('MICROSOFT CORP');
    expect(names.nameOf('0000000001')).toBeUndefined();
    const restored = new CompanyNames();
    restored.restore(JSON.parse(JSON.stringify(names.snapshot())) as ReturnType<CompanyNames['snapshot']>);
    expect(restored.nameOf('0000789019')).toBe('MICROSOFT CORP');
    names.overflowDone('0000789019', 'CIK0000789019-submissions-001.json');
    expect(names.pendingCount).toBe(0);
  });

  it('counts entries done as a prefix of the archive order', () => {
    const prefix = new DonePrefix(0);
    prefix.markDone(0, 'a');
    prefix.markDone(2, 'c'); // 1 is an overflow file waiting for its main file (2)
    expect([prefix.count, prefix.lastName, prefix.beyond]).toEqual([1, 'a', 1]);
    prefix.markDone(1, 'b');
    expect([prefix.count, prefix.lastName, prefix.beyond]).toEqual([3, 'c', 0]);
    expect(new DonePrefix(10, 'j').count).toBe(10);
  });
});

describe('bulk mapping', () => {
  it('maps a main file to its filings and one company@1 per listed ticker', () => {
    const bytes = fixture('CIK0000789019.json');
    const records = mainEntityRecords(bytes.toString('utf8'), sourceOf(bytes, 'CIK0000789019.json'), ctx);
    expect(records.company).toMatchObject({ cik: '0000789019', name: 'MICROSOFT CORP' });
    expect(records.filings).toHaveLength(parseRecentFilings(bytes).length - records.skipped);
    expect(records.companies.map((c) => [c.key, c.data.listing_exchange, c.provenance.source_url])).toEqual([['MSFT:US', 'Nasdaq', 'https://data.sec.gov/submissions/CIK0000789019.json']]);
    for (const r of records.companies) expect(validateRecord(TOPICS.companies, r)).toMatchObject({ ok: true });
    expect(bytes.toString('utf8')).toContain(records.companies[0]!.provenance.quote);
  });

  it('an entity without tickers gets no company@1', () => {
    const company = { ...parseSubmissions(fixture('CIK0000789019.json')), tickers: [], exchanges: [] };
    expect(bulkCompanyRecords(company, sourceOf(Buffer.from('x'), 'CIK0000789019.json'), ctx)).toEqual([]);
  });

  it('names the filings of an overflow file after the CIK of its file name: main + overflow = the unsplit file', () => {
    const original = fixture('CIK0001318605.json');
    const { main, overflow } = splitSubmissions(original, 100);
    const fromMain = mainEntityRecords(main.bytes.toString('utf8'), sourceOf(main.bytes, main.name), ctx);
    expect(fromMain.company.filingFiles.map((f) => f.name)).toEqual(['CIK0001318605-submissions-001.json']);
    const fromOverflow = overflowEntityRecords(overflow.bytes.toString('utf8'), { cik: '0001318605', name: fromMain.company.name }, sourceOf(overflow.bytes, overflow.name), ctx);
    expect(fromMain.filings).toHaveLength(100);
    for (const r of fromOverflow.filings) {
      expect(validateRecord(TOPICS.filings, r)).toMatchObject({ ok: true });
      expect(r.data).toMatchObject({ cik: '0001318605', company_name: 'Tesla, Inc.' });
      expect(r.provenance.source_url).toBe('https://data.sec.gov/submissions/CIK0001318605-submissions-001.json');
      expect(overflow.bytes.toString('utf8')).toContain(r.provenance.quote);
    }
    const unsplit = mainEntityRecords(original.toString('utf8'), sourceOf(original, 'CIK0001318605.json'), ctx);
    // Same data, same record ids: a bulk load and a per-company backfill dedupe against each other.
    expect([...fromMain.filings, ...fromOverflow.filings].map((r) => r.id)).toEqual(unsplit.filings.map((r) => r.id));
  });

  it('maps the fixture files to exactly the records it did before its CPU was cut (issue 39): same ids, same bytes', () => {
    // The sha256 of every record's JSON (the Kafka message value), as the mapper of main 7a11264 made them.
    const golden = { records: 6035, sha256: '559500c9bd92cea0ad0a1f8cb9fabe516ab477265f8df77fd98250c07410cc2e' };
    const at = { runId: 'run_golden', origin: 'backfill' as const, extractedAt: '2026-11-29T09:00:00.000Z' };
    const hash = createHash('sha256');
    let records = 0;
    for (const name of ['CIK0000717423.json', 'CIK0000789019.json', 'CIK0001318605.json']) {
      const bytes = fixture(name);
      const source = { url: `https://data.sec.gov/submissions/${name}`, contentHash: contentHash(bytes), fetchedAt: '2026-11-29T08:59:00.000Z' };
      const main = mainEntityRecords(bytes.toString('utf8'), source, at);
      const recent = JSON.stringify((JSON.parse(bytes.toString('utf8')) as { filings: { recent: unknown } }).filings.recent);
      const overflow = overflowEntityRecords(recent, main.company, { ...source, url: source.url.replace('.json', '-submissions-001.json') }, at);
      for (const record of [...main.companies, ...main.filings, ...overflow.filings]) {
        hash.update(`${JSON.stringify(record)}\n`);
        records += 1;
      }
    }
    expect({ records, sha256: hash.digest('hex') }).toEqual(golden);
  });

  it('refuses an overflow file that has no filing columns', () => {
    expect(() => overflowEntityRecords('{"cik":"1"}', { cik: '0000000001', name: 'X' }, sourceOf(Buffer.from('x'), 'x'), ctx)).toThrow(/accessionNumber/);
  });
});

describe('bulk command lines', () => {
  it('parses --submissions (bulk) or --companyfacts (facts-bulk), --checkpoint and --restart; anything else is a usage error', () => {
    expect(parseZipArgs(['--submissions', SUBMISSIONS_ZIP_URL], 'submissions')).toEqual({ source: SUBMISSIONS_ZIP_URL, restart: false });
    expect(parseZipArgs(['--submissions', 'a.zip', '--checkpoint', 'cp.json', '--restart'], 'submissions')).toEqual({ source: 'a.zip', checkpoint: 'cp.json', restart: true });
    expect(parseZipArgs(['--companyfacts', COMPANY_FACTS_ZIP_URL], 'companyfacts')).toEqual({ source: COMPANY_FACTS_ZIP_URL, restart: false });
    expect(parseZipArgs(['--submissions', 'a.zip'], 'companyfacts')).toHaveProperty('error');
    expect(parseZipArgs([], 'submissions')).toHaveProperty('error');
    expect(parseZipArgs(['--submissions', 'a.zip', '--nope'], 'submissions')).toHaveProperty('error');
    expect(parseZipArgs(['--help'], 'companyfacts')).toEqual({ help: true });
  });
});

describe('bulk checkpoints', () => {
  it('reads a submissions checkpoint written before the shared runner (its last entry under the old name)', () => {
    const old = {
      kind: 'bulk-submissions', source: '/data/submissions.zip', entries_total: 5, entries_done: 2, records_published: 10,
      done_names_hash_or_last_entry: 'CIK0000789019.json', started_at: 'x', updated_at: 'x', finished_at: null,
      archive: { size: 1, etag: null, last_modified: null }, filings_published: 9, companies_published: 1, pending_names: {}, orphan_overflow: 0, unreadable_entries: 0,
    };
    expect(bulkCheckpointSchema.parse(old)).toMatchObject({ last_done: 'CIK0000789019.json', entries_done: 2 });
  });
});
