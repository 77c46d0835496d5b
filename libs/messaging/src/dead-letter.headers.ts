/** Where a dead-lettered record came from and why it failed: headers of the DLQ message. */
export interface DeadLetterSource {
  topic: string;
  partition: number;
  offset: string;
}

/** Reasons are truncated: a header is not the place for a whole stack trace. */
const MAX_REASON_LENGTH = 2000;

/** One earlier failure of a record that was requeued from its DLQ and failed again. */
export interface DeadLetterError {
  reason: string;
  failed_at: string;
  /** Where it failed: `<topic>/<partition>/<offset>`. */
  source?: string;
}

/** JSON array of the record's earlier failures (oldest first): set by a requeue, kept by every later dead-lettering. */
export const PREVIOUS_ERRORS_HEADER = 'dlq-previous-errors';
/** On a requeued record: the DLQ record it came from (`<dlq topic>/<partition>/<offset>`) and when. */
export const REQUEUED_FROM_HEADER = 'dlq-requeued-from';
export const REQUEUED_AT_HEADER = 'dlq-requeued-at';
/** Earlier failures kept per record: the header stays small however often a record goes round. */
const MAX_PREVIOUS_ERRORS = 10;

const truncate = (reason: string): string => (reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason);

/** The earlier failures a record's headers carry; [] when none or unreadable. */
export function previousErrors(headers: Record<string, string>): DeadLetterError[] {
  const raw = headers[PREVIOUS_ERRORS_HEADER];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((e: unknown): DeadLetterError[] => {
      const o = e as Partial<DeadLetterError> | null;
      if (!o || typeof o.reason !== 'string') return [];
      return [{ reason: o.reason, failed_at: typeof o.failed_at === 'string' ? o.failed_at : '', ...(typeof o.source === 'string' ? { source: o.source } : {}) }];
    });
  } catch {
    return [];
  }
}

/** The failure a DLQ record's own dlq-* headers describe, or null when they name none. */
function ownFailure(headers: Record<string, string>): DeadLetterError | null {
  const reason = headers['dlq-reason'];
  if (reason === undefined) return null;
  const topic = headers['dlq-source-topic'];
  return {
    reason,
    failed_at: headers['dlq-failed-at'] ?? '',
    ...(topic ? { source: `${topic}/${headers['dlq-source-partition'] ?? '?'}/${headers['dlq-source-offset'] ?? '?'}` } : {}),
  };
}

function withHistory(headers: Record<string, string>, history: DeadLetterError[]): Record<string, string> {
  const out = { ...headers };
  if (history.length > 0) out[PREVIOUS_ERRORS_HEADER] = JSON.stringify(history.slice(-MAX_PREVIOUS_ERRORS));
  return out;
}

export function deadLetterHeaders(
  source: DeadLetterSource,
  reason: string,
  failedAt: Date,
  original: Record<string, string> = {},
): Record<string, string> {
  // A record that already carries a failure (requeued from a DLQ, or republished from one as it
  // was) keeps it: the earlier reasons go to dlq-previous-errors, the new one to dlq-reason.
  const earlier = ownFailure(original);
  const history = [...previousErrors(original), ...(earlier ? [earlier] : [])];
  return withHistory(
    {
      // The original headers travel along, so a replay from the DLQ keeps them.
      ...original,
      'dlq-reason': truncate(reason),
      'dlq-source-topic': source.topic,
      'dlq-source-partition': String(source.partition),
      'dlq-source-offset': source.offset,
      'dlq-failed-at': failedAt.toISOString(),
    },
    history,
  );
}

/**
 * Headers of a record requeued from its DLQ onto the source topic: the original headers, the
 * failure it had (and any before) in dlq-previous-errors, where in the DLQ it came from and when;
 * no dlq-reason/dlq-source-*, so on the source topic it reads as a record, not as a dead letter.
 */
export function requeueHeaders(dlqHeaders: Record<string, string>, from: DeadLetterSource, requeuedAt: Date): Record<string, string> {
  const own = ownFailure(dlqHeaders);
  const history = [...previousErrors(dlqHeaders), ...(own ? [own] : [])];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(dlqHeaders)) {
    if (name === 'dlq-reason' || name === 'dlq-failed-at' || name.startsWith('dlq-source-') || name === PREVIOUS_ERRORS_HEADER) continue;
    out[name] = value;
  }
  out[REQUEUED_FROM_HEADER] = `${from.topic}/${from.partition}/${from.offset}`;
  out[REQUEUED_AT_HEADER] = requeuedAt.toISOString();
  return withHistory(out, history);
}

/** What a DLQ record's headers say about its failure, for operators. */
export interface DeadLetterInfo {
  reason: string | null;
  failedAt: string | null;
  source: DeadLetterSource | null;
  /** Earlier failures (requeued and failed again), oldest first. */
  previous: DeadLetterError[];
  requeuedFrom: string | null;
}

export function deadLetterInfo(headers: Record<string, string>): DeadLetterInfo {
  const topic = headers['dlq-source-topic'];
  return {
    reason: headers['dlq-reason'] ?? null,
    failedAt: headers['dlq-failed-at'] ?? null,
    source: topic ? { topic, partition: Number(headers['dlq-source-partition'] ?? '0'), offset: headers['dlq-source-offset'] ?? '' } : null,
    previous: previousErrors(headers),
    requeuedFrom: headers[REQUEUED_FROM_HEADER] ?? null,
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
