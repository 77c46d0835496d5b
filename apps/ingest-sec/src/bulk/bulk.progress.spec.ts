import { Writable } from 'node:stream';
import pino from 'pino';
import { etaSeconds, progressReporter, type BulkProgress } from './bulk.progress';

/** Everything written to it, as text; a terminal when `tty` (cli-progress draws only on one). */
function capture(tty: boolean): Writable & { text: () => string; isTTY?: boolean; columns?: number } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { text: () => string; isTTY?: boolean; columns?: number };
  stream.text = () => chunks.join('');
  if (tty) Object.assign(stream, { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return stream;
}

const at = (entriesDone: number, elapsedMs: number, recordsThisRun: number): BulkProgress => ({
  entriesDone,
  entriesTotal: 1000,
  entriesAtStart: 100,
  recordsPublished: 2_000 + recordsThisRun,
  recordsThisRun,
  elapsedMs,
});

describe('bulk backfill progress', () => {
  afterEach(() => jest.useRealTimers());

  it('estimates the time left from this run pace', () => {
    expect(etaSeconds(at(300, 20_000, 0))).toBe(70);
    expect(etaSeconds(at(100, 20_000, 0))).toBeNull();
    expect(etaSeconds({ ...at(300, 20_000, 0), entriesTotal: null })).toBeNull();
  });

  it('without a terminal: one structured log line at most every interval, with rates and ETA', () => {
    jest.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
    const out = capture(false);
    const reporter = progressReporter({ tty: false, logger: pino({ level: 'info' }, out), intervalMs: 5_000 });
    reporter.update(at(200, 10_000, 5_000));
    jest.advanceTimersByTime(4_000);
    reporter.update(at(250, 14_000, 6_000)); // inside the interval: not logged
    jest.advanceTimersByTime(1_000);
    reporter.update(at(300, 20_000, 8_000));
    reporter.stop();
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ msg: 'bulk backfill progress', entries_done: 200, entries_total: 1000, records_published: 7_000, records_per_s: 500, entries_per_s: 10, eta_s: 80 });
    expect(lines[1]).toMatchObject({ entries_done: 300, records_published: 10_000, records_per_s: 400, entries_per_s: 10, eta_s: 70 });
    expect(lines[1]!.rss_mb).toEqual(expect.any(Number));
  });

  it('on a terminal: a bar with entries done of the total, records, records/s and ETA, and no log line', () => {
    const out = capture(true);
    const log = capture(false);
    const reporter = progressReporter({ tty: true, logger: pino({ level: 'info' }, log), intervalMs: 5_000, stream: out });
    reporter.update(at(200, 10_000, 5_000));
    reporter.update(at(300, 20_000, 8_000));
    reporter.stop();
    const drawn = out.text();
    expect(drawn).toContain('submissions.zip');
    expect(drawn).toMatch(/30% \| 300\/1000 entries \| 10000 records \| 400 records\/s \| ETA \S+/);
    expect(log.text()).toBe('');
  });
});
