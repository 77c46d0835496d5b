import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EdgarParseError } from '../edgar.parse-error';
import { parseLatestFilingsFeed } from './latest-filings.parser';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const feed = readFileSync(join(FIXTURES, 'feeds', 'getcurrent-atom-2026-01-12-count100-start0.xml'));

describe('latest filings Atom feed', () => {
  const parsed = parseLatestFilingsFeed(feed);

  it('reads all 100 entries of the recorded feed, 73 filings, newest first', () => {
    expect(parsed.updated).toBe('2026-01-12T16:28:50.000Z');
    expect(parsed.entries).toHaveLength(100);
    expect(new Set(parsed.entries.map((e) => e.accession)).size).toBe(73);
    const times = parsed.entries.map((e) => Date.parse(e.acceptedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('reads the first entry whole, its acceptance time from <updated> in UTC', () => {
    const first = parsed.entries[0]!;
    expect(first).toEqual({
      accession: '0002074440-26-000002',
      form: '13F-HR',
      cik: '0002074440',
      companyName: 'Ryan Investment Management, Inc.',
      role: 'Filer',
      acceptedAt: '2026-01-12T16:27:39.000Z',
      filedDate: '2026-01-12',
      quote: expect.stringMatching(/^<entry>\n<title>13F-HR - Ryan Investment Management, Inc\. \(0002074440\) \(Filer\)<\/title>[\s\S]*<\/entry>$/),
    });
    expect(feed.toString('latin1')).toContain(first.quote);
  });

  it('lists a Form 4 once per role, the issuer and the reporting owner, with the same accession', () => {
    const form4 = parsed.entries.filter((e) => e.accession === '0000080661-26-000032');
    expect(form4.map((e) => [e.role, e.cik, e.companyName])).toEqual([
      ['Reporting', '0001071287', 'DAVIS CHARLES A'],
      ['Issuer', '0000080661', 'PROGRESSIVE CORP/OH/'],
    ]);
    expect(new Set(form4.map((e) => e.acceptedAt))).toEqual(new Set(['2026-01-12T16:26:36.000Z']));
  });

  it('counts the roles as the feed prints them', () => {
    const roles = new Map<string, number>();
    for (const e of parsed.entries) roles.set(e.role ?? '', (roles.get(e.role ?? '') ?? 0) + 1);
    expect(Object.fromEntries(roles)).toEqual({ Filer: 48, Issuer: 22, Reporting: 22, Subject: 5, 'Filed by': 3 });
  });

  it('refuses what is not the feed; skips an entry it cannot read, with the reason, and keeps the others', () => {
    expect(() => parseLatestFilingsFeed('<html><body>Too many requests</body></html>')).toThrow(EdgarParseError);
    expect(parsed.skipped).toEqual([]);
    const broken = parseLatestFilingsFeed(feed.toString('latin1').replace('<updated>2026-01-12T11:27:39-05:00</updated>', '<updated>soon</updated>'));
    expect(broken.skipped).toEqual(['entry 0002074440-26-000002: <updated> is not a time: "soon"']);
    expect(broken.entries).toHaveLength(99);
  });

  it('reads an empty feed (a quiet moment) as no entries', () => {
    const text = feed.toString('latin1');
    const empty = text.slice(0, text.indexOf('<entry>')) + '</feed>\n';
    expect(parseLatestFilingsFeed(empty).entries).toEqual([]);
  });
});
