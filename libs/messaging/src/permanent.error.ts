/**
 * Thrown by a consumer handler when the record can never be handled (bad data, not a broken
 * dependency): the runner sends it to the topic's DLQ and commits. Any other error is transient:
 * the runner backs off and retries the same record without committing.
 */
export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/** A record failed its topic's schemas: a producer never writes it. */
export class InvalidRecordError extends Error {
  constructor(
    readonly topic: string,
    readonly failures: ReadonlyArray<{ index: number; key: string | undefined; error: string }>,
  ) {
    super(
      `refusing to publish ${failures.length} invalid record(s) to ${topic}: ` +
        failures.slice(0, 3).map((f) => `#${f.index} (${f.key ?? 'no key'}): ${f.error}`).join(' | '),
    );
    this.name = 'InvalidRecordError';
  }
}
