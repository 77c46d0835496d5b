import { existsSync, readFileSync } from 'node:fs';
import { checkResources, expectedResources, formatCoverage, requestFigures } from './day-coverage';
import { firstPolledVisibility, type DayFiling } from './edgar-day';

/**
 * The coverage table of a simulated EDGAR day (scripts/live.sh coverage):
 *   node dist/libs/testing/src/day-coverage.cli.js --api <url> --key <sk_...> --day <day.json>
 *     [--requests <fixture request log>] [--json]
 * Prints, for every filing that appeared, each resource that should derive from it and whether
 * the API serves it, the share served, and the fixture server's request figures. Exit 0 always
 * when it could ask (the table is the answer); 2 on bad input.
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const api = arg('--api');
  const key = arg('--key');
  const dayFile = arg('--day');
  if (!api || !key || !dayFile || !existsSync(dayFile)) {
    console.error('usage: day-coverage --api <url> --key <sk_...> --day <day.json> [--requests <log>] [--json]');
    return 2;
  }
  const day = JSON.parse(readFileSync(dayFile, 'utf8')) as { fixturesDir: string; date: string; filings: DayFiling[] };
  const now = Date.now();
  // Appeared: on a source the pipeline polls (the feed or the current-events listing).
  const appeared = day.filings.filter((f) => firstPolledVisibility(f) <= now);
  const rows = await checkResources(api, key, expectedResources(day.fixturesDir, day.date, appeared));
  const log = arg('--requests');
  const figures = log && existsSync(log) ? requestFigures(readFileSync(log, 'utf8')) : null;
  const text = process.argv.includes('--json')
    ? JSON.stringify({ appeared: appeared.length, rows, figures })
    : `${appeared.length} of ${day.filings.length} filings of the day appeared\n\n${formatCoverage(rows, figures)}`;
  // Exit once stdout has taken it all: a pipe takes 64 KiB at a time, and a large day prints more.
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
