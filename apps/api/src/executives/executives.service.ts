import { personKey, secRosterCurrentSince, type RosterAsOf, type RosterEntryRecord, type RosterRepository } from '@app/persistence';

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
 * One entry per person of an executives roster whose sources both know people. A person on both
 * (matchPeople) keeps the issuer-page entry (the issuer's own wording, order and provenance)
 * unless the page no longer lists them while a later Form 4 shows them as officer or director:
 * then the SEC entry (current) speaks. Order: the issuer page's people in its order, then people
 * only Form 4 shows, by their seniority rank (directors last). Pure.
 */
export function mergeExecutiveSources(entries: readonly RosterEntryRecord[]): RosterEntryRecord[] {
  const byRank = (a: RosterEntryRecord, b: RosterEntryRecord) => a.rank - b.rank || a.name.localeCompare(b.name);
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
  const merged = page.map((e, i) => {
    const j = pairs.get(i);
    const other = j === undefined ? undefined : sec[j];
    return !e.isCurrent && other?.isCurrent && evidenceDay(other) > evidenceDay(e) ? other : e;
  });
  const paired = new Set(pairs.values());
  return [...merged, ...sec.filter((_, j) => !paired.has(j))];
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
export function rosterAsOfGaps(roster: RosterAsOf, asOf: string): string[] {
  const gaps = [`as_of ${asOf}: ${ROSTER_AS_OF_RULE}`];
  if (roster.pageFirstSeen !== null && roster.pageFirstSeen > asOf) {
    gaps.push(`issuer page: first crawled on ${roster.pageFirstSeen}, after as_of; before it only Form 4 filings answer`);
  }
  const unknown = roster.entries.filter(
    (e) => e.sourceProvider !== 'sec' && !e.isCurrent && utcDay(e.lastSeenAt) < asOf && utcDay(e.recordObservedAt) > asOf,
  );
  if (unknown.length > 0) {
    const who = unknown.map((e) => `${e.name} (last listed ${utcDay(e.lastSeenAt)})`).join(', ');
    gaps.push(`is_current: ${who}: dropped from the issuer page by a crawl between their last listing and ${utcDay(unknown[0]!.recordObservedAt)}, whose day is not kept; shown as not current`);
  }
  return gaps;
}

/** Roster reads: one issuer's roster of one category, SEC and issuer-page executives merged per person. */
export class ExecutivesService {
  constructor(
    private readonly repo: RosterRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The roster as it stood on `asOf`, merged and cut as `list` does, with its _gaps. An issuer-page
   * entry's evidence (for the merge) is its crawl, but no later than the day.
   */
  async listAsOf(cik: string, category: string, currentOnly: boolean, limit: number, asOf: string): Promise<{ rows: RosterEntryRecord[]; gaps: string[] }> {
    const roster = await this.repo.listAllAsOf(cik, category, asOf);
    const gaps = rosterAsOfGaps(roster, asOf);
    const dayEnd = new Date(`${asOf}T23:59:59.999Z`);
    const entries = roster.entries.map((e) => (e.sourceProvider !== 'sec' && e.recordObservedAt > dayEnd ? { ...e, recordObservedAt: dayEnd } : e));
    if (category !== EXECUTIVES) return { rows: (currentOnly ? entries.filter((e) => e.isCurrent) : entries).slice(0, limit), gaps };
    const merged = mergeExecutiveSources(entries);
    return { rows: (currentOnly ? merged.filter((e) => e.isCurrent) : merged).slice(0, limit).map((e, i) => ({ ...e, rank: i + 1 })), gaps };
  }

  async list(cik: string, category: string, currentOnly: boolean, limit: number): Promise<RosterEntryRecord[]> {
    const currentSince = secRosterCurrentSince(this.now());
    if (category !== EXECUTIVES) return this.repo.list({ cik, category, currentOnly, limit, currentSince });
    const merged = mergeExecutiveSources(await this.repo.listAll(cik, category, currentSince));
    // rank is the position in the merged roster: the sources' own ranks do not compare.
    return (currentOnly ? merged.filter((e) => e.isCurrent) : merged).slice(0, limit).map((e, i) => ({ ...e, rank: i + 1 }));
  }
}
