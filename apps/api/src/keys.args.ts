import { parseArgs } from 'node:util';
import type { Plan } from '@app/persistence';

export const USAGE = `Usage: npm run keys -- <command>   (env: DATABASE_URL, API_KEY_PEPPER; after npm start, taken from .run/*.env when not set)
  keys create --plan <free|builder|pro|enterprise> [--account NAME | --account-id ID] [--test] [--label L]
      Creates a key (and the account NAME when it does not exist). Prints the key once: store it now.
  keys list [--json]
      Every key: id, account, plan, mode, created, last used, revoked. Never the secret.
      --json: one JSON document on stdout, {"keys": [...]} with snake_case fields.
  keys revoke <key id>
      Revokes a key. Running api processes stop accepting it within AUTH_CACHE_TTL_MS (30 s).
  keys help, --help, -h
      This text.
  Exit codes: 0 done, 1 failed (database), 2 bad input.`;

const PLANS = ['free', 'builder', 'pro', 'enterprise'] as const;

/** Bad input from the operator: exit code 2, the message and the usage on stderr. */
export class UsageError extends Error {}

export type KeysCommand =
  | { kind: 'help' }
  | { kind: 'create'; plan: Plan | null; account: string | null; accountId: string | null; test: boolean; label: string | null }
  | { kind: 'list'; json: boolean }
  | { kind: 'revoke'; id: string };

/** argv (after `keys`) -> the command, before any configuration or database is touched. */
export function parseKeysArgs(argv: readonly string[]): KeysCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        plan: { type: 'string' },
        account: { type: 'string' },
        'account-id': { type: 'string' },
        test: { type: 'boolean' },
        label: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, '') : String(err));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') return { kind: 'help' };
  const given = (names: ReadonlyArray<keyof typeof values>): string[] => names.filter((n) => values[n] !== undefined).map((n) => `--${n}`);
  switch (command) {
    case undefined:
      throw new UsageError('no command given');
    case 'create': {
      if (rest.length > 0) throw new UsageError(`create: unexpected argument '${rest[0]}'`);
      if (values.json) throw new UsageError('create does not take --json');
      if (values.plan !== undefined && !(PLANS as readonly string[]).includes(values.plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      if (values.account !== undefined && values['account-id'] !== undefined) throw new UsageError('give --account or --account-id, not both');
      return {
        kind: 'create',
        plan: (values.plan as Plan | undefined) ?? null,
        account: values.account ?? null,
        accountId: values['account-id'] ?? null,
        test: values.test ?? false,
        label: values.label ?? null,
      };
    }
    case 'list': {
      const extra = given(['plan', 'account', 'account-id', 'test', 'label']);
      if (extra.length > 0) throw new UsageError(`list does not take ${extra.join(', ')}`);
      if (rest.length > 0) throw new UsageError(`list: unexpected argument '${rest[0]}'`);
      return { kind: 'list', json: values.json ?? false };
    }
    case 'revoke': {
      const extra = given(['plan', 'account', 'account-id', 'test', 'label', 'json']);
      if (extra.length > 0) throw new UsageError(`revoke does not take ${extra.join(', ')}`);
      const [id, ...more] = rest;
      if (!id) throw new UsageError('revoke needs a key id');
      if (more.length > 0) throw new UsageError(`revoke: unexpected argument '${more[0]}'`);
      return { kind: 'revoke', id };
    }
    default:
      throw new UsageError(`unknown command '${command}' (known: create, list, revoke)`);
  }
}
