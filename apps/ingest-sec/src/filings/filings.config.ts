import { z } from 'zod';
import { ConfigError, opsConfig } from '@app/config';
import { ingestSecConfigSchema } from '../ingest-sec.config';

/** Settings of the filings use case only (the shared EDGAR/Kafka/coverage ones come from ingestSecConfigSchema). */
export const filingsSettingsSchema = opsConfig.extend({
  /** Live mode: seconds between polls of the daily indexes and current-events listings (the feed's backstop). */
  FILINGS_POLL_INTERVAL_S: z.coerce.number().int().min(5).default(60),
  /** Live mode: ms between latest-filings feed polls while new filings keep coming. */
  FILINGS_FEED_MIN_INTERVAL_MS: z.coerce.number().int().min(250).default(1000),
  /** Live mode: the longest wait between feed polls while EDGAR accepts filings (weekdays 6:00-22:00 New York). */
  FILINGS_FEED_MAX_INTERVAL_MS: z.coerce.number().int().min(250).default(2000),
  /** Live mode: the longest wait between feed polls while EDGAR accepts none (nights, weekends). */
  FILINGS_FEED_QUIET_INTERVAL_MS: z.coerce.number().int().min(250).default(30_000),
  /** Live mode: index pages read a poll for the acceptance time of today's listing rows the feed did not show first. */
  FILINGS_ACCEPTANCE_LOOKUPS: z.coerce.number().int().min(0).default(100),
  /** Live mode: feed pages (100 filings each) read in one poll when every entry is new (a burst, or after a pause). */
  FILINGS_FEED_MAX_PAGES: z.coerce.number().int().min(1).max(20).default(5),
  /** Live mode: form types asked of the current-events listing (one request each per poll). */
  FILINGS_CURRENT_FORMS: z
    .string()
    .default('10-K,10-Q,8-K')
    .transform((s) => s.split(',').map((f) => f.trim()).filter(Boolean)),
  /** Live mode: accessions remembered for in-process dedupe (oldest forgotten first). */
  FILINGS_DEDUPE_SIZE: z.coerce.number().int().min(100).default(50_000),
  /** Backfill: companies done by a run a broker outage stopped; the same command skips them. */
  FILINGS_CHECKPOINT: z.string().min(1).default('.run/checkpoints/ingest-sec-filings-backfill.json'),
});

export type FilingsSettings = z.infer<typeof filingsSettingsSchema>;

/** Parses both the shared ingest-sec environment and the filings settings; every invalid variable is reported at once. */
export function parseFilingsConfig(env: NodeJS.ProcessEnv) {
  const shared = ingestSecConfigSchema.safeParse(env);
  const own = filingsSettingsSchema.safeParse(env);
  if (!shared.success || !own.success) {
    const issues = [...(shared.error?.issues ?? []), ...(own.error?.issues ?? [])];
    throw new ConfigError(issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return { ...shared.data, ...own.data };
}

export type FilingsConfig = ReturnType<typeof parseFilingsConfig>;

/** Command line of `filings.main.ts`. */
export type FilingsCommand =
  | { mode: 'backfill'; companies: string[]; from: string; to: string }
  | { mode: 'live'; once: boolean; date?: string; intervalS?: number }
  | { mode: 'quarter'; year: number; quarter: 1 | 2 | 3 | 4; forms: string[] };

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `backfill [--companies MSFT,TSLA,789019] --from 2024-01-01 --to 2025-12-31` (no --companies: the SEC_COVERAGE list)
 * | `live [--once] [--date D] [--interval S]` | `quarter --quarter 2024Q1 [--forms NPORT-P,NPORT-P/A]`.
 */

export const FILINGS_USAGE = `usage: npm run ingest-sec -- filings <mode> [options]
  filings backfill --companies MSFT,TSLA --from 2024-01-01 --to 2025-12-31
  filings live [--once] [--date YYYY-MM-DD] [--interval 60]
  filings quarter --quarter 2024Q1 [--forms NPORT-P,NPORT-P/A]`;

export function parseFilingsArgs(argv: readonly string[]): FilingsCommand | { help: true } | { error: string } {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { help: true };
  const [mode, ...rest] = argv;
  const opts = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) return { error: `unexpected argument ${JSON.stringify(a)}` };
    const next = rest[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      opts.set(a.slice(2), next);
      i++;
    } else opts.set(a.slice(2), true);
  }
  const str = (k: string): string | undefined => (typeof opts.get(k) === 'string' ? (opts.get(k) as string) : undefined);
  if (mode === 'backfill') {
    const companies = (str('companies') ?? '').split(',').map((c) => c.trim()).filter(Boolean);
    const from = str('from') ?? '1993-01-01';
    const to = str('to') ?? new Date().toISOString().slice(0, 10);
    if (!DATE_RE.test(from) || !DATE_RE.test(to) || from > to) return { error: '--from/--to must be YYYY-MM-DD dates, from <= to' };
    return { mode: 'backfill', companies, from, to };
  }
  if (mode === 'live') {
    const date = str('date');
    if (date !== undefined && !DATE_RE.test(date)) return { error: '--date must be YYYY-MM-DD' };
    const interval = str('interval');
    if (interval !== undefined && !/^\d+$/.test(interval)) return { error: '--interval must be seconds' };
    return { mode: 'live', once: opts.has('once'), ...(date ? { date } : {}), ...(interval ? { intervalS: Number(interval) } : {}) };
  }
  if (mode === 'quarter') {
    const m = /^(\d{4})Q([1-4])$/i.exec(str('quarter') ?? '');
    if (!m) return { error: '--quarter must be YYYYQn, e.g. 2024Q1' };
    const forms = (str('forms') ?? 'NPORT-P,NPORT-P/A').split(',').map((f) => f.trim()).filter(Boolean);
    return { mode: 'quarter', year: Number(m[1]), quarter: Number(m[2]) as 1 | 2 | 3 | 4, forms };
  }
  return { error: mode === undefined ? 'a mode is needed: backfill, live or quarter' : `unknown mode ${JSON.stringify(mode)} (known: backfill, live, quarter)` };
}
