/** Minimal structured logger (pino-compatible) so libs/edgar needs no logging dependency. */
export interface EdgarLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export const silentLogger: EdgarLogger = { info: () => undefined, warn: () => undefined, debug: () => undefined };
