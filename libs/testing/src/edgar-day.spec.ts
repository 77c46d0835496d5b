import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentEventsPath, dailyIndexPath, parseCurrentEvents, parseDailyIndex, parseFilingDirectory } from '@app/edgar';
import { createEdgarDay, type DayAnswer } from './edgar-day';
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
    const mid = tenQs[1]!.at;
    const page = parseCurrentEvents(bodyOf(get(currentEventsPath('10-Q'), mid)));
    expect(page.date).toBe('2026-03-02');
    const appeared = day.filings.filter((f) => f.form === '10-Q' && f.at <= mid).map((f) => f.accession).sort();
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
    expect(get(`${path}/index.json`, nvda.at - 1)).toEqual({ status: 404 });
    expect(get(`${path}/nvda-20250727.htm`, nvda.at - 1)).toEqual({ status: 404 });
    const listing = parseFilingDirectory(bodyOf(get(`${path}/index.json`, nvda.at)));
    expect(listing).toMatchObject({ accession: '0001045810-25-000209', likelyPrimaryDocument: 'nvda-20250727.htm' });
    expect(bodyOf(get(`${path}/nvda-20250727.htm`, nvda.at)).equals(readFileSync(join(dir, 'xbrl/NVDA-nvda-10-q-2025-08-27.html')))).toBe(true);
    // A complete submission is listed in its directory and served at both of EDGAR's paths.
    const dkng = fixtures.find((f) => f.accession === '0001104659-25-025206')!;
    expect(parseFilingDirectory(bodyOf(get('/Archives/edgar/data/1883685/000110465925025206/index.json', dkng.at))).items.map((i) => i.name)).toEqual(['0001104659-25-025206.txt']);
    expect(get('/Archives/edgar/data/1883685/0001104659-25-025206.txt', dkng.at - 1)).toEqual({ status: 404 });
    expect(get('/Archives/edgar/data/1883685/0001104659-25-025206.txt', dkng.at)).toBeNull();
  });

  it('leaves paths that are not the day to the fixed routes', () => {
    expect(get('/files/company_tickers.json', END)).toBeNull();
    expect(get('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx', END)).toBeNull();
  });
});
