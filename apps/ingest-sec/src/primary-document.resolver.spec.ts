import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseFilingDirectory, parseFilingIndexPage, type EdgarClient, type EdgarFetchResult } from '@app/edgar';
import { isFilingIndexPage, resolvePrimaryDocument } from './primary-document.resolver';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const file = (f: string) => readFileSync(join(FIXTURES, f));

/** DatChat's 8-K of 2024-01-19: its directory listing is served at the real path. */
const DATCHAT = { cik: '0001648960', accession: '0001213900-24-004875' };
const DATCHAT_INDEX_PAGE = 'https://www.sec.gov/Archives/edgar/data/1648960/000121390024004875/0001213900-24-004875-index.htm';

function edgarServing(routes: Record<string, Buffer>): { edgar: EdgarClient; requested: string[] } {
  const requested: string[] = [];
  const getWww = (path: string): Promise<EdgarFetchResult> => {
    requested.push(path);
    const url = `https://www.sec.gov${path}`;
    const bytes = routes[path];
    return Promise.resolve(bytes ? { kind: 'ok', url, status: 200, bytes, fetchedAt: '2026-01-02T12:00:00.000Z' } : { kind: 'not_found', url, status: 404, fetchedAt: '2026-01-02T12:00:00.000Z' });
  };
  return { edgar: { getWww } as unknown as EdgarClient, requested };
}

describe('resolvePrimaryDocument', () => {
  it('takes a named document as it is, without a request', async () => {
    const { edgar, requested } = edgarServing({});
    const named = 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';
    expect(await resolvePrimaryDocument(edgar, { cik: '1318605', accession: '0001628280-25-003063', document: named })).toEqual({
      kind: 'document',
      path: '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm',
    });
    expect(requested).toEqual([]);
  });

  it("resolves an index page to the main document of the filing's index.json (one request)", async () => {
    const { edgar, requested } = edgarServing({ '/Archives/edgar/data/1648960/000121390024004875/index.json': file('feeds/0001213900-24-004875-index.json') });
    expect(await resolvePrimaryDocument(edgar, { ...DATCHAT, document: DATCHAT_INDEX_PAGE })).toEqual({
      kind: 'document',
      path: '/Archives/edgar/data/1648960/000121390024004875/ea191807-8k_datchat.htm',
    });
    expect(requested).toEqual(['/Archives/edgar/data/1648960/000121390024004875/index.json']);
  });

  it('says why when the listing is missing or unreadable', async () => {
    expect(await resolvePrimaryDocument(edgarServing({}).edgar, { ...DATCHAT, document: DATCHAT_INDEX_PAGE })).toMatchObject({ kind: 'unresolved', reason: 'no directory listing (404)' });
    const notJson = edgarServing({ '/Archives/edgar/data/1648960/000121390024004875/index.json': file('feeds/0001562180-17-002633-index.htm') });
    expect(await resolvePrimaryDocument(notJson.edgar, { ...DATCHAT, document: DATCHAT_INDEX_PAGE })).toMatchObject({ kind: 'unresolved' });
  });

  it('knows an index page by its name (-index.htm and -index.html)', () => {
    expect([DATCHAT_INDEX_PAGE, '/Archives/edgar/data/72333/0000072333-23-000015-index.html', 'tsla-20241231.htm', 'index.json'].map(isFilingIndexPage)).toEqual([true, true, false, false]);
  });
});

/*
 * Whether index.json's guess is good enough: the typed index pages name the primary document
 * (sequence 1). The guess over the same filing's files (their names as the page lists them, in
 * EDGAR's case-insensitive listing order, with the index pages the directory also holds) must
 * pick that document.
 */
describe("index.json's guess against the primary document the typed index pages name", () => {
  it.each(['8k/ADBE-0000796343-23-000044-index.html', '8k/JWN-0000072333-23-000015-index.html', '8k/NVDA-0001045810-26-000024-index.html'])('%s', (fixture) => {
    const page = parseFilingIndexPage(file(fixture));
    const names = page.documents.map((d) => d.href.split('/').pop()!);
    const digits = page.accession.replace(/-/g, '');
    const listing = [`${page.accession}-index-headers.html`, `${page.accession}-index.html`, `${page.accession}.txt`, ...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const json = JSON.stringify({ directory: { name: `/Archives/edgar/data/1/${digits}`, item: listing.map((name) => ({ name, type: 'text.gif', size: '' })) } });
    expect(page.primaryDocument).not.toBeNull();
    expect(parseFilingDirectory(json).likelyPrimaryDocument).toBe(page.primaryDocument!.href.split('/').pop());
  });
});
