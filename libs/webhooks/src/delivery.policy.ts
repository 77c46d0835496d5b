/**
 * What happens after a delivery attempt: pure, so the retry rules are tested without a clock or
 * a network. Delays are in milliseconds.
 */

/** Standard retry schedule: the delay before retry 1, 2, ... (then the delivery fails). */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** An attempt (connect, send, response) taking longer fails. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 15_000;

/** An endpoint failing without a success for this long is disabled (reason failing). */
export const DEFAULT_DISABLE_AFTER = '5d';

/** ±20 %: spreads the retries of many deliveries that failed together. */
export const RETRY_JITTER = 0.2;

/** Statuses that ask the sender to slow down (with or without Retry-After). */
export const SLOW_DOWN_STATUSES: readonly number[] = [429, 502, 504];

/** A Retry-After longer than this is capped: a receiver cannot park a delivery for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** `"100ms"`, `"5s"`, `"30m"`, `"2h"`, `"1d"` (decimals allowed) -> milliseconds. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!m) throw new Error(`invalid duration "${text}": expected a number and a unit (ms, s, m, h, d)`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
}

/** `"5s,5m,30m"` -> [5000, 300000, 1800000]; at least one step. */
export function parseRetrySchedule(text: string): number[] {
  const steps = text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (steps.length === 0) throw new Error('a retry schedule needs at least one step');
  return steps.map(parseDuration);
}

/** `ms` moved by up to ±ratio, `random` in [0, 1). */
export function withJitter(ms: number, random: () => number = Math.random, ratio = RETRY_JITTER): number {
  return Math.max(0, Math.round(ms * (1 + ratio * (2 * random() - 1))));
}

/**
 * Retry-After (RFC 9110): delay-seconds or an HTTP-date. Null when absent or unreadable;
 * a date in the past is 0.
 */
export function parseRetryAfter(value: string | undefined | null, now: Date): number | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

/**
 * One attempt's outcome: any 2xx succeeds; 410 Gone means the receiver wants no more (the
 * endpoint is disabled); 429/502/504 slow down; anything else (other statuses, network errors,
 * timeouts: status null, redirects: not followed) is a failure that is retried.
 */
export type AttemptOutcome = 'succeeded' | 'gone' | 'slow_down' | 'failed';

export function classifyAttempt(statusCode: number | null): AttemptOutcome {
  if (statusCode === null) return 'failed';
  if (statusCode >= 200 && statusCode < 300) return 'succeeded';
  if (statusCode === 410) return 'gone';
  if (SLOW_DOWN_STATUSES.includes(statusCode)) return 'slow_down';
  return 'failed';
}

export type NextStep =
  | { kind: 'succeeded' }
  /** The endpoint is disabled (reason gone); the delivery fails. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  /** The schedule is used up: the delivery fails (recoverable). */
  | { kind: 'exhausted' };

export interface AttemptResult {
  statusCode: number | null;
  /** The response's Retry-After header, if any. */
  retryAfter?: string | null;
  /** Attempts made so far, this one included (1-based). */
  attempts: number;
}

/**
 * After attempt n (1-based) a failure is retried after schedule[n-1] ± jitter, until the schedule
 * is used up. Slow-down statuses wait twice the step; a Retry-After is honoured when longer than
 * the step (next attempt at max(step, Retry-After)). Retry-After never adds attempts.
 */
export function nextStep(result: AttemptResult, schedule: readonly number[], now: Date, random: () => number = Math.random): NextStep {
  const outcome = classifyAttempt(result.statusCode);
  if (outcome === 'succeeded') return { kind: 'succeeded' };
  if (outcome === 'gone') return { kind: 'gone' };
  const step = schedule[result.attempts - 1];
  if (step === undefined) return { kind: 'exhausted' };
  const scheduled = withJitter(outcome === 'slow_down' ? step * 2 : step, random);
  const retryAfter = parseRetryAfter(result.retryAfter, now);
  return { kind: 'retry', delayMs: Math.max(scheduled, retryAfter ?? 0) };
}
