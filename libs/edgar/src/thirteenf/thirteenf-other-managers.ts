/** Longest "1-3" range read as its members: a wider one is not a list of managers. */
const MAX_MANAGER_RANGE = 100;

/**
 * The included-manager sequence numbers of a row: "1,2", "1 2", "1-3" or repeated elements; 0 is
 * how filers write "none" (sequence numbers start at 1).
 */
export function managerSequences(raws: readonly (string | null | undefined)[]): number[] {
  const out = new Set<number>();
  for (const raw of raws) {
    for (const token of (raw ?? '').trim().split(/[^0-9-]+/)) {
      const range = /^(\d+)-(\d+)$/.exec(token);
      const [from, to] = range ? [Number(range[1]), Number(range[2])] : [Number(token), Number(token)];
      if (token === '' || !Number.isInteger(from) || !Number.isInteger(to) || to < from || to - from > MAX_MANAGER_RANGE) continue;
      for (let n = Math.max(from, 1); n <= to; n++) out.add(n);
    }
  }
  return [...out];
}
