/*
 * The pure rules of the 13F projection: which chunks of a filing a batch writes, which filings
 * make a manager's quarter, and the calendar of quarter ends. No I/O, so they are unit-tested.
 */

/** A filing's chunk bookkeeping as stored (thirteenf_filings.chunk_count, chunk_hashes). */
export interface StoredChunks {
  chunk_count: number;
  /** Per chunk index, the hash of the chunk's data last projected; null until it arrived. */
  chunk_hashes: ReadonlyArray<string | null>;
}

/** One chunk of the batch, reduced to what the plan looks at. */
export interface ChunkVersion {
  index: number;
  count: number;
  /** Hash of the record's data (header and holdings). */
  hash: string;
}

/** What applying a filing's chunks of a batch one at a time leaves; see planChunks. */
export interface ChunkPlan {
  /** Positions (in the batch's chunk list) of the chunks to write: per chunk index the last that changed it. */
  write: number[];
  /** Whether the stored rows of the filing go first (it was read again with another chunking). */
  reset: boolean;
  chunk_count: number;
  chunk_hashes: Array<string | null>;
  /** The filing's state before and after the batch. */
  completeBefore: boolean;
  completeAfter: boolean;
}

const isComplete = (hashes: ReadonlyArray<string | null>): boolean => hashes.length > 0 && hashes.every((h) => h !== null);

/**
 * Applies one filing's chunks (offset order) to its stored bookkeeping: a chunk whose hash is the
 * one stored for its index is a redelivery and writes nothing; another hash rewrites the chunk; a
 * chunk count unlike the stored one means the filing was read again and cut differently, so the
 * stored rows go and counting starts over. (Read again with the same count, each chunk written
 * replaces its own index range and the rows past the new holdings_total: chunkTrim.) Pure.
 */
export function planChunks(stored: StoredChunks | undefined, chunks: ReadonlyArray<ChunkVersion>): ChunkPlan {
  let count = stored?.chunk_count ?? 0;
  let hashes: Array<string | null> = stored ? [...stored.chunk_hashes] : [];
  let reset = false;
  const writes = new Map<number, number>();
  chunks.forEach((c, i) => {
    if (hashes.length === 0 || count !== c.count) {
      // A stored filing cut differently: its stored rows go (nothing of this batch was stored yet).
      if (stored) reset = true;
      count = c.count;
      hashes = Array.from({ length: c.count }, () => null);
      writes.clear();
    }
    if (c.index >= count || hashes[c.index] === c.hash) return;
    hashes[c.index] = c.hash;
    writes.set(c.index, i);
  });
  return {
    write: [...writes.values()].sort((a, b) => a - b),
    reset,
    chunk_count: count,
    chunk_hashes: hashes,
    completeBefore: stored ? isComplete(stored.chunk_hashes) : false,
    completeAfter: isComplete(hashes),
  };
}

/** A complete filing of one manager's quarter, as the quarter rules see it. */
export interface QuarterFiling {
  accession: string;
  filed_date: string;
  /** EDGAR's acceptance time (ISO 8601), null when the record did not carry it. */
  accepted_at: string | null;
  amendment_number: number | null;
  amendment_type: string | null;
}

/** Which filings make a manager's quarter now; see quarterFilings. */
export interface QuarterPlan {
  /** The report the quarter rests on: the latest original or restatement; null when only new-holdings amendments are in. */
  base: string | null;
  /** The base, then the new-holdings amendments filed after it, in filing order (byFiling). */
  current: string[];
  /** Per filing of the quarter: the base that replaces it, or null when it is current. */
  supersededBy: Map<string, string | null>;
}

const compareNullsFirst = (a: number | null, b: number | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a - b);
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const acceptedMs = (f: QuarterFiling): number | null => (f.accepted_at === null ? null : Date.parse(f.accepted_at));

/**
 * Filing order: filed_date, then acceptance time, then amendment number (an original, without
 * one, first), then accession. The accession is the last resort only: its prefix is the CIK of
 * whoever submitted it (the manager or a filing agent), so two filings of one day do not sort by
 * it in time.
 */
export const byFiling = (a: QuarterFiling, b: QuarterFiling): number =>
  compareText(a.filed_date, b.filed_date) ||
  compareNullsFirst(acceptedMs(a), acceptedMs(b)) ||
  compareNullsFirst(a.amendment_number, b.amendment_number) ||
  compareText(a.accession, b.accession);

/**
 * The current filings of a manager's quarter: the latest (byFiling) of the originals
 * (13F-HR, 13F-NT) and restatements (an amendment without a type counts as one: it restates the
 * report), plus the new-holdings amendments filed after it. Everything else is superseded by that
 * latest report. Pure.
 */
export function quarterFilings(filings: ReadonlyArray<QuarterFiling>): QuarterPlan {
  const sorted = [...filings].sort(byFiling);
  const reports = sorted.filter((f) => f.amendment_type !== 'new_holdings');
  const base = reports[reports.length - 1] ?? null;
  const current = sorted.filter((f) => f === base || (f.amendment_type === 'new_holdings' && (!base || byFiling(f, base) > 0)));
  const isCurrent = new Set(current.map((f) => f.accession));
  return {
    base: base?.accession ?? null,
    current: current.map((f) => f.accession),
    supersededBy: new Map(sorted.map((f) => [f.accession, isCurrent.has(f.accession) ? null : (base?.accession ?? null)])),
  };
}
