import { DEFAULT_MAX_LAG, EXIT, parseOpsArgs, USAGE, UsageError } from './ops.args';

const usage = (argv: string[]): string => {
  try {
    parseOpsArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('parseOpsArgs', () => {
  it('help in every spelling', () => {
    expect(parseOpsArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseOpsArgs(['-h'])).toEqual({ kind: 'help' });
    expect(parseOpsArgs(['help'])).toEqual({ kind: 'help' });
    expect(parseOpsArgs(['dlq', '--help'])).toEqual({ kind: 'help', topic: 'dlq' });
  });

  it('lag and dlq list', () => {
    expect(parseOpsArgs(['lag'])).toEqual({ kind: 'lag', maxLag: DEFAULT_MAX_LAG, json: false });
    expect(parseOpsArgs(['dlq', 'list'])).toEqual({ kind: 'dlq-list', topic: null, json: false });
    expect(parseOpsArgs(['dlq', 'list', 'ir.documents.v1.dlq'])).toEqual({ kind: 'dlq-list', topic: 'ir.documents.v1.dlq', json: false });
  });

  it('lag --max-lag and --json; --json on every listing, not on actions', () => {
    expect(parseOpsArgs(['lag', '--max-lag', '0', '--json'])).toEqual({ kind: 'lag', maxLag: 0, json: true });
    expect(parseOpsArgs(['lag', '--max-lag=250'])).toMatchObject({ maxLag: 250 });
    expect(usage(['lag', '--max-lag', '-1'])).toMatch(/--max-lag/);
    expect(usage(['lag', '--max-lag', '1e3'])).toMatch(/--max-lag must be a whole number/);
    expect(parseOpsArgs(['dlq', 'list', '--json'])).toMatchObject({ kind: 'dlq-list', json: true });
    expect(parseOpsArgs(['dlq', 'show', 't', '--json'])).toMatchObject({ kind: 'dlq-show', json: true });
    expect(parseOpsArgs(['backfill', 'status', '--json'])).toMatchObject({ kind: 'backfill-status', json: true });
    expect(usage(['dlq', 'requeue', 't', '--all', '--json'])).toMatch(/does not take --json/);
    expect(usage(['dlq', 'list', '--max-lag', '3'])).toMatch(/does not take --max-lag/);
  });

  it('the usage documents the exit codes a health check reads', () => {
    expect(USAGE).toMatch(/3 lag: dead letters wait, 4 lag: a group's lag is above --max-lag/);
    expect(USAGE).toContain('default 10,000');
    expect(EXIT).toEqual({ done: 0, failed: 1, badInput: 2, deadLettersWaiting: 3, lagAboveMax: 4 });
  });

  it('dlq show with an offset, a partition:offset, or a limit', () => {
    expect(parseOpsArgs(['dlq', 'show', 'ir.documents.v1'])).toEqual({ kind: 'dlq-show', topic: 'ir.documents.v1', offset: null, limit: 10, full: false, json: false });
    expect(parseOpsArgs(['dlq', 'show', 't', '--offset', '7'])).toMatchObject({ offset: { partition: null, offset: '7' } });
    expect(parseOpsArgs(['dlq', 'show', 't', '--offset=2:007', '--full'])).toMatchObject({ offset: { partition: 2, offset: '7' }, full: true });
    expect(parseOpsArgs(['dlq', 'show', 't', '--limit', '3'])).toMatchObject({ offset: null, limit: 3 });
  });

  it('dlq requeue needs exactly one of --offset and --all', () => {
    expect(parseOpsArgs(['dlq', 'requeue', 't', '--all'])).toEqual({ kind: 'dlq-requeue', topic: 't', select: 'all' });
    expect(parseOpsArgs(['dlq', 'requeue', 't', '--offset', '1:4'])).toEqual({ kind: 'dlq-requeue', topic: 't', select: { partition: 1, offset: '4' } });
    expect(usage(['dlq', 'requeue', 't'])).toMatch(/--offset \[P:\]N or --all/);
    expect(usage(['dlq', 'requeue', 't', '--all', '--offset', '1'])).toMatch(/not both/);
    expect(usage(['dlq', 'requeue'])).toMatch(/needs a topic/);
  });

  it('replay --into, --topics and --reset', () => {
    expect(parseOpsArgs(['replay', '--into', 'postgres://u@h/db', '--topics', 'edgar.filings.v1, ir.roster.v1'])).toEqual({
      kind: 'replay',
      into: 'postgres://u@h/db',
      topics: ['edgar.filings.v1', 'ir.roster.v1'],
    });
    expect(parseOpsArgs(['replay', '--reset'])).toEqual({ kind: 'replay-reset', topics: null });
    expect(usage(['replay'])).toMatch(/--into <DATABASE_URL>/);
    expect(usage(['replay', '--into', 'mysql://x'])).toMatch(/postgres:\/\//);
    expect(usage(['replay', '--reset', '--into', 'postgres://x/y'])).toMatch(/does not take --into/);
    expect(usage(['replay', '--into', 'postgres://x/y', '--topics', ' , '])).toMatch(/at least one topic/);
  });

  it('backfill status', () => {
    expect(parseOpsArgs(['backfill', 'status'])).toEqual({ kind: 'backfill-status', dir: null, json: false });
    expect(parseOpsArgs(['backfill', 'status', '--dir', '/tmp/cp'])).toEqual({ kind: 'backfill-status', dir: '/tmp/cp', json: false });
    expect(usage(['backfill'])).toMatch(/status/);
  });

  it('bad input is a usage error that says what is wrong', () => {
    expect(usage([])).toMatch(/no command/);
    expect(usage(['frobnicate'])).toMatch(/unknown command 'frobnicate'.*lag, dlq, replay, backfill/);
    expect(usage(['dlq', 'purge', 't'])).toMatch(/unknown dlq command 'purge'/);
    expect(usage(['dlq', 'show', 't', '--offset', 'x'])).toMatch(/--offset must be N or PARTITION:N/);
    expect(usage(['dlq', 'show', 't', '--limit', '0'])).toMatch(/--limit/);
    expect(usage(['dlq', 'show', 't', '--offset', '1', '--limit', '2'])).toMatch(/not both/);
    expect(usage(['lag', '--bogus'])).toMatch(/bogus/);
    expect(usage(['lag', 'extra'])).toMatch(/unexpected argument 'extra'/);
    expect(usage(['lag', '--all'])).toMatch(/lag does not take --all/);
  });
});
