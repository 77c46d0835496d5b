import { parseArgs } from 'node:util';
import { ConfigError, databaseConfig, loadOperatorConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { ApiKeysRepository, createDataSource, type Plan } from '@app/persistence';
import { z } from 'zod';
import { ApiKeysService } from './auth/api-keys.service';

const USAGE = `Usage (env: DATABASE_URL, API_KEY_PEPPER; after npm start, taken from .run/*.env when not set):
  keys create --plan <free|builder|pro|enterprise> [--account NAME | --account-id ID] [--test] [--label L]
      Creates a key (and the account NAME when it does not exist). Prints the key once: store it now.
  keys list
      Every key: id, account, plan, mode, created, last used, revoked. Never the secret.
  keys revoke <key id>
      Revokes a key. Running api processes stop accepting it within AUTH_CACHE_TTL_MS (30 s).`;

const PLANS = ['free', 'builder', 'pro', 'enterprise'] as const;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError('');
  // From a plain shell, the settings npm start wrote under .run/ (the environment wins).
  const config = loadOperatorConfig(databaseConfig.extend({ API_KEY_PEPPER: z.string().min(32) }));
  let args;
  try {
    args = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { plan: { type: 'string' }, account: { type: 'string' }, 'account-id': { type: 'string' }, test: { type: 'boolean' }, label: { type: 'string' } },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const ds = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'keys-cli' });
  await ds.initialize();
  try {
    const repo = new ApiKeysRepository(ds);
    const service = new ApiKeysService(repo, config.API_KEY_PEPPER, createLogger({ level: 'warn' }), 0);
    switch (command) {
      case 'create':
        await create(repo, service, args.values);
        break;
      case 'list':
        await list(service);
        break;
      case 'revoke': {
        const id = args.positionals[0];
        if (!id) throw new UsageError('revoke needs a key id');
        if (!(await service.revoke(id))) throw new UsageError(`no key with id ${id}`);
        console.log(`revoked ${id}`);
        break;
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } finally {
    await ds.destroy();
  }
}

async function create(
  repo: ApiKeysRepository,
  service: ApiKeysService,
  v: { plan?: string; account?: string; 'account-id'?: string; test?: boolean; label?: string },
): Promise<void> {
  if (v.plan !== undefined && !(PLANS as readonly string[]).includes(v.plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  const plan = v.plan as Plan | undefined;
  if (v.account !== undefined && v['account-id'] !== undefined) throw new UsageError('give --account or --account-id, not both');
  let account;
  if (v['account-id'] !== undefined) {
    account = await repo.findAccount(v['account-id']);
    if (!account) throw new UsageError(`no account with id ${v['account-id']}`);
    if (plan && plan !== account.plan) throw new UsageError(`account ${account.id} is on the ${account.plan} plan; omit --plan or pass --plan ${account.plan}`);
  } else {
    const name = v.account ?? 'default';
    const found = await repo.findAccountsByName(name);
    if (found.length > 1) throw new UsageError(`several accounts are named '${name}': use --account-id`);
    account = found[0];
    if (account && plan && plan !== account.plan) throw new UsageError(`account '${name}' is on the ${account.plan} plan; omit --plan or pass --plan ${account.plan}`);
    if (!account) {
      if (!plan) throw new UsageError('--plan is required to create a new account');
      account = await repo.createAccount(name, plan);
    }
  }
  const created = await service.createKey({ accountId: account.id, mode: v.test ? 'test' : 'live', label: v.label ?? null });
  console.log(`key id:  ${created.id}`);
  console.log(`account: ${account.name} (${account.id}), plan ${account.plan}${v.test ? ' (test key: free-plan limits)' : ''}`);
  console.log(`secret:  ${created.key}`);
  console.log('This is the only time the key is shown: store it now.');
}

async function list(service: ApiKeysService): Promise<void> {
  const keys = await service.listKeys();
  const iso = (d: Date | null): string => (d ? new Date(d).toISOString() : '-');
  const rows = [['ID', 'ACCOUNT', 'PLAN', 'MODE', 'LABEL', 'CREATED', 'LAST USED', 'REVOKED']].concat(
    keys.map((k) => [k.id, `${k.accountName} (${k.accountId})`, k.plan, k.mode, k.label ?? '-', iso(k.createdAt), iso(k.lastUsedAt), iso(k.revokedAt)]),
  );
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    if (err.message) console.error(`error: ${err.message}\n`);
    console.error(USAGE);
    process.exit(2);
  }
  if ((err as { code?: unknown }).code === '42P01') {
    console.error('error: the database has no api_keys table yet: run `npm run db:migrate` first');
  } else {
    console.error(err instanceof ConfigError ? err.message : err);
  }
  process.exit(1);
});
