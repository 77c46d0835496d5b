import type { SubmissionsCompany } from '@app/edgar';

/**
 * What an entry of submissions.zip is, by its name: `CIK##########.json` is an entity's main file
 * (company detail + `filings.recent`), `CIK##########-submissions-###.json` one of its overflow
 * files (filing columns only, no company header); anything else is not ours.
 */
export type BulkEntryKind = { kind: 'main'; cik: string } | { kind: 'overflow'; cik: string } | { kind: 'other' };

const MAIN_RE = /^(?:.*\/)?CIK(\d{10})\.json$/;
const OVERFLOW_RE = /^(?:.*\/)?CIK(\d{10})-submissions-\d+\.json$/;

export function classifyEntry(name: string): BulkEntryKind {
  const main = MAIN_RE.exec(name);
  if (main) return { kind: 'main', cik: main[1]! };
  const overflow = OVERFLOW_RE.exec(name);
  if (overflow) return { kind: 'overflow', cik: overflow[1]! };
  return { kind: 'other' };
}

/** The base name of an entry (SEC lists overflow files by base name in `filings.files`). */
export function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** Serialized in the checkpoint: names still needed by overflow files not yet done. */
export type PendingNames = Record<string, { name: string; waiting: string[] }>;

/**
 * Company names for overflow files, which carry none. A main file's name is kept while any
 * overflow file it lists is not done, then dropped; a few recent names are kept besides, for an
 * overflow file its main file does not list. Memory stays bounded by the overflow files in flight,
 * not by the archive; the pending part goes into the checkpoint, so a restarted run can name the
 * overflow files of a main file it skips.
 */
export class CompanyNames {
  private readonly pending = new Map<string, { name: string; waiting: Set<string> }>();
  private readonly recent = new Map<string, string>();

  constructor(private readonly recentMax = 1024) {}

  remember(company: Pick<SubmissionsCompany, 'cik' | 'name' | 'filingFiles'>): void {
    this.recent.delete(company.cik);
    this.recent.set(company.cik, company.name);
    if (this.recent.size > this.recentMax) this.recent.delete(this.recent.keys().next().value as string);
    if (company.filingFiles.length > 0) {
      this.pending.set(company.cik, { name: company.name, waiting: new Set(company.filingFiles.map((f) => baseName(f.name))) });
    }
  }

  nameOf(cik: string): string | undefined {
    return this.pending.get(cik)?.name ?? this.recent.get(cik);
  }

  /** An overflow file of `cik` is published: its main file's name is no longer needed for it. */
  overflowDone(cik: string, entryName: string): void {
    const p = this.pending.get(cik);
    if (!p) return;
    p.waiting.delete(baseName(entryName));
    if (p.waiting.size === 0) this.pending.delete(cik);
  }

  snapshot(): PendingNames {
    const out: PendingNames = {};
    for (const [cik, p] of this.pending) out[cik] = { name: p.name, waiting: [...p.waiting] };
    return out;
  }

  restore(names: PendingNames): void {
    for (const [cik, p] of Object.entries(names)) this.pending.set(cik, { name: p.name, waiting: new Set(p.waiting) });
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}

/**
 * Which entries are done, as a prefix of the archive order: entries finish out of order (an overflow
 * file waits for its main file), so the checkpoint's `entries_done` is the first index not yet done,
 * and the few done beyond it are remembered until the prefix reaches them.
 */
export class DonePrefix {
  private readonly above = new Map<number, string>();
  private last: string | null;

  constructor(
    private next: number,
    lastName: string | null = null,
  ) {
    this.last = lastName;
  }

  markDone(index: number, name: string): void {
    if (index < this.next) return;
    this.above.set(index, name);
    while (this.above.has(this.next)) {
      this.last = this.above.get(this.next)!;
      this.above.delete(this.next);
      this.next += 1;
    }
  }

  /** Entries 0 .. count-1 are done. */
  get count(): number {
    return this.next;
  }

  /** Name of the last entry of the done prefix. */
  get lastName(): string | null {
    return this.last;
  }

  /** Done entries beyond the prefix (bounded by the overflow files waiting for their main file). */
  get beyond(): number {
    return this.above.size;
  }
}
