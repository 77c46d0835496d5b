import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { parseCurrentEvents, parseDailyIndex, parseLatestFilingsFeed, parseRecentFilings, parseSubmissions } from '@app/edgar';
import { filingRecordFromFeed, filingRecordFromLatestFeed, filingRecordFromSubmissions } from './filing.mapper';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const ctx = { runId: 'run_test', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };
const sourceOf = (bytes: Buffer, url: string) => ({ url, contentHash: contentHash(bytes), fetchedAt: '2025-08-02T12:00:00.500Z' });

describe('filing mapper', () => {
  it('maps every MSFT submissions filing to a valid filing@1 whose quote is in the bytes; matches the committed example', () => {
    const bytes = readFileSync(join(FIXTURES, 'submissions', 'CIK0000789019.json'));
    const company = parseSubmissions(bytes);
    const source = sourceOf(bytes, 'https://data.sec.gov/submissions/CIK0000789019.json');
    const records = parseRecentFilings(bytes).map((f) => filingRecordFromSubmissions(company, f, source, { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: ctx.extractedAt }));
    expect(records.every((r) => r !== null)).toBe(true);
    const text = bytes.toString('utf8');
    for (const r of records) {
      expect(validateRecord(TOPICS.filings, r)).toMatchObject({ ok: true });
      expect(text.includes(r!.provenance.quote!)).toBe(true);
    }
    const example: unknown = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.msft-10-k.json'), 'utf8'));
    expect(records[0]).toEqual(example);
    const amendments = records.filter((r) => r!.data.is_amendment);
    expect(amendments.length).toBeGreaterThan(0);
    expect(amendments.every((r) => r!.data.form.endsWith('/A') && r!.data.amends_accession === null)).toBe(true);
  });

  it('maps daily index and current events rows with the row as the quote', () => {
    const idx = readFileSync(join(FIXTURES, 'feeds', 'form.20200318.idx'));
    const entry = parseDailyIndex(idx).entries.find((e) => e.cik === '0000789019')!;
    const r = filingRecordFromFeed('daily_index', entry, sourceOf(idx, 'https://www.sec.gov/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx'), ctx);
    expect(validateRecord(TOPICS.filings, r)).toMatchObject({ ok: true });
    expect(r.data).toMatchObject({
      accession: '0001626431-20-000031', cik: '0000789019', form: '4', filed_date: '2020-03-18', source: 'daily_index',
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/789019/000162643120000031/0001626431-20-000031-index.htm',
    });
    expect(idx.toString('latin1')).toContain(r.provenance.quote);

    const html = readFileSync(join(FIXTURES, 'feeds', 'current-1eb469.html'));
    const amend = parseCurrentEvents(html).entries.find((e) => e.form === '10-K/A')!;
    const c = filingRecordFromFeed('current_events', amend, sourceOf(html, 'https://www.sec.gov/cgi-bin/current?q1=0&q2=0&q3=10-K'), ctx);
    expect(validateRecord(TOPICS.filings, c)).toMatchObject({ ok: true });
    expect(c.data).toMatchObject({ accession: '0001493152-21-008957', is_amendment: true, amends_accession: null, cik: '0001656501' });
    expect(html.toString('utf8')).toContain(c.provenance.quote);
  });

  it('maps a latest-filings feed entry with its acceptance time, the entry as the quote', () => {
    const atom = readFileSync(join(FIXTURES, 'feeds', 'getcurrent-atom-2026-01-12-count100-start0.xml'));
    const issuer = parseLatestFilingsFeed(atom).entries.find((e) => e.accession === '0000080661-26-000032' && e.role === 'Issuer')!;
    const r = filingRecordFromLatestFeed(issuer, sourceOf(atom, 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&count=100&start=0&type=&owner=include&output=atom'), ctx);
    expect(validateRecord(TOPICS.filings, r)).toMatchObject({ ok: true });
    expect(r.data).toMatchObject({
      accession: '0000080661-26-000032', cik: '0000080661', company_name: 'PROGRESSIVE CORP/OH/', form: '4', filed_date: '2026-01-12',
      accepted_at: '2026-01-12T16:26:36.000Z', source: 'latest_filings', items: [],
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/80661/000008066126000032/0000080661-26-000032-index.htm',
    });
    expect(atom.toString('latin1')).toContain(r.provenance.quote);
    // The committed example is this record, fetched from sec.gov a second after the feed was generated.
    const atSec = { url: 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&count=100&start=0&type=&owner=include&output=atom', contentHash: contentHash(atom), fetchedAt: '2026-01-12T16:28:51.000Z' };
    const example: unknown = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.pgr-form-4-latest-filings.json'), 'utf8'));
    expect(filingRecordFromLatestFeed(issuer, atSec, { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: '2026-01-12T16:28:51.200Z' })).toEqual(example);
  });
});
