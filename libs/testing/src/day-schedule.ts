/**
 * When the filings of a simulated EDGAR day are accepted: spread evenly over the day, or a peak
 * hour (a burst right at the start, as at 16:00 and 17:30 ET, then a steady tail).
 */

/** A burst then a tail: `burstCount` filings within the first `burstMs`, then `tailPerMinute` a minute for `tailMs`. */
export interface PeakSchedule {
  kind: 'peak';
  burstCount: number;
  burstMs: number;
  tailPerMinute: number;
  tailMs: number;
  /** Seed of the jitter (default 1): the same seed gives the same day. */
  seed?: number;
}

/** The day's default: filings one after another at equal steps over its duration. */
export interface EvenSchedule {
  kind: 'even';
}

export type DaySchedule = EvenSchedule | PeakSchedule;

/** mulberry32: a small seeded PRNG in [0, 1), so a peak day is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Evenly over [startAt, startAt + durationMs]: the first at startAt + durationMs / n, the last at the end. */
export function evenTimes(count: number, startAt: number, durationMs: number): number[] {
  return Array.from({ length: count }, (_, i) => startAt + Math.round((durationMs * (i + 1)) / count));
}

/** Length of a peak day in ms. */
export const peakDurationMs = (peak: PeakSchedule): number => peak.burstMs + peak.tailMs;

/** Number of tail filings: `tailPerMinute` for each minute of the tail (a part minute pro rata). */
const tailCount = (peak: PeakSchedule): number => Math.round((peak.tailPerMinute * peak.tailMs) / 60_000);

/**
 * Acceptance times of a peak day, ascending. Each phase is cut in equal slots, one filing per
 * slot at a random point inside it: jittered, yet every tail minute holds exactly `tailPerMinute`
 * (a minute is a whole number of slots when 60 s divides evenly by the rate).
 */
export function peakTimes(peak: PeakSchedule, startAt: number): number[] {
  for (const [name, value] of Object.entries({ burstCount: peak.burstCount, burstMs: peak.burstMs, tailPerMinute: peak.tailPerMinute, tailMs: peak.tailMs })) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`peak schedule: ${name} must be a number >= 0, got ${value}`);
  }
  if (peak.burstCount > 0 && peak.burstMs <= 0) throw new RangeError('peak schedule: a burst needs burstMs > 0');
  const random = seededRandom(peak.seed ?? 1);
  const slots = (count: number, from: number, span: number) => Array.from({ length: count }, (_, i) => from + Math.floor(((i + random()) * span) / count));
  return [...slots(peak.burstCount, startAt, peak.burstMs), ...slots(tailCount(peak), startAt + peak.burstMs, peak.tailMs)];
}

const isPeakForm = (form: string) => form === '4' || form === '8-K';

/**
 * Which fixture filing each of `count` peak filings copies: round-robin over the Form 4s and 8-Ks
 * (interleaved), every sixth one from the other forms instead (round-robin too), as a peak hour is
 * mostly insider reports and current reports.
 */
export function peakPicks<T extends { form: string }>(fixtures: readonly T[], count: number): T[] {
  const fours = fixtures.filter((f) => f.form === '4');
  const eightKs = fixtures.filter((f) => f.form === '8-K');
  const main = Array.from({ length: Math.max(fours.length, eightKs.length) }, (_, i) => [fours[i], eightKs[i]]).flat().filter((f): f is T => f !== undefined);
  const other = fixtures.filter((f) => !isPeakForm(f.form));
  if (main.length === 0 && other.length === 0) throw new Error('peak schedule: no fixture filings to draw from');
  const picks: T[] = [];
  let nextMain = 0;
  let nextOther = 0;
  for (let i = 0; i < count; i += 1) {
    const fromOther = other.length > 0 && (main.length === 0 || i % 6 === 5);
    picks.push(fromOther ? other[nextOther++ % other.length]! : main[nextMain++ % main.length]!);
  }
  return picks;
}

/**
 * The accession of the `n`-th clone (1-based) of a day in year `year`: `9999999000-<yy>-<n, 6 digits>`.
 * The filer-id part of an accession is the CIK of whoever submitted it; CIKs are assigned in
 * order and are far below 9,999,999,000, so a clone's accession can never be a real one.
 */
export function cloneAccession(year: string, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 999_999) throw new RangeError(`clone number out of range: ${n}`);
  return `9999999000-${year.slice(-2)}-${String(n).padStart(6, '0')}`;
}
