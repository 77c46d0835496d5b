import { expectedResources, requestFigures } from './day-coverage';
import { createEdgarDay } from './edgar-day';
import { defaultFixturesDir, FIXTURE_ROUTES } from './fixture-server';

describe('day coverage', () => {
  const dir = defaultFixturesDir();
  const day = createEdgarDay(dir, FIXTURE_ROUTES, { date: '2026-03-02', startAt: 0, durationMs: 1000, background: 5 });
  const expected = expectedResources(dir, day.date, day.filings);
  const of = (accession: string) => expected.filter((e) => e.accession === accession).map((e) => `${e.kind} ${e.path}`);

  it('expects what each fixture file holds', () => {
    // Tesla's 10-K: its filing, segment figures (it has a segment axis), Item 1A and the description.
    expect(of('0001628280-25-003063')).toEqual([
      'filing /v1/filings/0001628280-25-003063',
      'segments /v1/companies/TSLA:US/segments?limit=500',
      'sections /v1/companies/TSLA:US/sections/1A',
      'description /v1/companies/TSLA:US',
    ]);
    // A Form 4: insider rows under its issuer (the XML names Microsoft).
    expect(of('0001062993-24-016587')).toContain('insiders /v1/companies/MSFT:US/insiders?limit=500');
    // ADX's largest matched equity holding; the Goldman Sachs bond fund holds no common equity.
    expect(of('0000002230-23-990001').some((e) => /^fund-exposure \/v1\/companies\/[A-Z]+:US\/fund-exposure/.test(e))).toBe(true);
    expect(of('0000822977-23-990001')).toEqual(['filing /v1/filings/0000822977-23-990001']);
    // A 13F-HR: the manager's portfolio, under the CIK its primary document states (Acorn Creek's is not its accession prefix).
    expect(of('0001619124-21-000002')).toEqual(['filing /v1/filings/0001619124-21-000002', 'institution-holdings /v1/institutions/0001619124/holdings?limit=500']);
    expect(of('0001951757-25-000093')).toContain('institution-holdings /v1/institutions/0001994827/holdings?limit=500');
    // Background rows: their filing, looked up in the day's list.
    for (const f of day.filings.filter((x) => x.background)) expect(of(f.accession)).toEqual(['filing /v1/filings?filed_from=2026-03-02&filed_to=2026-03-02&limit=500']);
  });

  it('counts a request log: the busiest second and the kinds', () => {
    const figures = requestFigures('1000 200 /cgi-bin/current\n1200 404 /Archives/edgar/data/1/000000000125000001/index.json\n2500 200 /files/company_tickers.json\n');
    expect(figures).toEqual({ requests: 3, busiestSecond: 2, perMinute: 120, byKind: { listings: 1, 'index.json': 1, 'company load': 1 } });
  });
});
