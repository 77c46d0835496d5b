import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EdgarParseError } from '../edgar.parse-error';
import { conceptSeries, parseCompanyFacts, type CompanyFacts } from './companyfacts.parser';

/*
 * Expected values were read from the fixture itself (SNOW-companyfacts-CIK0001640147.json,
 * Snowflake): `"cik": 1640147`, `"entityName": "SNOWFLAKE INC."`, 336 concepts under `us-gaap`
 * (counted with an independent JSON reader), and the entries of
 * us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax [USD] as printed, e.g. lines 60111-60121:
 *   { "start": "2024-02-01", "end": "2025-01-31", "val": 3626396000, "accn": "0001640147-25-000052",
 *     "fy": 2025, "fp": "FY", "form": "10-K", "filed": "2025-03-21", "frame": "CY2024" }
 */
const DIR = join(__dirname, '../../../../../shared/fixtures/xbrl');
const FILE = 'SNOW-companyfacts-CIK0001640147.json';
const REVENUE = 'RevenueFromContractWithCustomerExcludingAssessedTax';

let cached: CompanyFacts | undefined;
function load(): CompanyFacts {
  cached ??= parseCompanyFacts(readFileSync(join(process.env.FIXTURES_DIR ? join(process.env.FIXTURES_DIR, 'xbrl') : DIR, FILE)));
  return cached;
}

describe('parseCompanyFacts (Snowflake)', () => {
  it('reads the entity and pads the CIK to 10 digits', () => {
    const facts = load();
    expect(facts.cik).toBe('0001640147');
    expect(facts.entityName).toBe('SNOWFLAKE INC.');
  });

  it('reads every taxonomy and concept', () => {
    const facts = load();
    expect([...facts.facts.keys()].sort()).toEqual(['dei', 'srt', 'us-gaap']);
    expect(facts.facts.get('us-gaap')!.size).toBe(336);
    expect([...facts.facts.get('dei')!.keys()].sort()).toEqual(['EntityCommonStockSharesOutstanding', 'EntityPublicFloat']);
    const revenue = facts.facts.get('us-gaap')!.get(REVENUE)!;
    expect(revenue.label).toBe('Revenue from Contract with Customer, Excluding Assessed Tax');
    expect([...revenue.units.keys()]).toEqual(['USD']);
    expect(revenue.units.get('USD')).toHaveLength(61);
  });

  it('reads entries exactly, frame only where SEC gives one', () => {
    const usd = load().facts.get('us-gaap')!.get(REVENUE)!.units.get('USD')!;
    expect(usd.find((e) => e.accn === '0001640147-25-000052' && e.start === '2024-02-01' && e.end === '2025-01-31')).toEqual({
      start: '2024-02-01',
      end: '2025-01-31',
      val: 3_626_396_000,
      accn: '0001640147-25-000052',
      fy: 2025,
      fp: 'FY',
      form: '10-K',
      filed: '2025-03-21',
      frame: 'CY2024',
    });
    expect(usd.find((e) => e.accn === '0001640147-24-000250' && e.start === '2024-08-01')).toMatchObject({ end: '2024-10-31', val: 942_094_000, fp: 'Q3', frame: 'CY2024Q3' });
    const noFrame = usd.find((e) => e.accn === '0001640147-20-000023' && e.start === '2019-02-01' && e.end === '2019-10-31')!;
    expect(noFrame.val).toBe(177_056_000);
    expect('frame' in noFrame).toBe(false);
  });

  it('has instants without start', () => {
    const shares = load().facts.get('dei')!.get('EntityCommonStockSharesOutstanding')!.units.get('shares')!;
    expect(shares[0]).toEqual({ end: '2021-03-01', val: 288_700_000, accn: '0001640147-21-000073', fy: 2021, fp: 'FY', form: '10-K', filed: '2021-03-31', frame: 'CY2021Q1I' });
  });

  it('rejects files of another shape', () => {
    expect(() => parseCompanyFacts('[]')).toThrow(EdgarParseError);
    expect(() => parseCompanyFacts('{"cik": 1, "entityName": "X"}')).toThrow(/facts/);
    expect(() => parseCompanyFacts('not json')).toThrow(EdgarParseError);
    expect(parseCompanyFacts('{"cik": "320193", "entityName": "Apple Inc.", "facts": {}}')).toEqual({ cik: '0000320193', entityName: 'Apple Inc.', facts: new Map() });
  });
});

describe('conceptSeries', () => {
  it('sorts the entries by end date', () => {
    const series = conceptSeries(load(), 'us-gaap', REVENUE, 'USD');
    expect(series).toHaveLength(61);
    const ends = series.map((e) => e.end);
    expect(ends).toEqual([...ends].sort());
    expect(series[0]).toMatchObject({ start: '2018-02-01', end: '2019-01-31', val: 96_666_000, accn: '0001640147-21-000073', frame: 'CY2018' });
    expect(series[series.length - 1]).toMatchObject({ start: '2025-02-01', end: '2025-04-30', val: 1_042_074_000, accn: '0001640147-25-000110', fy: 2026, fp: 'Q1' });
  });

  it('orders by start, then filing date, within one end date', () => {
    const json = JSON.stringify({
      cik: 1,
      entityName: 'X',
      facts: {
        'us-gaap': {
          Revenues: {
            units: {
              USD: [
                { end: '2024-12-31', start: '2024-10-01', val: 3, accn: 'b', fy: 2025, fp: 'FY', form: '10-K', filed: '2026-02-01' },
                { end: '2024-12-31', start: '2024-01-01', val: 1, accn: 'a', fy: 2024, fp: 'FY', form: '10-K', filed: '2025-02-01' },
                { end: '2023-12-31', start: '2023-01-01', val: 0, accn: 'a', fy: null, fp: null, form: '10-K', filed: '2025-02-01' },
                { end: '2024-12-31', start: '2024-10-01', val: 2, accn: 'a', fy: 2024, fp: 'FY', form: '10-K', filed: '2025-02-01' },
              ],
            },
          },
        },
      },
    });
    const facts = parseCompanyFacts(json);
    expect(conceptSeries(facts.facts, 'us-gaap', 'Revenues', 'USD').map((e) => e.val)).toEqual([0, 1, 2, 3]);
    expect(conceptSeries(facts, 'us-gaap', 'Revenues', 'EUR')).toEqual([]);
    expect(conceptSeries(facts, 'ifrs-full', 'Revenue', 'USD')).toEqual([]);
    expect(facts.facts.get('us-gaap')!.get('Revenues')!.units.get('USD')![2]).toMatchObject({ fy: null, fp: null });
  });
});
