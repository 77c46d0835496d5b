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
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' },
  };
  return pino(options, pino.destination({ fd: 1, sync: false }));
}
