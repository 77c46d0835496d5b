import { keysetOrder, personKey, secRosterCurrentSince, type RosterAsOf, type RosterEntryRecord, type RosterRepository } from '@app/persistence';
import { gap, type GapBody } from '@app/resources';

const EXECUTIVES = 'executives';

/** A person's name as a set of words: "Musk Elon" (SEC style) and "Elon Musk" match exactly; "Elon R. Musk" only loosely (looselySamePerson). */
export function personMatchKey(name: string): string {
  return personKey(name).split(' ').filter(Boolean).sort().join(' ');
}

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/** The words of a name in its own order, suffixes apart. */
function nameParts(name: string): { words: string[]; suffix: string | null } {
  const all = personKey(name).split(' ').filter(Boolean);
  return { words: all.filter((w) => !SUFFIXES.has(w)), suffix: all.find((w) => SUFFIXES.has(w)) ?? null };
}

/**
 * Whether an issuer-page name and an SEC name may be one person when their words differ (SEC
 * names carry middle names and initials, pages short forms: "Cook Timothy D" and "Tim Cook"): a
 * surname in both (the longest word of two letters or more they share, suffixes aside), the first
 * letters of their first names (the first other word, initials only when there is nothing else)
 * agreeing, and no two different suffixes (Jr / Sr). Pure.
 */
export function looselySamePerson(a: string, b: string): boolean {
  const pa = nameParts(a);
  const pb = nameParts(b);
  if (pa.suffix && pb.suffix && pa.suffix !== pb.suffix) return false;
  const inB = new Set(pb.words);
  const surname = pa.words.filter((w) => w.length > 1 && inB.has(w)).sort((x, y) => y.length - x.length)[0];
  if (!surname) return false;
  // The first name: the first other word that is not an initial, else the first initial.
  const given = (words: string[]) => words.find((w) => w !== surname && w.length > 1) ?? words.find((w) => w !== surname);
  const givenA = given(pa.words);
  const givenB = given(pb.words);
  return givenA !== undefined && givenB !== undefined && givenA[0] === givenB[0];
}

/**
 * Pairs issuer-page names with SEC names of one person: same words first (personMatchKey), then
 * looselySamePerson, only where that pairing is unique on both sides (two Bakers with a J do not
 * pair). Returns page index -> SEC index. Pure.
 */
export function matchPeople(pageNames: readonly string[], secNames: readonly string[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const secTaken = new Set<number>();
  const secByKey = new Map<string, number>();
  secNames.forEach((n, j) => {
    if (!secByKey.has(personMatchKey(n))) secByKey.set(personMatchKey(n), j);
  });
  pageNames.forEach((n, i) => {
    const j = secByKey.get(personMatchKey(n));
    if (j !== undefined && !secTaken.has(j)) {
      pairs.set(i, j);
      secTaken.add(j);
    }
  });
  const pageLeft = pageNames.map((_, i) => i).filter((i) => !pairs.has(i));
  const secLeft = secNames.map((_, j) => j).filter((j) => !secTaken.has(j));
  for (const i of pageLeft) {
    const candidates = secLeft.filter((j) => looselySamePerson(pageNames[i]!, secNames[j]!));
    if (candidates.length !== 1) continue;
    const j = candidates[0]!;
    if (pageLeft.filter((k) => looselySamePerson(pageNames[k]!, secNames[j]!)).length === 1) pairs.set(i, j);
  }
  return pairs;
}

/** The day an entry was last decided: an SEC entry by its Form 4, an issuer-page entry by the crawl. */
function evidenceDay(e: RosterEntryRecord): string {
  return e.sourceProvider === 'sec' && e.lastFiledAt ? e.lastFiledAt : e.recordObservedAt.toISOString().slice(0, 10);
}

/**
 * Where an entry stands in its roster, the key a cursor carries: issuer-page people (group 0) by the
 * page's rank then name, then people only Form 4 shows (group 1) by seniority then name; `person`
 * (category, source and person key: unique per issuer) breaks the ties two sources of one name would leave. A person's place
 * does not move when others join or leave the roster, so a cursor continues after the same person.
 */
export interface RosterPlace {
  group: 0 | 1;
  rank: number;
  name: string;
  person: string;
}

/** One entry of a roster with its place. */
export interface RosterRow {
  entry: RosterEntryRecord;
  place: RosterPlace;
}

/** The roster's order, paged in memory (rosters are a few dozen people). Names compare by code unit, as keysetInMemory does. */
export const ROSTER_ORDER = keysetOrder<RosterRow>(
  { sql: 'group', type: 'integer', of: (r) => r.place.group },
  { sql: 'rank', type: 'integer', of: (r) => r.place.rank },
  { sql: 'name', type: 'text', of: (r) => r.place.name },
  { sql: 'person', type: 'text', of: (r) => r.place.person },
);

const placeOf = (group: 0 | 1, e: RosterEntryRecord): RosterPlace => ({ group, rank: e.rank, name: e.name, person: `${e.category}:${e.sourceProvider}:${e.personKey}` });

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One entry per person of an executives roster whose sources both know people. A person on both
 * (matchPeople) keeps the issuer-page entry (the issuer's own wording, order and provenance)
 * unless the page no longer lists them while a later Form 4 shows them as officer or director:
 * then the SEC entry (current) speaks, in the page person's place. Order: the issuer page's people
 * in its order, then people only Form 4 shows, by their seniority rank (directors last). Pure.
 */
export function mergeExecutiveRows(entries: readonly RosterEntryRecord[]): RosterRow[] {
  const byRank = (a: RosterEntryRecord, b: RosterEntryRecord) => a.rank - b.rank || byCodeUnit(a.name, b.name);
  // One entry per set of name words on each side (the first in rank order).
  const distinct = (list: RosterEntryRecord[]) => {
    const seen = new Set<string>();
    return [...list].sort(byRank).filter((e) => {
      const key = personMatchKey(e.name);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  const page = distinct(entries.filter((e) => e.sourceProvider !== 'sec'));
  const sec = distinct(entries.filter((e) => e.sourceProvider === 'sec'));
  const pairs = matchPeople(page.map((e) => e.name), sec.map((e) => e.name));
  const merged = page.map((e, i): RosterRow => {
    const j = pairs.get(i);
    const other = j === undefined ? undefined : sec[j];
    return { entry: !e.isCurrent && other?.isCurrent && evidenceDay(other) > evidenceDay(e) ? other : e, place: placeOf(0, e) };
  });
  const paired = new Set(pairs.values());
  return [...merged, ...sec.filter((_, j) => !paired.has(j)).map((e) => ({ entry: e, place: placeOf(1, e) }))];
}

/** mergeExecutiveRows' entries, in order. Pure. */
export function mergeExecutiveSources(entries: readonly RosterEntryRecord[]): RosterEntryRecord[] {
  return mergeExecutiveRows(entries).map((r) => r.entry);
}

/**
 * The roster a route pages through, whole and in ROSTER_ORDER: executives merged per person and
 * ranked by their position in it (the sources' own ranks do not compare); other categories as
 * their page ranks them. Pure.
 */
export function rosterRows(entries: readonly RosterEntryRecord[], category: string, currentOnly: boolean): RosterRow[] {
  if (category !== EXECUTIVES) {
    const rows = entries.filter((e) => !currentOnly || e.isCurrent).map((e) => ({ entry: e, place: placeOf(0, e) }));
    return rows.sort((a, b) => a.place.rank - b.place.rank || byCodeUnit(a.place.name, b.place.name) || byCodeUnit(a.place.person, b.place.person));
  }
  const merged = mergeExecutiveRows(entries).filter((r) => !currentOnly || r.entry.isCurrent);
  return merged.map((r, i) => ({ ...r, entry: { ...r.entry, rank: i + 1 } }));
}

const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The rule an as_of roster answers by, said once in every such answer. */
export const ROSTER_AS_OF_RULE =
  'is_current as of the day: an issuer-page person when a crawl on or before the day listed them and a crawl on or after it (or today\'s roster) still does ' +
  '(the read model keeps each person\'s first and last listing crawl, not every crawl); an SEC person from the Form 4s filed on or before the day: ' +
  'current when one of the 18 months before the day shows them as officer or director and no later one shows them without it';

/**
 * What an as_of roster cannot tell (pure): the issuer-page roster first crawled after the day, and
 * people dropped after their last listing by a crawl whose day is not kept, so whether they were
 * still listed on the day is unknown (served as not current).
 */
export function rosterAsOfGaps(roster: RosterAsOf, asOf: string): GapBody[] {
  const gaps = [gap('as_of_rule', `as_of ${asOf}: ${ROSTER_AS_OF_RULE}`, 'is_current')];
  if (roster.pageFirstSeen !== null && roster.pageFirstSeen > asOf) {
    gaps.push(gap('as_of_before_first_crawl', `issuer page: first crawled on ${roster.pageFirstSeen}, after as_of; before it only Form 4 filings answer`));
  }
  const unknown = roster.entries.filter(
    (e) => e.sourceProvider !== 'sec' && !e.isCurrent && utcDay(e.lastSeenAt) < asOf && utcDay(e.recordObservedAt) > asOf,
  );
  if (unknown.length > 0) {
    const who = unknown.map((e) => `${e.name} (last listed ${utcDay(e.lastSeenAt)})`).join(', ');
    gaps.push(
      gap(
        'as_of_drop_day_unknown',
        `is_current: ${who}: dropped from the issuer page by a crawl between their last listing and ${utcDay(unknown[0]!.recordObservedAt)}, whose day is not kept; shown as not current`,
        'is_current',
      ),
    );
  }
  return gaps;
}

/** Roster reads: one issuer's roster of one category, SEC and issuer-page executives merged per person. */
export class ExecutivesService {
  constructor(
    private readonly repo: RosterRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The whole roster (rosterRows), for the route to page. */
  async list(cik: string, category: string, currentOnly: boolean): Promise<RosterRow[]> {
    return rosterRows(await this.repo.listAll(cik, category, secRosterCurrentSince(this.now())), category, currentOnly);
  }

  /**
   * The roster as it stood on `asOf`, as `list` gives it, with its gaps. An issuer-page entry's
   * evidence (for the merge) is its crawl, but no later than the day.
   */
  async listAsOf(cik: string, category: string, currentOnly: boolean, asOf: string): Promise<{ rows: RosterRow[]; gaps: GapBody[] }> {
    const roster = await this.repo.listAllAsOf(cik, category, asOf);
    const gaps = rosterAsOfGaps(roster, asOf);
    const dayEnd = new Date(`${asOf}T23:59:59.999Z`);
    const entries = roster.entries.map((e) => (e.sourceProvider !== 'sec' && e.recordObservedAt > dayEnd ? { ...e, recordObservedAt: dayEnd } : e));
    return { rows: rosterRows(entries, category, currentOnly), gaps };
  }
}
