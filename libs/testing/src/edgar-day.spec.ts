import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentEventsPath, dailyIndexPath, parseCurrentEvents, parseDailyIndex, parseFilingDirectory } from '@app/edgar';
import { load } from 'cheerio';
import { createEdgarDay, dayManifest, firstPolledVisibility, type DayAnswer, type DayManifest } from './edgar-day';
import { defaultFixturesDir, FIXTURE_ROUTES } from './fixture-server';

const dir = defaultFixturesDir();
const START = Date.parse('2026-03-02T14:00:00Z');
const day = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, durationMs: 60_000, background: 40 });
const END = day.endAt;

const get = (path: string, now: number): DayAnswer | null => {
  const url = new URL(path, 'http://x');
  return day.answer(url.pathname, url.searchParams, now);
};
const bodyOf = (a: DayAnswer | null): Buffer => {
  if (!a || a.status !== 200) throw new Error(`not served: ${JSON.stringify(a)}`);
  return 'body' in a ? a.body : readFileSync(join(dir, a.file));
};

describe('simulated EDGAR day', () => {
  const fixtures = day.filings.filter((f) => !f.background);

  it('holds every routed filing document of the fixtures, by form', () => {
    const forms = fixtures.map((f) => f.form).sort();
    expect(forms.filter((f) => f === '4')).toHaveLength(9);
    expect(forms.filter((f) => f === '10-Q')).toHaveLength(3);
    expect(forms.filter((f) => f === '10-K')).toHaveLength(1);
    expect(forms.filter((f) => f === 'NPORT-P')).toHaveLength(2);
    expect(forms.filter((f) => f === '13F-HR')).toHaveLength(3);
    expect(day.filings.filter((f) => f.background)).toHaveLength(40);
  });

  it('lists each filing in the current-events page of its form, from its time on, as the parser reads it', () => {
    const tenQs = fixtures.filter((f) => f.form === '10-Q');
    const mid = tenQs[1]!.acceptedAt;
    const page = parseCurrentEvents(bodyOf(get(currentEventsPath('10-Q'), mid)));
    expect(page.date).toBe('2026-03-02');
    const appeared = day.filings.filter((f) => f.form === '10-Q' && f.acceptedAt <= mid).map((f) => f.accession).sort();
    expect(page.entries.map((e) => e.accession).sort()).toEqual(appeared);
    expect(page.entries.every((e) => e.form === '10-Q' && e.dateFiled === '2026-03-02')).toBe(true);
    const all = parseCurrentEvents(bodyOf(get(currentEventsPath('10-Q'), END)));
    expect(all.entries.map((e) => e.accession)).toEqual(expect.arrayContaining(tenQs.map((f) => f.accession)));
  });

  it("lists a Form 4 under its issuer's CIK (the form's link is all digits too)", () => {
    const page = parseCurrentEvents(bodyOf(get(currentEventsPath('4'), END)));
    const msft = page.entries.find((e) => e.accession === '0001062993-24-016587');
    expect(msft).toMatchObject({ form: '4', cik: '0000789019' });
    // The listing of a form holds its amendments too.
    expect(page.entries).toHaveLength(day.filings.filter((f) => f.form === '4' || f.form === '4/A').length);
  });

  it('serves the day form index with every appeared filing, 404 before the first', () => {
    expect(get(dailyIndexPath('2026-03-02'), START)).toEqual({ status: 404 });
    const index = parseDailyIndex(bodyOf(get(dailyIndexPath('2026-03-02'), END)));
    expect(index.layout).toBe('form');
    expect(index.entries.map((e) => e.accession).sort()).toEqual(day.filings.map((f) => f.accession).sort());
    const tsla = index.entries.find((e) => e.accession === '0001628280-25-003063')!;
    expect(tsla).toMatchObject({ form: '10-K', cik: '0001318605', dateFiled: '2026-03-02' });
  });

  it('serves index.json and the documents of a filing from its time on, 404 before', () => {
    const nvda = fixtures.find((f) => f.accession === '0001045810-25-000209')!;
    const path = '/Archives/edgar/data/1045810/000104581025000209';
    expect(get(`${path}/index.json`, nvda.acceptedAt - 1)).toEqual({ status: 404 });
    expect(get(`${path}/nvda-20250727.htm`, nvda.acceptedAt - 1)).toEqual({ status: 404 });
    const listing = parseFilingDirectory(bodyOf(get(`${path}/index.json`, nvda.acceptedAt)));
    expect(listing).toMatchObject({ accession: '0001045810-25-000209', likelyPrimaryDocument: 'nvda-20250727.htm' });
    expect(bodyOf(get(`${path}/nvda-20250727.htm`, nvda.acceptedAt)).equals(readFileSync(join(dir, 'xbrl/NVDA-nvda-10-q-2025-08-27.html')))).toBe(true);
    // A complete submission is listed in its directory and served at both of EDGAR's paths, by the day.
    const dkng = fixtures.find((f) => f.accession === '0001104659-25-025206')!;
    expect(parseFilingDirectory(bodyOf(get('/Archives/edgar/data/1883685/000110465925025206/index.json', dkng.acceptedAt))).items.map((i) => i.name)).toEqual(['0001104659-25-025206.txt']);
    expect(get('/Archives/edgar/data/1883685/0001104659-25-025206.txt', dkng.acceptedAt - 1)).toEqual({ status: 404 });
    expect(get('/Archives/edgar/data/1883685/0001104659-25-025206.txt', dkng.acceptedAt)).toEqual({ status: 200, file: 'form4/DKNG-0001104659-25-025206.txt' });
  });

  it('leaves paths that are not the day to the fixed routes', () => {
    expect(get('/files/company_tickers.json', END)).toBeNull();
    expect(get('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx', END)).toBeNull();
  });
});

/** The entries of an Atom feed, read with a real XML parser. */
const feedEntries = (xml: Buffer) => {
  const $ = load(xml.toString('latin1'), { xml: true });
  return {
    title: $('feed > title').text(),
    updated: $('feed > updated').text(),
    entries: $('entry')
      .toArray()
      .map((e) => ({
        title: $(e).find('title').text(),
        href: $(e).find('link').attr('href'),
        updated: $(e).find('updated').text(),
        form: $(e).find('category').attr('term'),
        id: $(e).find('id').text(),
        summary: $(e).find('summary').text(),
      })),
  };
};

/** `<updated>` as EDGAR writes it, computed apart from the code under test: UTC shifted by a known offset. */
const atOffset = (at: number, offsetHours: number) => `${new Date(at + offsetHours * 3_600_000).toISOString().slice(0, 19)}${offsetHours < 0 ? '-' : '+'}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;

describe('complete submission delay', () => {
  it('serves the complete submission .txt completeSubmissionMs after acceptance, the directory at once', () => {
    const day = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, durationMs: 60_000, delays: { completeSubmissionMs: 40_000 } });
    const eightK = day.filings.find((f) => f.documents.some((d) => d.name === `${f.accession}.txt`))!;
    const t = eightK.acceptedAt;
    const txt = `/Archives/edgar/data/${eightK.cik}/${eightK.accession}.txt`;
    const listing = `/Archives/edgar/data/${eightK.cik}/${eightK.accession.replace(/-/g, '')}/index.json`;
    const status = (path: string, now: number) => day.answer(path, new URLSearchParams(), now)?.status;
    expect([status(txt, t + 39_999), status(txt, t + 40_000)]).toEqual([404, 200]);
    expect(status(listing, t)).toBe(200);
    expect(eightK.visibleAt.completeSubmission).toBe(t + 40_000);
  });
});

describe('visibility per source', () => {
  const delays = { indexMs: 5_000, feedMs: 1_000, listingMs: 3_000, dailyIndex: 'night' as const };
  const late = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, durationMs: 60_000, delays });
  const ask = (path: string, now: number) => {
    const url = new URL(path, 'http://x');
    return late.answer(url.pathname, url.searchParams, now);
  };
  const nvda = late.filings.find((f) => f.accession === '0001045810-25-000209')!;
  const t = nvda.acceptedAt;
  const onFeed = (now: number) => feedEntries(bodyOf(ask('/cgi-bin/browse-edgar?action=getcurrent&count=100', now))).entries.some((e) => e.id.endsWith(nvda.accession));
  const onListing = (now: number) => parseCurrentEvents(bodyOf(ask(currentEventsPath('10-Q'), now))).entries.some((e) => e.accession === nvda.accession);

  it('stamps each filing with its acceptance and the time each source shows it', () => {
    // The form index at night: once the day is over and its last filing is out everywhere (+5 s here).
    expect(nvda.visibleAt).toEqual({ index: t + 5_000, completeSubmission: t + 5_000, feed: t + 1_000, listing: t + 3_000, dailyIndex: late.endAt + 5_000 });
    expect(firstPolledVisibility(nvda)).toBe(t + 1_000);
  });

  it('lists it on the feed from acceptance + feedMs, on the current-events listing from + listingMs', () => {
    expect([onFeed(t + 999), onFeed(t + 1_000)]).toEqual([false, true]);
    expect([onListing(t + 2_999), onListing(t + 3_000)]).toEqual([false, true]);
  });

  it('serves its directory (index.json, -index.htm, documents) from acceptance + indexMs', () => {
    const path = '/Archives/edgar/data/1045810/000104581025000209';
    for (const name of ['index.json', '0001045810-25-000209-index.htm', 'nvda-20250727.htm']) {
      expect(ask(`${path}/${name}`, t + 4_999)).toEqual({ status: 404 });
      expect(ask(`${path}/${name}`, t + 5_000)?.status).toBe(200);
    }
  });

  it("publishes the day's form index only when the day is over ('night')", () => {
    const night = late.endAt + 5_000;
    expect(ask(dailyIndexPath('2026-03-02'), night - 1)).toEqual({ status: 404 });
    const index = parseDailyIndex(bodyOf(ask(dailyIndexPath('2026-03-02'), night)));
    expect(index.entries.map((e) => e.accession).sort()).toEqual(late.filings.map((f) => f.accession).sort());
  });

  it('keeps every source at acceptance without delays (the default day)', () => {
    for (const f of day.filings) expect(f.visibleAt).toEqual({ index: f.acceptedAt, completeSubmission: f.acceptedAt, feed: f.acceptedAt, listing: f.acceptedAt, dailyIndex: f.acceptedAt });
  });
});

describe('latest-filings Atom feed of the day', () => {
  const feedAt = (query: string, now: number) => feedEntries(bodyOf(get(`/cgi-bin/browse-edgar?action=getcurrent&${query}`, now)));
  const mid = day.filings[Math.floor(day.filings.length / 2)]!.acceptedAt;

  it('lists the filings accepted by now, newest first, a Form 4 under its reporting owner and its issuer', () => {
    const feed = feedAt('count=100', mid);
    const accepted = day.filings.filter((f) => f.acceptedAt <= mid);
    // 2026-03-02 is in EST: UTC-5.
    expect(feed.updated).toBe(atOffset(mid, -5));
    expect(feed.title).toMatch(/^Latest Filings - Mon, 02 Mar 2026 \d\d:\d\d:\d\d EST$/);
    const ids = [...new Set(feed.entries.map((e) => e.id.replace('urn:tag:sec.gov,2008:accession-number=', '')))];
    expect(ids.sort()).toEqual(accepted.map((f) => f.accession).sort());
    const times = feed.entries.map((e) => Date.parse(e.updated));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const e of feed.entries) {
      const f = accepted.find((x) => e.id.endsWith(x.accession))!;
      expect(e.updated).toBe(atOffset(Math.floor(f.acceptedAt / 1000) * 1000, -5));
      expect(e.form).toBe(f.form);
      expect(e.summary).toContain(`AccNo:</b> ${f.accession}`);
    }
    const msft = feed.entries.filter((e) => e.id.endsWith('0001062993-24-016587'));
    if (msft.length > 0) {
      expect(msft.map((e) => e.title)).toEqual(['4 - Hoffman Reid (0001519339) (Reporting)', '4 - MICROSOFT CORP (0000789019) (Issuer)']);
      expect(msft[0]!.href).toBe('https://www.sec.gov/Archives/edgar/data/1519339/000106299324016587/0001062993-24-016587-index.htm');
    }
    const tsla10k = feedAt('count=100&type=10-K', day.endAt).entries.filter((e) => e.id.endsWith('0001628280-25-003063'));
    expect(tsla10k.map((e) => e.title)).toEqual(['10-K - Tesla, Inc. (0001318605) (Filer)']);
  });

  it('lists MSFT once per role at the end of the day', () => {
    const titles = feedAt('count=100&type=4', END).entries.filter((e) => e.id.endsWith('0001062993-24-016587')).map((e) => e.title);
    expect(titles).toEqual(['4 - Hoffman Reid (0001519339) (Reporting)', '4 - MICROSOFT CORP (0000789019) (Issuer)']);
  });

  it('pages with count (default 40, at most 100) and start, filters by type prefix and owner', () => {
    // A day with more entries than one page holds.
    const big = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, durationMs: 60_000, background: 200 });
    const bigFeed = (query: string) => feedEntries(bodyOf(big.answer('/cgi-bin/browse-edgar', new URLSearchParams(`action=getcurrent&${query}`), big.endAt))).entries;
    const first100 = bigFeed('count=100');
    expect(first100).toHaveLength(100);
    expect(bigFeed('')).toEqual(first100.slice(0, 40));
    expect(bigFeed('count=500')).toEqual(first100);
    expect(bigFeed('count=10&start=5')).toEqual(first100.slice(5, 15));
    expect(bigFeed('count=100&start=100')[0]).not.toEqual(first100[0]);
    const fours = feedAt('count=100&type=4', END).entries;
    const formFours = day.filings.filter((f) => f.form.startsWith('4'));
    const owners = formFours.filter((f) => f.reportingOwner !== null).length;
    expect(fours).toHaveLength(formFours.length + owners);
    expect(fours.every((e) => e.form!.startsWith('4'))).toBe(true);
    // Like EDGAR's, the type is a prefix: `4` holds 424B2 and 497K too.
    expect(fours.some((e) => !/^4 /.test(e.title))).toBe(true);
    const ownership = (e: { title: string }) => /^[345](\/A)? - /.test(e.title);
    const all = feedAt('count=100', END).entries;
    expect(feedAt('count=100&owner=exclude', END).entries).toEqual(all.filter((e) => !ownership(e)));
    expect(feedAt('count=100&owner=only', END).entries).toEqual(all.filter(ownership));
    expect(all.filter(ownership).length).toBeGreaterThan(0);
  });

  it('leaves browse-edgar queries other than getcurrent to the fixed route', () => {
    expect(get('/cgi-bin/browse-edgar?action=getcompany&CIK=789019', END)).toBeNull();
  });
});

describe('filing index page', () => {
  const acceptedOf = (html: string) => {
    const $ = load(html);
    const value = (head: string) => $('.infoHead').filter((_, el) => $(el).text() === head).next('.info').text();
    return { filingDate: value('Filing Date'), accepted: value('Accepted'), documents: value('Documents'), title: $('title').text(), parties: $('.companyName').toArray().map((el) => $(el).text().split('\n')[0]!.trim()) };
  };

  it('shows "Accepted" in New York wall time: EST in March, EDT in July', () => {
    const march = day.filings.find((f) => f.accession === '0001062993-24-016587')!;
    const page = acceptedOf(bodyOf(get('/Archives/edgar/data/789019/000106299324016587/0001062993-24-016587-index.htm', END)).toString('utf8'));
    expect(page).toMatchObject({ filingDate: '2026-03-02', title: 'EDGAR Filing Documents for 0001062993-24-016587', documents: '1', parties: ['MICROSOFT CORP (Issuer)', 'Hoffman Reid (Reporting)'] });
    expect(page.accepted).toBe(atOffset(march.acceptedAt, -5).slice(0, 19).replace('T', ' '));

    const july = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-07-01', startAt: Date.parse('2026-07-01T20:00:00Z'), durationMs: 60_000 });
    const tsla = july.filings.find((f) => f.accession === '0001628280-25-003063')!;
    const answer = july.answer('/Archives/edgar/data/1318605/000162828025003063/0001628280-25-003063-index.html', new URLSearchParams(), july.endAt);
    const summer = acceptedOf(bodyOf(answer).toString('utf8'));
    expect(summer).toMatchObject({ filingDate: '2026-07-01', parties: ['Tesla, Inc. (Filer)'] });
    // 20:00 UTC is 16:00 EDT (UTC-4).
    expect(summer.accepted).toBe(atOffset(tsla.acceptedAt, -4).slice(0, 19).replace('T', ' '));
    expect(summer.accepted.startsWith('2026-07-01 16:00:')).toBe(true);
  });
});

describe('peak-hour day', () => {
  const peak = { kind: 'peak' as const, burstCount: 60, burstMs: 10_000, tailPerMinute: 20, tailMs: 120_000 };
  const busy = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, schedule: peak, background: 10 });
  const filed = busy.filings.filter((f) => !f.background);

  it('accepts the burst in its first burstMs, then tailPerMinute a minute until burstMs + tailMs', () => {
    expect(busy.endAt).toBe(START + 130_000);
    expect(filed.filter((f) => f.acceptedAt < START + 10_000)).toHaveLength(60);
    for (let minute = 0; minute < 2; minute += 1) {
      const from = START + 10_000 + minute * 60_000;
      expect(filed.filter((f) => f.acceptedAt >= from && f.acceptedAt < from + 60_000)).toHaveLength(20);
    }
    expect(filed.every((f) => f.acceptedAt < busy.endAt)).toBe(true);
    expect(busy.filings.filter((f) => f.background)).toHaveLength(10);
  });

  it('draws mostly Form 4s and 8-Ks, clones fixtures under synthetic accessions, and serves the clones', () => {
    expect(filed).toHaveLength(100);
    const others = filed.filter((f) => f.form !== '4' && f.form !== '8-K');
    expect(others).toHaveLength(Math.floor(100 / 6));
    const clones = filed.filter((f) => f.cloneOf !== null);
    expect(new Set(filed.map((f) => f.accession)).size).toBe(100);
    expect(clones.length).toBe(100 - new Set(filed.filter((f) => f.cloneOf === null).map((f) => f.accession)).size);
    expect(clones.every((f) => /^9999999000-26-\d{6}$/.test(f.accession))).toBe(true);
    const dkngClone = clones.find((f) => f.documents.some((d) => d.file === 'form4/DKNG-0001104659-25-025206.txt'))!;
    const name = `${dkngClone.accession}.txt`;
    expect(dkngClone.documents.map((d) => d.name)).toEqual([name]);
    const url = new URL(`/Archives/edgar/data/1883685/${dkngClone.accession}.txt`, 'http://x');
    expect(dkngClone.cloneOf).toBe('0001104659-25-025206');
    // The clone's submission names the clone, as a real one names itself: no mention of the original is left.
    const text = bodyOf(busy.answer(url.pathname, url.searchParams, busy.endAt)).toString('latin1');
    expect(text).toContain(`ACCESSION NUMBER:\t\t${dkngClone.accession}`);
    expect(text).not.toContain('0001104659-25-025206');
    expect(text).not.toContain('000110465925025206');
    expect(text.length).toBe(readFileSync(join(dir, 'form4/DKNG-0001104659-25-025206.txt'), 'latin1').length);
    const listing = busy.answer(`/Archives/edgar/data/1883685/${dkngClone.accession.replace(/-/g, '')}/index.json`, new URLSearchParams(), busy.endAt);
    expect(parseFilingDirectory(bodyOf(listing)).items.map((i) => i.name)).toEqual([name]);
  });

  it('is the same day on every run with the same seed', () => {
    const again = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, schedule: peak, background: 10 });
    expect(again.filings).toEqual(busy.filings);
    const reseeded = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: START, schedule: { ...peak, seed: 2 }, background: 10 });
    expect(reseeded.filings.map((f) => f.acceptedAt)).not.toEqual(busy.filings.map((f) => f.acceptedAt));
  });
});

describe('day manifest', () => {
  it("carries each filing's accession, cik, form, acceptance, visibility per source and clone flag", () => {
    const options = { date: '2026-03-02', startAt: START, durationMs: 60_000, delays: { feedMs: 2_000 } };
    const manifestDay = createEdgarDay(dir, FIXTURE_ROUTES, options);
    const manifest = JSON.parse(JSON.stringify(dayManifest(manifestDay, options, dir, 'http://127.0.0.1:1'))) as DayManifest;
    expect(manifest).toMatchObject({ date: '2026-03-02', startAt: START, endAt: START + 60_000, delays: { feedMs: 2_000 }, schedule: { kind: 'even' } });
    expect(manifest.filings).toHaveLength(manifestDay.filings.length);
    for (const f of manifest.filings) {
      expect(f).toMatchObject({ accession: expect.stringMatching(/^\d{10}-\d{2}-\d{6}$/), cik: expect.stringMatching(/^\d+$/), form: expect.any(String), cloneOf: null });
      expect(f.visibleAt).toEqual({ index: f.acceptedAt, completeSubmission: f.acceptedAt, feed: f.acceptedAt + 2_000, listing: f.acceptedAt, dailyIndex: f.acceptedAt });
    }
  });
});
