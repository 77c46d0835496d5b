import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PeakSchedule } from './day-schedule';
import { dayManifest, type DayDelays } from './edgar-day';
import { startFixtureServer, type FixtureServerOptions } from './fixture-server';

/**
 * Runs the fixture EDGAR server until SIGINT/SIGTERM (used by scripts/run.sh and scripts/live.sh):
 *   node dist/libs/testing/src/fixture-server.cli.js [--dir <fixturesDir>] [--port <port>]
 *     [--day] [--day-date YYYY-MM-DD] [--day-seconds N] [--day-background N] [--day-manifest <file>] [--requests-log <file>]
 *     [--day-index-delay-ms N] [--day-complete-submission-delay-ms N] [--day-feed-delay-ms N] [--day-listing-delay-ms N] [--day-daily-index immediate|night]
 *     [--day-peak burstCount,burstMs,tailPerMinute,tailMs [--day-peak-seed N]] [--day-start-delay-ms N]
 *     [--throttle-after-ms N [--throttle-path-prefix P]]
 * --day publishes a simulated EDGAR day (libs/testing/src/edgar-day.ts): the fixture filings appear
 * over --day-seconds (default 60), with --day-background rows of a real daily index listed too.
 * --day-*-delay-ms: how long after acceptance a filing's directory (index), its complete submission, the latest-filings Atom
 * feed and the current-events listing show it (default 0 each); --day-daily-index night publishes
 * the day's form index only once the day is over (default immediate). --day-peak accepts burstCount
 * filings within the first burstMs, then tailPerMinute a minute for tailMs (replaces --day-seconds;
 * fixture filings are cloned under synthetic accessions when more are needed; the seed fixes the jitter).
 * --day-start-delay-ms: the day starts that long after the server (default 0).
 * --day-manifest writes the day's filings (JSON: accession, cik, form, acceptedAt, visibleAt per
 * source, clone, ...) for the day's coverage report and benches; --requests-log appends one line per
 * answered request (`<arrival epoch ms> <status> <path>`), which the day's coverage report reads for
 * the request rate. --throttle-after-ms answers one request (the first under --throttle-path-prefix
 * from then on) with SEC's 403, to watch every reader pause.
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function intArg(name: string): number | undefined {
  const v = arg(name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number`);
  return Number(v);
}

/** `--day-peak burstCount,burstMs,tailPerMinute,tailMs` and `--day-peak-seed`. */
function peakArg(): PeakSchedule | undefined {
  const v = arg('--day-peak');
  if (v === undefined) return undefined;
  const parts = v.split(',');
  if (parts.length !== 4 || parts.some((p) => !/^\d+$/.test(p))) throw new Error('--day-peak must be burstCount,burstMs,tailPerMinute,tailMs (whole numbers)');
  const [burstCount, burstMs, tailPerMinute, tailMs] = parts.map(Number) as [number, number, number, number];
  return { kind: 'peak', burstCount, burstMs, tailPerMinute, tailMs, seed: intArg('--day-peak-seed') };
}

function dailyIndexArg(): DayDelays['dailyIndex'] {
  const v = arg('--day-daily-index');
  if (v !== undefined && v !== 'immediate' && v !== 'night') throw new Error('--day-daily-index must be immediate or night');
  return v;
}

async function main(): Promise<void> {
  const port = intArg('--port');
  const seconds = intArg('--day-seconds');
  const delays: DayDelays = { indexMs: intArg('--day-index-delay-ms'), completeSubmissionMs: intArg('--day-complete-submission-delay-ms'), feedMs: intArg('--day-feed-delay-ms'), listingMs: intArg('--day-listing-delay-ms'), dailyIndex: dailyIndexArg() };
  const day: FixtureServerOptions['day'] = process.argv.includes('--day')
    ? {
        date: arg('--day-date'),
        // The day's first filing can wait for a pipeline still starting (a bench subscribes its receiver first).
        startAt: Date.now() + (intArg('--day-start-delay-ms') ?? 0),
        durationMs: seconds === undefined ? undefined : seconds * 1000,
        background: intArg('--day-background'),
        delays,
        schedule: peakArg(),
      }
    : undefined;
  const throttleAfterMs = intArg('--throttle-after-ms');
  const throttleOnce = throttleAfterMs === undefined ? undefined : { afterMs: throttleAfterMs, pathPrefix: arg('--throttle-path-prefix') };
  const server = await startFixtureServer({ fixturesDir: arg('--dir'), port, day, throttleOnce });
  const log = arg('--requests-log');
  if (log) {
    writeFileSync(log, '');
    // Flushed every half second: the log trails the server by at most that.
    let written = 0;
    setInterval(() => {
      const answered = server.requests.slice(written);
      const done = answered.findIndex((r) => r.status === 0);
      const lines = (done < 0 ? answered : answered.slice(0, done)).map((r) => `${r.at} ${r.status} ${r.path}\n`);
      if (lines.length > 0) appendFileSync(log, lines.join(''));
      written += lines.length;
    }, 500).unref();
  }
  console.log(`fixture EDGAR server on ${server.url} (${server.paths().length} paths)`);
  if (server.day) {
    const d = server.day;
    const manifest = arg('--day-manifest');
    if (manifest) {
      writeFileSync(`${manifest}.tmp`, JSON.stringify(dayManifest(d, day ?? {}, server.fixturesDir, server.url), null, 2));
      renameSync(`${manifest}.tmp`, manifest);
    }
    console.log(`simulated EDGAR day ${d.date}: ${d.filings.length} filings from ${new Date(d.startAt).toISOString()} to ${new Date(d.endAt).toISOString()}`);
  }
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
