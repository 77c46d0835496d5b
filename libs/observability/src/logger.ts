import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  level?: string;
  name?: string;
}

/**
 * The one pino factory: JSON lines on stdout, ISO timestamps, secrets redacted wherever a caller
 * logs headers by mistake.
 */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    name: settings.name,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' },
  };
  return pino(options);
}
