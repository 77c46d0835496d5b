import type { RosterEntryRecord } from '@app/persistence';
import { looselySamePerson, matchPeople, mergeExecutiveSources, personMatchKey, rosterAsOfGaps } from './executives.service';

// Names as the fixtures spell them: the FRPH investor page, and SEC reporting owners (surname first).
const FRPH_PAGE = ['John D. Milton Jr.', 'Thompson S. Baker', 'David H. deVilliers Jr.', 'John D. Baker II'];

describe('person matching across the issuer page and Form 4', () => {
  it('matches the same words exactly, whatever their order and punctuation', () => {
    expect(personMatchKey('Musk Elon')).toBe(personMatchKey('Elon Musk'));
    expect(personMatchKey('Devilliers David H Jr')).toBe(personMatchKey('David H. deVilliers Jr.'));
  });

  it('matches loosely on a shared surname and the first letter of the first name', () => {
    expect(looselySamePerson('John D. Milton Jr.', 'Milton John D Jr')).toBe(true);
    expect(looselySamePerson('Tim Cook', 'Cook Timothy D')).toBe(true);
    expect(looselySamePerson('Thompson S. Baker', 'Baker Thompson S')).toBe(true);
    expect(looselySamePerson('John D. Milton Jr.', 'Milton John')).toBe(true);
    expect(looselySamePerson('Elon R. Musk', 'Musk Elon')).toBe(true);
    expect(looselySamePerson('J. Smith', 'Smith John')).toBe(true);
  });

  it('does not match another first name, another surname, nor another suffix', () => {
    expect(looselySamePerson('John D. Baker II', 'Baker Thompson S')).toBe(false);
    expect(looselySamePerson('John D. Milton Jr.', 'Musk Elon')).toBe(false);
    expect(looselySamePerson('John D. Milton Jr.', 'Milton John D Sr')).toBe(false);
    // A shared initial is not a surname.
    expect(looselySamePerson('John D. Milton', 'Baker John D')).toBe(false);
  });

  it('pairs exactly first, then loosely where the pairing is unique on both sides', () => {
    const sec = ['Milton John D Jr', 'Baker Thompson S', 'Musk Elon', 'Devilliers David H Jr'];
    expect([...matchPeople(FRPH_PAGE, sec)].sort()).toEqual([
      [0, 0],
      [1, 1],
      [2, 3],
    ]);
    // "Baker John" is John D. Baker II, not Thompson S. Baker; two page Bakers named J make it ambiguous.
    expect([...matchPeople(FRPH_PAGE, ['Baker John'])]).toEqual([[3, 0]]);
    expect([...matchPeople(['John D. Baker II', 'James Baker'], ['Baker John'])]).toEqual([]);
    // Two SEC Miltons with a J: no pairing for the page's one.
    expect([...matchPeople(['John D. Milton Jr.'], ['Milton John D', 'Milton James'])]).toEqual([]);
  });
});

function entry(over: Partial<RosterEntryRecord> & Pick<RosterEntryRecord, 'name' | 'sourceProvider' | 'rank'>): RosterEntryRecord {
  const at = new Date('2025-08-01T00:00:00Z');
  return {
    category: 'executives',
    personKey: over.name.toLowerCase(),
    role: 'Officer',
    affiliation: 'Issuer',
    email: null,
    phone: null,
    isCurrent: true,
    srcId: 'src_t',
    sourceUrl: null,
    accession: null,
    quote: null,
    contentHash: null,
    extractedAt: null,
    firstSeenAt: at,
    lastSeenAt: at,
    recordObservedAt: at,
    lastFiledAt: null,
    ...over,
  };
}

describe('mergeExecutiveSources', () => {
  it('one entry per person: the page entry for a person Form 4 also shows under a longer name', () => {
    const merged = mergeExecutiveSources([
      entry({ name: 'Milton John D Jr', sourceProvider: 'sec', rank: 1, lastFiledAt: '2025-03-01' }),
      entry({ name: 'Baker Thompson S', sourceProvider: 'sec', rank: 9 }),
      entry({ name: 'Smith Jane', sourceProvider: 'sec', rank: 5 }),
      entry({ name: 'John D. Milton Jr.', sourceProvider: 'issuer_page', rank: 1 }),
      entry({ name: 'Thompson S. Baker', sourceProvider: 'issuer_page', rank: 2 }),
    ]);
    expect(merged.map((e) => [e.name, e.sourceProvider])).toEqual([
      ['John D. Milton Jr.', 'issuer_page'],
      ['Thompson S. Baker', 'issuer_page'],
      ['Smith Jane', 'sec'],
    ]);
  });

  it('the SEC entry speaks when the page dropped the person and a later Form 4 shows them', () => {
    const sec = entry({ name: 'Cook Timothy D', sourceProvider: 'sec', rank: 1, lastFiledAt: '2025-09-01' });
    const merged = mergeExecutiveSources([entry({ name: 'Tim Cook', sourceProvider: 'issuer_page', rank: 1, isCurrent: false }), sec]);
    expect(merged).toEqual([sec]);
  });
});

describe('rosterAsOfGaps', () => {
  // The FRPH crawls of the integration test: 2026-01-15 lists Klopfenstein, 2026-02-15 no longer.
  const dropped = entry({
    name: 'John D. Klopfenstein', sourceProvider: 'issuer_page', rank: 5, isCurrent: false,
    firstSeenAt: new Date('2026-01-15T10:00:00Z'), lastSeenAt: new Date('2026-01-15T10:00:00Z'), recordObservedAt: new Date('2026-02-15T10:00:00Z'),
  });

  it('states the rule first, and names a person dropped by a crawl after their last listing when that crawl may be before or after the day', () => {
    const gaps = rosterAsOfGaps({ entries: [dropped], pageFirstSeen: '2026-01-15' }, '2026-01-31');
    expect(gaps[0]).toMatchObject({ code: 'as_of_rule', field: 'is_current', detail: expect.stringMatching(/^as_of 2026-01-31: is_current as of the day: /) });
    expect(gaps[1]).toEqual({
      code: 'as_of_drop_day_unknown',
      field: 'is_current',
      detail:
        'is_current: John D. Klopfenstein (last listed 2026-01-15): dropped from the issuer page by a crawl between their last listing and 2026-02-15, whose day is not kept; shown as not current',
    });
  });

  it('says nothing of a drop known by the day, and names a first crawl after it', () => {
    expect(rosterAsOfGaps({ entries: [dropped], pageFirstSeen: '2026-01-15' }, '2026-02-15')).toHaveLength(1);
    expect(rosterAsOfGaps({ entries: [], pageFirstSeen: '2026-01-15' }, '2026-01-10')[1]).toEqual({
      code: 'as_of_before_first_crawl',
      detail: 'issuer page: first crawled on 2026-01-15, after as_of; before it only Form 4 filings answer',
    });
    expect(rosterAsOfGaps({ entries: [], pageFirstSeen: null }, '2026-01-10')).toHaveLength(1);
  });
});
