import { parseArgs } from 'node:util';

/** Bad input from the operator: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly topic?: 'dlq' | 'replay' | 'backfill',
    /** False for input found wrong only against the broker (an unknown topic, an offset not held): the message says it all. */
    readonly showUsage = true,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A record's place on a topic: `--offset N` (partition found at run time) or `--offset P:N`. */
export interface OffsetSelector {
  partition: number | null;
  offset: string;
}

export type OpsCommand =
  | { kind: 'help'; topic?: 'dlq' | 'replay' | 'backfill' }
  | { kind: 'lag'; maxLag: number; json: boolean }
  | { kind: 'dlq-list'; topic: string | null; json: boolean }
  | { kind: 'dlq-show'; topic: string; offset: OffsetSelector | null; limit: number; full: boolean; json: boolean }
  | { kind: 'dlq-requeue'; topic: string; select: 'all' | OffsetSelector }
  | { kind: 'replay'; topics: string[] | null; into: string }
  | { kind: 'replay-reset'; topics: string[] | null }
  | { kind: 'backfill-status'; dir: string | null; json: boolean };

/** `lag` fails (exit 4) above this total lag of a group unless `--max-lag` says otherwise. */
export const DEFAULT_MAX_LAG = 10_000;

/** What `lag` exits with, for a health check: dead letters waiting win over lag. */
export const EXIT = { done: 0, failed: 1, badInput: 2, deadLettersWaiting: 3, lagAboveMax: 4 } as const;

export const USAGE = `Usage: npm run ops -- <command>   (from the checkout, after npm start; the environment overrides .run/*.env)

  lag [--max-lag N]                     lag per topic and consumer group; depth of every dead-letter topic and
                                        what is not requeued yet. A health check: exit 3 when dead letters
                                        wait (not requeued), else 4 when a group's total lag is above N
                                        (default ${DEFAULT_MAX_LAG.toLocaleString('en-US')}), else 0
  dlq list [topic]                      dead-letter topics, their depth and what is not requeued yet
  dlq show <topic> [--offset [P:]N | --limit N] [--full]
                                        records on a dead-letter topic: key, value, error, when, source
                                        (oldest --limit per partition, default 10; --full: whole values)
  dlq requeue <topic> (--offset [P:]N | --all)
                                        back onto the source topic, each record once
  replay --into <DATABASE_URL> [--topics t1,t2]
                                        migrate the target and project every (selected) topic into it
                                        from the beginning with a fresh group; webhook events come
                                        verbatim from webhooks.events.v1, none is made or delivered
                                        again; prints rows per table
  replay --reset [--topics t1,t2]       rewind the projector's group to the beginning (read models kept;
                                        the projection is idempotent); refused while the projector runs
  backfill status [--dir DIR]           what each backfill checkpoint (.run/checkpoints/*.json) says
  help, --help, -h                      this text

  <topic> is a record topic or its dead-letter topic (edgar.filings.v1 or edgar.filings.v1.dlq).
  --json (lag, dlq list, dlq show, backfill status): one JSON document on stdout, snake_case fields;
  messages go to stderr.
  Exit codes: 0 done, 1 failed (broker, database, refused), 2 bad input,
  3 lag: dead letters wait, 4 lag: a group's lag is above --max-lag.`;

const OFFSET = /^(?:(\d+):)?(\d+)$/;

export function parseOffset(value: string): OffsetSelector {
  const m = OFFSET.exec(value.trim());
  if (!m) throw new UsageError(`--offset must be N or PARTITION:N (numbers), not '${value}'`);
  return { partition: m[1] === undefined ? null : Number(m[1]), offset: BigInt(m[2]!).toString() };
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return 10;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) throw new UsageError(`--limit must be a whole number from 1 to 10000, not '${value}'`);
  return Number(value);
}

function parseMaxLag(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LAG;
  if (!/^\d+$/.test(value)) throw new UsageError(`--max-lag must be a whole number of records (0: any lag fails), not '${value}'`);
  return Number(value);
}

function parseTopicsList(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const topics = value.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
  if (topics.length === 0) throw new UsageError('--topics needs at least one topic name');
  return topics;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  offset: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean' },
  full: { type: 'boolean' },
  into: { type: 'string' },
  topics: { type: 'string' },
  reset: { type: 'boolean' },
  dir: { type: 'string' },
  json: { type: 'boolean' },
  'max-lag': { type: 'string' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** Which options a command accepts; anything else given is a usage error, not silently ignored. */
function only(values: Values, allowed: ReadonlyArray<keyof Values>, what: string): void {
  const extra = (Object.keys(values) as Array<keyof Values>).filter((k) => values[k] !== undefined && k !== 'help' && !allowed.includes(k));
  if (extra.length > 0) throw new UsageError(`${what} does not take ${extra.map((k) => `--${k}`).join(', ')}`);
}

function positionalCount(positionals: string[], max: number, what: string): void {
  if (positionals.length > max) throw new UsageError(`${what}: unexpected argument '${positionals[max]}'`);
}

/** argv (after `ops`) -> the command; throws UsageError with a message the operator can act on. */
export function parseOpsArgs(argv: readonly string[]): OpsCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, '') : String(err));
  }
  const values = parsed.values as Values;
  const [command, ...rest] = parsed.positionals;
  if (!command) {
    if (values.help) return { kind: 'help' };
    throw new UsageError('no command given');
  }
  switch (command) {
    case 'help':
      return { kind: 'help' };
    case 'lag':
      if (values.help) return { kind: 'help' };
      only(values, ['json', 'max-lag'], 'lag');
      positionalCount(rest, 0, 'lag');
      return { kind: 'lag', maxLag: parseMaxLag(values['max-lag']), json: values.json ?? false };
    case 'dlq':
      return parseDlq(rest, values);
    case 'replay':
      if (values.help) return { kind: 'help', topic: 'replay' };
      positionalCount(rest, 0, 'replay');
      if (values.reset) {
        only(values, ['reset', 'topics'], 'replay --reset');
        return { kind: 'replay-reset', topics: parseTopicsList(values.topics) };
      }
      only(values, ['into', 'topics'], 'replay');
      if (!values.into) throw new UsageError('replay needs --into <DATABASE_URL> (or --reset to rewind the projector group)', 'replay');
      if (!/^postgres(ql)?:\/\//.test(values.into)) throw new UsageError(`--into must be a postgres:// URL, not '${values.into}'`, 'replay');
      return { kind: 'replay', topics: parseTopicsList(values.topics), into: values.into };
    case 'backfill': {
      if (values.help) return { kind: 'help', topic: 'backfill' };
      const [sub, ...more] = rest;
      if (sub !== 'status') throw new UsageError(sub ? `unknown backfill command '${sub}' (known: status)` : 'backfill needs a command: status', 'backfill');
      only(values, ['dir', 'json'], 'backfill status');
      positionalCount(more, 0, 'backfill status');
      return { kind: 'backfill-status', dir: values.dir ?? null, json: values.json ?? false };
    }
    default:
      throw new UsageError(`unknown command '${command}' (known: lag, dlq, replay, backfill)`);
  }
}

function parseDlq(rest: string[], values: Values): OpsCommand {
  if (values.help) return { kind: 'help', topic: 'dlq' };
  const [sub, topic, ...more] = rest;
  switch (sub) {
    case 'list':
      only(values, ['json'], 'dlq list');
      positionalCount(more, 0, 'dlq list');
      return { kind: 'dlq-list', topic: topic ?? null, json: values.json ?? false };
    case 'show':
      if (!topic) throw new UsageError('dlq show needs a topic', 'dlq');
      only(values, ['offset', 'limit', 'full', 'json'], 'dlq show');
      positionalCount(more, 0, 'dlq show');
      if (values.offset !== undefined && values.limit !== undefined) throw new UsageError('give --offset or --limit, not both', 'dlq');
      return { kind: 'dlq-show', topic, offset: values.offset === undefined ? null : parseOffset(values.offset), limit: parseLimit(values.limit), full: values.full ?? false, json: values.json ?? false };
    case 'requeue':
      if (!topic) throw new UsageError('dlq requeue needs a topic', 'dlq');
      only(values, ['offset', 'all'], 'dlq requeue');
      positionalCount(more, 0, 'dlq requeue');
      if (values.all && values.offset !== undefined) throw new UsageError('give --offset or --all, not both', 'dlq');
      if (!values.all && values.offset === undefined) throw new UsageError('dlq requeue needs --offset [P:]N or --all', 'dlq');
      return { kind: 'dlq-requeue', topic, select: values.all ? 'all' : parseOffset(values.offset!) };
    case undefined:
      throw new UsageError('dlq needs a command: list, show or requeue', 'dlq');
    default:
      throw new UsageError(`unknown dlq command '${sub}' (known: list, show, requeue)`, 'dlq');
  }
}
