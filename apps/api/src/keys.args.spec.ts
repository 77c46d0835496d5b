import { parseKeysArgs, USAGE, UsageError } from './keys.args';

const usage = (argv: string[]): string => {
  try {
    parseKeysArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('parseKeysArgs', () => {
  it('help in every spelling, before any configuration is read', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['list', '--help'], ['create', '-h']]) expect(parseKeysArgs(argv)).toEqual({ kind: 'help' });
    expect(USAGE).toContain('keys list [--json]');
    expect(USAGE).toContain('Exit codes: 0 done, 1 failed (database), 2 bad input.');
  });

  it('create, list (--json) and revoke', () => {
    expect(parseKeysArgs(['create', '--plan', 'pro', '--account', 'acme', '--test', '--label', 'ci'])).toEqual({
      kind: 'create',
      plan: 'pro',
      account: 'acme',
      accountId: null,
      test: true,
      label: 'ci',
    });
    expect(parseKeysArgs(['list'])).toEqual({ kind: 'list', json: false });
    expect(parseKeysArgs(['list', '--json'])).toEqual({ kind: 'list', json: true });
    expect(parseKeysArgs(['revoke', 'key_1'])).toEqual({ kind: 'revoke', id: 'key_1' });
  });

  it('bad input is a usage error that says what is wrong', () => {
    expect(usage([])).toBe('no command given');
    expect(usage(['rotate'])).toMatch(/unknown command 'rotate'/);
    expect(usage(['create', '--plan', 'gold'])).toMatch(/--plan must be one of/);
    expect(usage(['create', '--account', 'a', '--account-id', 'b'])).toMatch(/not both/);
    expect(usage(['create', '--json'])).toMatch(/does not take --json/);
    expect(usage(['list', '--plan', 'pro'])).toMatch(/list does not take --plan/);
    expect(usage(['revoke'])).toMatch(/needs a key id/);
    expect(usage(['list', '--bogus'])).toMatch(/bogus/);
  });
});
