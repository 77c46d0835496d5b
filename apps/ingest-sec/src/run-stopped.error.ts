import { PublishGaveUpError } from '@app/messaging';

/** sysexits.h EX_TEMPFAIL: a broker outage outlasted KAFKA_PUBLISH_RETRY_MS; a scheduler retries the same command. */
export const EX_TEMPFAIL = 75;

/** What a one-shot run had done when a broker outage stopped it, and how the same command carries on. */
export interface RunStop {
  /** `after 3 of 10 filings done (...)`: the message's words, counted by progressOf. */
  progress: string;
  /** The summary line's fields. */
  done: Readonly<Record<string, unknown>>;
  resume: string;
}

/**
 * `after 2 of 3 companies done`, the count of every stopped run: `asked` is every item the
 * operator asked for (all of them, however few the run had reached or resolved when it stopped),
 * `done` the items it had finished (published, skipped or failed) before the one it stopped at.
 */
export function progressOf(done: number, asked: number, items: string): string {
  return `after ${done} of ${asked} ${items} done`;
}

/**
 * How a run over a list of filings (sections, segments) stopped at filing `index` (0-based):
 * `summary` is what it had done; the same command reads every filing again (same record ids).
 */
export function filingRunStop(index: number, total: number, summary: { readonly published: number }, started: number, accession: string): RunStop {
  return {
    progress: `${progressOf(index, total, 'filings')} (${summary.published} records published)`,
    done: { ...summary, durationMs: Date.now() - started, stoppedAt: accession },
    resume: 'run the same command again (the filings are read again: same record ids)',
  };
}

/** A one-shot run stopped because the broker did not take records within KAFKA_PUBLISH_RETRY_MS. */
export class RunStoppedError extends Error {
  constructor(
    readonly stop: RunStop,
    override readonly cause: PublishGaveUpError,
  ) {
    super(`stopped ${stop.progress}: ${cause.message}; ${stop.resume}`);
    this.name = 'RunStoppedError';
  }
}

/**
 * What a use case throws on an error: a broker outage (PublishGaveUpError) becomes a
 * RunStoppedError saying what `stop()` says was done before it; any other error is thrown as it is.
 */
export function stoppedBy(error: unknown, stop: () => RunStop): unknown {
  return error instanceof PublishGaveUpError ? new RunStoppedError(stop(), error) : error;
}

/**
 * How a one-shot run that threw ends, the rule of the companies and filings runs and ingest-form4:
 * a broker outage exits 75 with a line saying why and a JSON line of what was done before it (both
 * for stderr); null for any other error (rethrown: exit 1).
 */
export function stoppedExit(error: unknown, app: string): { code: number; lines: string[] } | null {
  if (error instanceof RunStoppedError) {
    return { code: EX_TEMPFAIL, lines: [`${app}: ${error.message}`, JSON.stringify({ level: 'error', msg: `${app} stopped`, ...error.stop.done })] };
  }
  // An outage the use case did not wrap: nothing known of what was done, the same exit.
  if (error instanceof PublishGaveUpError) return { code: EX_TEMPFAIL, lines: [`${app}: stopped: ${error.message}; run the same command again`] };
  return null;
}

/** Prints a broker outage's lines on stderr and returns 75; rethrows any other error. */
export function exitStopped(error: unknown, app: string): number {
  const exit = stoppedExit(error, app);
  if (!exit) throw error;
  for (const line of exit.lines) console.error(line);
  return exit.code;
}
