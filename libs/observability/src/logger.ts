import pino, { type Logger, type LoggerOptions } from 'pino';
import { redactSecrets } from './redaction';

export type { Logger } from 'pino';

export interface LoggerSettings {
  level?: string;
  name?: string;
  /** Where the JSON lines go (default 1, stdout). */
  fd?: number;
}

/** Log lines are written in chunks of at least this many bytes... */
const LOG_CHUNK_BYTES = 4096;
/** ...or after this long, whichever comes first: a quiet process's lines are never held longer. */
export const LOG_FLUSH_MS = 250;

/**
 * The one pino factory: JSON lines on stdout, ISO timestamps, no secret in any line. Every line as
 * written (message, fields at any depth, child bindings, error stacks) passes through redactSecrets:
 * API keys, webhook secrets, secret query parameters (a URL with `?api_key=`), Authorization and
 * Cookie headers become `[redacted]`, whoever logged them, for 0.3-0.5 µs a line. Writes are
 * asynchronous and batched: one write per request log line cost the api a thread-pool round trip per request (65-80 µs of CPU, bench/scale/README.md).
 * pino writes what is pending when the process exits; a SIGKILL loses the lines not yet written
 * (about the last LOG_FLUSH_MS at most).
 */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    name: settings.name,
    timestamp: () => isoTimeField(Date.now()),
    hooks: { streamWrite: redactSecrets },
  };
  return pino(options, pino.destination({ fd: settings.fd ?? 1, sync: false, minLength: LOG_CHUNK_BYTES, periodicFlush: LOG_FLUSH_MS }));
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * pino's `,"time":"<ISO 8601>"` field, as pino.stdTimeFunctions.isoTime writes it, without a Date
 * and toISOString per line: the text up to the seconds is made once per second.
 */
export function isoTimeField(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
  }
  const ms = epochMs - second * 1000;
  return `,"time":"${cachedPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}
