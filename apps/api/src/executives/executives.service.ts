import { personKey, secRosterCurrentSince, type RosterEntryRecord, type RosterRepository } from '@app/persistence';

const EXECUTIVES = 'executives';

/** A person's name as a set of words: "Musk Elon" (SEC style) and "Elon Musk" are one person, "Elon R. Musk" another. */
export function personMatchKey(name: string): string {
  return personKey(name).split(' ').filter(Boolean).sort().join(' ');
}

/** The day an entry was last decided: an SEC entry by its Form 4, an issuer-page entry by the crawl. */
function evidenceDay(e: RosterEntryRecord): string {
  return e.sourceProvider === 'sec' && e.lastFiledAt ? e.lastFiledAt : e.recordObservedAt.toISOString().slice(0, 10);
}

/**
 * One entry per person of an executives roster whose sources both know people. A person on both
 * (same words of the name) keeps the issuer-page entry (the issuer's own wording, order and
 * provenance) unless the page no longer lists them while a later Form 4 shows them as officer or
 * director: then the SEC entry (current) speaks. Order: the issuer page's people in its order,
 * then people only Form 4 shows, by their seniority rank (directors last). Pure.
 */
export function mergeExecutiveSources(entries: readonly RosterEntryRecord[]): RosterEntryRecord[] {
  const page = entries.filter((e) => e.sourceProvider !== 'sec');
  const sec = entries.filter((e) => e.sourceProvider === 'sec');
  const secByKey = new Map<string, RosterEntryRecord>();
  for (const e of sec) if (!secByKey.has(personMatchKey(e.name))) secByKey.set(personMatchKey(e.name), e);
  const merged: RosterEntryRecord[] = [];
  const seen = new Set<string>();
  for (const e of [...page].sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name))) {
    const key = personMatchKey(e.name);
    if (seen.has(key)) continue;
    seen.add(key);
    const other = secByKey.get(key);
    merged.push(!e.isCurrent && other?.isCurrent && evidenceDay(other) > evidenceDay(e) ? other : e);
  }
  for (const e of [...sec].sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name))) {
    const key = personMatchKey(e.name);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(e);
  }
  return merged;
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
