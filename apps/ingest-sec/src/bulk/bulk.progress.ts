import { Presets, SingleBar } from 'cli-progress';
import type { Logger } from '@app/observability';

export interface BulkProgress {
  entriesDone: number;
  entriesTotal: number | null;
  /** Entries done when this run started (skipped: a resumed run). */
  entriesAtStart: number;
  recordsPublished: number;
  /** Records published by this run. */
  recordsThisRun: number;
  elapsedMs: number;
}

export interface ProgressReporter {
  update(progress: BulkProgress): void;
  stop(): void;
}

const rate = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : 0);

/** Seconds left at this run's pace, or null before there is one. */
export function etaSeconds(p: BulkProgress): number | null {
  const done = p.entriesDone - p.entriesAtStart;
  if (p.entriesTotal === null || done <= 0 || p.elapsedMs <= 0) return null;
  return Math.round(((p.entriesTotal - p.entriesDone) * p.elapsedMs) / done / 1000);
}

/** The structured progress line logged without a terminal. */
export function progressFields(p: BulkProgress): Record<string, number | null> {
  return {
    entries_done: p.entriesDone,
    entries_total: p.entriesTotal,
    records_published: p.recordsPublished,
    records_per_s: Math.round(rate(p.recordsThisRun, p.elapsedMs)),
    entries_per_s: Math.round(rate(p.entriesDone - p.entriesAtStart, p.elapsedMs)),
    eta_s: etaSeconds(p),
    rss_mb: Math.round(process.memoryUsage.rss() / 1048576),
  };
}

/**
 * On a terminal, a progress bar (cli-progress, on stderr unless `stream` says otherwise: stdout
 * keeps the summary): entries done of the total, records/s and the ETA. Otherwise a structured log
 * line at most every `intervalMs`.
 */
export function progressReporter(options: { tty: boolean; logger: Logger; intervalMs: number; stream?: NodeJS.WritableStream; label?: string; unit?: string }): ProgressReporter {
  if (options.tty) {
    const bar = new SingleBar(
      {
        format: `${options.label ?? 'submissions.zip'} {bar} {percentage}% | {value}/{total} ${options.unit ?? 'entries'} | {records} records | {rps} records/s | ETA {eta_formatted}`,
        etaBuffer: 200,
        fps: 5,
        stream: options.stream ?? process.stderr,
      },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        const payload = { records: p.recordsPublished, rps: Math.round(rate(p.recordsThisRun, p.elapsedMs)) };
        if (!started) {
          bar.start(p.entriesTotal ?? 0, p.entriesDone, payload);
          started = true;
        } else bar.update(p.entriesDone, payload);
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  let last = 0;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < options.intervalMs) return;
      last = now;
      options.logger.info(progressFields(p), 'bulk backfill progress');
    },
    stop: () => undefined,
  };
}
