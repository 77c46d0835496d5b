import { z } from 'zod';
import type { CompanySelector } from '@app/edgar';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig, opsConfig } from '@app/config';

/**
 * One Form 4 filing to read: a CIK it is filed under (the issuer's, usually), its accession and,
 * when known, its primary document (an Archive path, or a file name in the filing's folder).
 * Without a document the complete submission `.txt` is read.
 */
export interface Form4FilingRef {
  cik: string;
  accession: string;
  document: string | null;
}

const FILING_REF = /^(\d{1,10}):(\d{10}-\d{2}-\d{6})(?::(\S+))?$/;

/** `<cik>:<accession>[:<path>]` -> a filing reference, or null when malformed. */
export function parseForm4FilingRef(token: string): Form4FilingRef | null {
  const m = FILING_REF.exec(token.trim());
  return m ? { cik: m[1]!.replace(/^0+(?=\d)/, '').padStart(10, '0'), accession: m[2]!, document: m[3] ?? null } : null;
}

/** `all`, `none`, or a list of tickers and/or CIKs (case-insensitive; CIKs padded or not). */
/** Which issuers' Form 4 filings are covered (the shared selector of libs/edgar). */
export type IssuerSelector = CompanySelector;

function parseSelector(raw: string): IssuerSelector {
  const value = raw.trim().toLowerCase();
  if (value === 'all') return { kind: 'all' };
  if (value === 'none' || value === '') return { kind: 'none' };
  const tickers = new Set<string>();
  const ciks = new Set<string>();
  for (const token of raw.split(',').map((t) => t.trim()).filter(Boolean)) {
    if (/^\d{1,10}$/.test(token)) ciks.add(token.replace(/^0+/, '').padStart(10, '0'));
    else tickers.add(token.toUpperCase());
  }
  return { kind: 'list', tickers, ciks };
}

const selector = (what: string) =>
  z
    .string()
    .refine((s) => s.split(',').every((t) => t.trim() === '' || /^[A-Za-z0-9.-]+$/.test(t.trim())), {
      message: `${what}: "all", "none" or a comma list of tickers / CIKs`,
    })
    .transform(parseSelector);

const filingList = z
  .string()
  .refine((s) => s.split(',').map((t) => t.trim()).filter(Boolean).every((t) => parseForm4FilingRef(t) !== null), {
    message: 'a comma list of <issuerCik>:<accession>[:<path>] (e.g. 789019:0001062993-24-016587:form4.xml)',
  })
  .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean).map((t) => parseForm4FilingRef(t)!));

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

export const ingestForm4ConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend(opsConfig.shape)
  .extend({
    /** Filings to read on every run (the entry point adds each `--filing` argument). */
    FORM4_FILINGS: filingList.default([]),
    /**
     * Covered issuers: Form 4s found in submissions or on the filings topic are published only when
     * their issuer is one of these (explicit filings always are).
     */
    FORM4_ISSUERS: selector('FORM4_ISSUERS').default(parseSelector('all')),
    /**
     * Issuers whose submissions JSON is read for Form 4 / 4/A filings. Unset: the FORM4_ISSUERS list,
     * or none when that is `all` (thousands of issuers: name them).
     */
    FORM4_SUBMISSIONS: selector('FORM4_SUBMISSIONS')
      .refine((s) => s.kind !== 'all', { message: 'FORM4_SUBMISSIONS: "none" or a comma list of tickers / CIKs (not "all")' })
      .optional(),
    /** Submissions discovery: only filings filed on or after / on or before these dates. */
    FORM4_FROM: date.optional(),
    FORM4_TO: date.optional(),
    /** Submissions discovery: at most this many filings per issuer, newest first. */
    FORM4_LATEST: z.coerce.number().int().min(1).max(2000).default(20),
    /** Consumer group of `--follow` on edgar.filings.v1. */
    FORM4_GROUP_ID: z.string().min(1).default('ingest-form4'),
    /** Progress log every N filings. */
    FORM4_PROGRESS_EVERY: z.coerce.number().int().min(1).default(25),
    /**
     * A one-shot run stopped by a broker outage writes the accessions it published here; the same
     * command skips them, finishes, and removes the file.
     */
    FORM4_CHECKPOINT: z.string().min(1).default('.run/checkpoints/ingest-form4.json'),
  })
  .refine((c) => !c.FORM4_FROM || !c.FORM4_TO || c.FORM4_FROM <= c.FORM4_TO, { message: 'FORM4_FROM must not be after FORM4_TO', path: ['FORM4_FROM'] })
  .transform((c) => ({
    ...c,
    FORM4_SUBMISSIONS: c.FORM4_SUBMISSIONS ?? (c.FORM4_ISSUERS.kind === 'list' ? c.FORM4_ISSUERS : ({ kind: 'none' } as const)),
  }));

export type IngestForm4Config = z.infer<typeof ingestForm4ConfigSchema>;

/** Command line of main.ts. */
export interface Form4Command {
  filings: Form4FilingRef[];
  follow: boolean;
  once: boolean;
  /** The named filings are ones the live poller missed: their records are live (webhook events), not history. */
  live: boolean;
}

export const USAGE = `usage: node dist/apps/ingest-form4/src/main.js [--filing <issuerCik>:<accession>[:<path>] ... [--live]] [--follow [--once]]
  --filing  read one filing (repeatable); <path> is the ownership XML's Archive path or file name
            (an xsl.../ rendering prefix is dropped); without it the complete submission .txt is read
  --live    the named filings are ones the live poller missed: publish them as live (webhook events)
  --follow  then consume edgar.filings.v1 and read every Form 4 / 4/A of a covered issuer (until SIGINT/SIGTERM)
  --once    with --follow: stop when the group has caught up with the topic
FORM4_FILINGS and the submissions of FORM4_SUBMISSIONS (default: the FORM4_ISSUERS list) are read first.
Exit codes: 0 done, 1 some filings failed or were not found, 2 configuration or usage error,
75 a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (the same command resumes from its checkpoint).`;

/** Parses the arguments; an error message when they are malformed. */
export function parseForm4Args(argv: readonly string[]): Form4Command | { help: true } | { error: string } {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  const command: Form4Command = { filings: [], follow: false, once: false, live: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--follow') command.follow = true;
    else if (arg === '--once') command.once = true;
    else if (arg === '--live') command.live = true;
    else if (arg === '--filing') {
      const ref = parseForm4FilingRef(argv[i + 1] ?? '');
      if (!ref) return { error: `--filing wants <issuerCik>:<accession>[:<path>], got ${JSON.stringify(argv[i + 1] ?? '')}` };
      command.filings.push(ref);
      i += 1;
    } else return { error: `unexpected argument ${JSON.stringify(arg)}` };
  }
  if (command.once && !command.follow) return { error: '--once only goes with --follow' };
  return command;
}

/**
 * Why `--live` does not go with this run, or null when it does. It announces named filings
 * (`--filing`, FORM4_FILINGS) only: never the history discovery reads from issuers' submissions.
 * The filings followed with `--follow` keep their own filing record's origin.
 */
export function form4LiveRefusal(namedFilings: number, config: Pick<IngestForm4Config, 'FORM4_SUBMISSIONS'>): string | null {
  if (config.FORM4_SUBMISSIONS.kind === 'list') {
    return '--live announces named filings only, and FORM4_SUBMISSIONS (default: the FORM4_ISSUERS list) reads issuers\' submissions too: set FORM4_SUBMISSIONS=none';
  }
  if (namedFilings === 0) return '--live announces named filings: give --filing <issuerCik>:<accession>[:<path>] (or FORM4_FILINGS)';
  return null;
}
