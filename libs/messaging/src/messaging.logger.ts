/**
 * The logger the messaging lib writes to: a subset of pino's API (`(obj, msg)` calls), so a pino
 * logger can be passed as is.
 */
export interface MessagingLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Fallback when no logger is given: warnings and errors to stderr as one JSON line each. */
export const stderrLogger: MessagingLogger = {
  info: () => undefined,
  warn: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...obj })}\n`),
  error: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'error', msg, ...obj })}\n`),
};
