import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  level?: string;
  name?: string;
}

/**
 * The one pino factory: JSON lines on stdout, ISO timestamps, secrets redacted wherever a caller
 * logs headers by mistake. Writes are asynchronous: under load, lines written while a write is in
 * flight go out together (one syscall per request log line cost the api measurable throughput);
 * pino flushes what is pending when the process exits.
 */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    name: settings.name,
    timestamp: () => isoTimeField(Date.now()),
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' },
  };
  return pino(options, pino.destination({ fd: 1, sync: false }));
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
