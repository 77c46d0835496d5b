import { personKey, secRosterCurrentSince, type RosterEntryRecord, type RosterRepository } from '@app/persistence';

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

/** Roster reads: one issuer's roster of one category, SEC and issuer-page executives merged per person. */
export class ExecutivesService {
  constructor(
    private readonly repo: RosterRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(cik: string, category: string, currentOnly: boolean, limit: number): Promise<RosterEntryRecord[]> {
    const currentSince = secRosterCurrentSince(this.now());
    if (category !== EXECUTIVES) return this.repo.list({ cik, category, currentOnly, limit, currentSince });
    const merged = mergeExecutiveSources(await this.repo.listAll(cik, category, currentSince));
    // rank is the position in the merged roster: the sources' own ranks do not compare.
    return (currentOnly ? merged.filter((e) => e.isCurrent) : merged).slice(0, limit).map((e, i) => ({ ...e, rank: i + 1 }));
  }
}
