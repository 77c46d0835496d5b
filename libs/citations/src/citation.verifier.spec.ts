import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseForm4 } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { alterOneCharacter } from './alter-quote';
import { citedPageIndex, CitationVerifier } from './citation.verifier';
import { secPathOf, SourceHostPolicy } from './source-hosts';
import { CachingSourceFetcher, type FetchedSource, type SourceFetcher, type SourceRequest } from './source.fetcher';

const fixture = (file: string): Buffer => readFileSync(join(defaultFixturesDir(), file));
const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

const PROD = { wwwBaseUrl: 'https://www.sec.gov', dataBaseUrl: 'https://data.sec.gov' };
const LOCAL = { wwwBaseUrl: 'http://127.0.0.1:8089', dataBaseUrl: 'http://127.0.0.1:8089' };
const ISSUER = 'https://www.frpholdings.com';
const issuers = { isKnownIssuerOrigin: async (origin: string) => origin === ISSUER };

/** Serves fixture files by URL and counts fetches. */
class FixtureFetcher implements SourceFetcher {
  readonly calls: SourceRequest[] = [];
  constructor(private readonly files: Record<string, Uint8Array | 'missing'>) {}
  async fetch(request: SourceRequest): Promise<FetchedSource> {
    this.calls.push(request);
    await new Promise((r) => setImmediate(r));
    const bytes = this.files[request.url];
    if (!bytes || bytes === 'missing') return { kind: 'unavailable', url: request.url, detail: 'answered 404', fetchedAt: '2026-01-01T00:00:00.000Z' };
    return { kind: 'ok', url: request.url, bytes, contentType: null, fetchedAt: '2026-01-01T00:00:00.000Z' };
  }
}

describe('secPathOf', () => {
  it('reads sec.gov URLs, and URLs under the configured bases, as EDGAR paths', () => {
    expect(secPathOf('https://www.sec.gov/Archives/edgar/data/1/x.xml', PROD)).toEqual({ host: 'www', path: '/Archives/edgar/data/1/x.xml' });
    expect(secPathOf('https://sec.gov/files/company_tickers.json', LOCAL)).toEqual({ host: 'www', path: '/files/company_tickers.json' });
    expect(secPathOf('https://data.sec.gov/submissions/CIK0000789019.json', LOCAL)).toEqual({ host: 'data', path: '/submissions/CIK0000789019.json' });
    expect(secPathOf('http://127.0.0.1:8089/cgi-bin/current?q1=0&q2=0&q3=10-K', LOCAL)).toEqual({ host: 'www', path: '/cgi-bin/current?q1=0&q2=0&q3=10-K' });
    expect(secPathOf('https://edgar.example/sec/files/x.json', { wwwBaseUrl: 'https://edgar.example/sec', dataBaseUrl: PROD.dataBaseUrl })).toEqual({ host: 'www', path: '/files/x.json' });
  });

  it('refuses every other host, port, scheme and credentials', () => {
    for (const url of [
      'https://www.sec.gov.evil.example/x',
      'http://www.sec.gov/x',
      'https://www.sec.gov:8443/x',
      'https://user:pw@www.sec.gov/x',
      'http://127.0.0.1:8090/x',
      'https://edgar.example/other/x',
      'not a url',
    ]) expect(secPathOf(url, url.includes('edgar.example') ? { wwwBaseUrl: 'https://edgar.example/sec', dataBaseUrl: PROD.dataBaseUrl } : LOCAL)).toBeNull();
  });
});

describe('SourceHostPolicy', () => {
  const policy = new SourceHostPolicy(PROD, issuers);

  it('routes EDGAR URLs to sec and known issuer hosts to issuer_page, without the fragment', async () => {
    expect(await policy.route('https://www.sec.gov/files/company_tickers.json')).toEqual({ ok: true, request: { provider: 'sec', url: 'https://www.sec.gov/files/company_tickers.json' } });
    expect(await policy.route(`${ISSUER}/assets/deck.pdf#page=3`, 'issuer_page')).toEqual({ ok: true, request: { provider: 'issuer_page', url: `${ISSUER}/assets/deck.pdf` } });
    expect(await policy.route(`${ISSUER}/contactus.html`)).toMatchObject({ ok: true, request: { provider: 'issuer_page' } });
  });

  it('is not an open proxy: unknown hosts, an sec provenance off EDGAR, other schemes are refused', async () => {
    for (const [url, declared] of [
      ['https://example.com/x', undefined],
      ['https://example.com/x', 'issuer_page'],
      [`${ISSUER}/x`, 'sec'],
      ['http://169.254.169.254/latest/meta-data', undefined],
      ['file:///etc/passwd', undefined],
      ['ftp://www.sec.gov/x', 'sec'],
      [`https://u:p@${ISSUER.slice(8)}/x`, 'issuer_page'],
    ] as const) {
      const r = await policy.route(url, declared);
      expect(r.ok).toBe(false);
    }
  });
});

describe('SourceHostPolicy: EDGAR resources', () => {
  const fetched = (policy: SourceHostPolicy, url: string) => policy.route(url).then((r) => r.ok);

  it('routes the path shapes the ingestors fetch, on either configuration', async () => {
    const paths = [
      '/Archives/edgar/data/1318605/000089924321044060/doc4.xml',
      '/Archives/edgar/data/1883685/0001104659-25-025206.txt',
      '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml',
      '/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx',
      '/files/company_tickers.json',
      '/files/company_tickers_exchange.json',
      '/cgi-bin/current?q1=0&q2=0&q3=10-K',
      '/cgi-bin/current?q1=0&q2=0&q3=SC%2013D%2FA',
    ];
    const prod = new SourceHostPolicy(PROD, issuers);
    for (const p of paths) expect([p, await fetched(prod, `https://www.sec.gov${p}`)]).toEqual([p, true]);
    expect(await fetched(prod, 'https://data.sec.gov/submissions/CIK0000789019.json')).toBe(true);
    expect(await fetched(prod, 'https://data.sec.gov/submissions/CIK0000320193-submissions-001.json')).toBe(true);
    // One fixture server behind both bases: its paths may be either host's.
    const local = new SourceHostPolicy(LOCAL, issuers);
    for (const p of [...paths, '/submissions/CIK0000789019.json']) expect([p, await fetched(local, `${LOCAL.wwwBaseUrl}${p}`)]).toEqual([p, true]);
  });

  it('refuses, unfetched, every other sec.gov resource: bulk archives, search, made-up queries, another host\'s paths', async () => {
    const prod = new SourceHostPolicy(PROD, issuers);
    for (const url of [
      'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip?n=123',
      'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip',
      'https://www.sec.gov/Archives/edgar/full-index/2020/QTR1/master.zip',
      'https://www.sec.gov/Archives/edgar/data/1318605/000089924321044060/doc4.xml?n=1',
      'https://www.sec.gov/Archives/edgar/data/1318605/',
      'https://www.sec.gov/files/company_tickers.json?x',
      'https://www.sec.gov/files/company_facts.zip',
      'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=1',
      'https://www.sec.gov/cgi-bin/current?q1=0&q2=0&q3=10-K&n=1',
      'https://www.sec.gov/submissions/CIK0000789019.json',
      'https://data.sec.gov/Archives/edgar/data/1318605/000089924321044060/doc4.xml',
      'https://data.sec.gov/api/xbrl/companyfacts/CIK0000789019.json',
      'https://data.sec.gov/submissions/CIK0000789019.json?n=2',
    ]) {
      const r = await prod.route(url);
      expect([url, r.ok]).toEqual([url, false]);
      expect(r.ok ? '' : r.detail).toContain('not an EDGAR resource this service cites');
    }
  });
});

describe('citedPageIndex', () => {
  it('reads #page=N as a 0-based index', () => {
    expect(citedPageIndex('https://x.example/a.pdf#page=3')).toBe(2);
    expect(citedPageIndex('https://x.example/a.pdf#zoom=50&page=1')).toBe(0);
    expect(citedPageIndex('https://x.example/a.pdf')).toBeUndefined();
    expect(citedPageIndex('https://x.example/a.pdf#page=0')).toBeUndefined();
    expect(citedPageIndex(null)).toBeUndefined();
  });
});

describe('CitationVerifier', () => {
  const tslaUrl = 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321044060/doc4.xml';
  const tsla = fixture('form4/TSLA-0000899243-21-044060-doc4.xml');
  const rows = parseForm4(tsla).rows;
  const deckUrl = `${ISSUER}/assets/Annual_Meeting_-_2015_FINAL2.pdf`;
  const deck = fixture('decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf');
  const files = { [tslaUrl]: tsla, [deckUrl]: deck };
  const provenance = (quote: string) => ({ source_provider: 'sec' as const, source_url: tslaUrl, quote, content_hash: sha256(tsla) });

  it('verified: the bytes hash to content_hash and hold the quote', async () => {
    const v = await new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher(files)).verify(provenance(rows[0]!.quote));
    expect(v).toEqual({
      verified: true,
      content_hash_matches: true,
      quote_found: true,
      reason: 'verified',
      checked_url: tslaUrl,
      fetched_at: '2026-01-01T00:00:00.000Z',
      detail: expect.stringContaining('xml source (raw)') as string,
      live_content_hash: sha256(tsla),
      quote_style: 'raw',
      page_index: null,
    });
  });

  it('quote_not_found: one character changed', async () => {
    const v = await new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher(files)).verify(provenance(alterOneCharacter(rows[0]!.quote)));
    expect(v).toMatchObject({ verified: false, content_hash_matches: true, quote_found: false, reason: 'quote_not_found' });
  });

  it('content_changed: another hash is never verified, and the quote is not looked for (quote_found null)', async () => {
    const verifier = new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher(files));
    const other = sha256(Buffer.from('an earlier version'));
    expect(await verifier.verify({ ...provenance(rows[0]!.quote), content_hash: other })).toMatchObject({
      verified: false,
      content_hash_matches: false,
      quote_found: null,
      quote_style: null,
      reason: 'content_changed',
      live_content_hash: sha256(tsla),
    });
    expect(await verifier.verify({ ...provenance('not in the filing'), content_hash: other })).toMatchObject({ reason: 'content_changed', quote_found: null });
  });

  it('content_changed is answered before any parsing: bytes that are no PDF at all, under another hash, are not read', async () => {
    const notPdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x20)]);
    const url = `${ISSUER}/assets/broken.pdf`;
    const verifier = new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher({ [url]: notPdf }));
    const changed = await verifier.verify({ source_provider: 'issuer_page', source_url: url, quote: 'anything', content_hash: sha256(tsla) });
    expect(changed).toMatchObject({ reason: 'content_changed', quote_found: null });
    expect(changed.detail).not.toContain('could not be read');
    // The same bytes under their own hash are read, and found unreadable: the parse runs only then.
    const same = await verifier.verify({ source_provider: 'issuer_page', source_url: url, quote: 'anything', content_hash: sha256(notPdf) });
    expect(same).toMatchObject({ reason: 'quote_not_found', content_hash_matches: true });
    expect(same.detail).toContain('could not be read');
  });

  it('source_unavailable and unsupported_source, without fetching what the policy refuses', async () => {
    const fetcher = new FixtureFetcher({ ...files, [`${ISSUER}/gone.html`]: 'missing' });
    const verifier = new CitationVerifier(new SourceHostPolicy(PROD, issuers), fetcher);
    expect(await verifier.verify({ source_url: `${ISSUER}/gone.html`, quote: 'x', content_hash: sha256(tsla) })).toMatchObject({
      verified: false,
      reason: 'source_unavailable',
      detail: 'answered 404',
      fetched_at: '2026-01-01T00:00:00.000Z',
    });
    expect(await verifier.verify({ source_url: 'https://example.com/x', quote: 'x', content_hash: sha256(tsla) })).toMatchObject({
      verified: false,
      reason: 'unsupported_source',
      checked_url: 'https://example.com/x',
      fetched_at: null,
    });
    expect(fetcher.calls.map((c) => c.url)).toEqual([`${ISSUER}/gone.html`]);
  });

  it('a provenance that quotes nothing (a PDF page without text) is checked by its hash alone', async () => {
    const verifier = new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher(files));
    const base = { source_provider: 'issuer_page' as const, source_url: deckUrl, quote: null, citation_url: `${deckUrl}#page=3` };
    expect(await verifier.verify({ ...base, content_hash: sha256(deck) })).toMatchObject({ verified: true, reason: 'verified', quote_found: null, quote_style: null });
    expect(await verifier.verify({ ...base, content_hash: sha256(tsla) })).toMatchObject({ verified: false, reason: 'content_changed', quote_found: null });
  });

  it('a PDF page citation is looked for on that page', async () => {
    const verifier = new CitationVerifier(new SourceHostPolicy(PROD, issuers), new FixtureFetcher(files));
    const base = { source_provider: 'issuer_page' as const, source_url: deckUrl, quote: 'Annual Shareholder Meeting', content_hash: sha256(deck) };
    expect(await verifier.verify({ ...base, citation_url: deckUrl })).toMatchObject({ verified: true, quote_style: 'pdf_text', page_index: 0 });
    expect(await verifier.verify({ ...base, citation_url: `${deckUrl}#page=1` })).toMatchObject({ verified: true, page_index: 0 });
    expect(await verifier.verify({ ...base, citation_url: `${deckUrl}#page=2` })).toMatchObject({ verified: false, reason: 'quote_not_found' });
  });
});

describe('CachingSourceFetcher', () => {
  const a = new Uint8Array(60);
  const b = new Uint8Array(50);
  const c = new Uint8Array(30);
  const req = (url: string): SourceRequest => ({ provider: 'sec', url });

  it('fetches a URL once while cached, sharing concurrent fetches; failures are not kept', async () => {
    const inner = new FixtureFetcher({ a, gone: 'missing' });
    const cache = new CachingSourceFetcher(inner, { ttlMs: 1000, maxBytes: 1000, maxEntries: 10 });
    const results = await Promise.all([cache.fetch(req('a')), cache.fetch(req('a')), cache.fetch(req('a'))]);
    await cache.fetch(req('a'));
    expect(results.every((r) => r.kind === 'ok' && r.bytes === a)).toBe(true);
    await cache.fetch(req('gone'));
    await cache.fetch(req('gone'));
    expect(inner.calls.map((x) => x.url)).toEqual(['a', 'gone', 'gone']);
  });

  it('expires entries after the TTL and evicts the least recently used past the byte or entry bound', async () => {
    let now = 0;
    const inner = new FixtureFetcher({ a, b, c });
    const cache = new CachingSourceFetcher(inner, { ttlMs: 100, maxBytes: 100, maxEntries: 2, now: () => now });
    await cache.fetch(req('a'));
    await cache.fetch(req('b')); // 110 bytes: a goes
    expect(cache.size).toEqual({ entries: 1, bytes: 50 });
    await cache.fetch(req('c'));
    await cache.fetch(req('b')); // b used last, c before it
    expect(cache.size).toEqual({ entries: 2, bytes: 80 });
    await cache.fetch(req('a')); // 140 bytes, 3 entries: c, then b go
    expect(cache.size).toEqual({ entries: 1, bytes: 60 });
    now = 150;
    await cache.fetch(req('a'));
    expect(inner.calls.map((x) => x.url)).toEqual(['a', 'b', 'c', 'a', 'a']);
  });
});
