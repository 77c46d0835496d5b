/** Where a dead-lettered record came from and why it failed: headers of the DLQ message. */
export interface DeadLetterSource {
  topic: string;
  partition: number;
  offset: string;
}

/** Reasons are truncated: a header is not the place for a whole stack trace. */
const MAX_REASON_LENGTH = 2000;

export function deadLetterHeaders(
  source: DeadLetterSource,
  reason: string,
  failedAt: Date,
  original: Record<string, string> = {},
): Record<string, string> {
  return {
    // The original headers travel along, so a replay from the DLQ keeps them.
    ...original,
    'dlq-reason': reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason,
    'dlq-source-topic': source.topic,
    'dlq-source-partition': String(source.partition),
    'dlq-source-offset': source.offset,
    'dlq-failed-at': failedAt.toISOString(),
  };
}

/** Header values of a kafkajs message as plain strings (arrays joined, undefined dropped). */
export function headersToStrings(
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
  }
  return out;
}
