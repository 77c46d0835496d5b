import { ConfigError, databaseConfig, loadOperatorConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { ApiKeysRepository, createDataSource, type ApiKeySummary } from '@app/persistence';
import { z } from 'zod';
import { ApiKeysService } from './auth/api-keys.service';
import { parseKeysArgs, USAGE, UsageError, type KeysCommand } from './keys.args';

/** `npm run keys -- <command>`: API keys from a plain shell. Exit codes: 0 done, 1 failed, 2 bad input. */
async function main(argv: string[]): Promise<void> {
  // Parsed first: help and bad input answer without configuration or a database.
  const command = parseKeysArgs(argv);
  if (command.kind === 'help') {
    console.log(USAGE);
    return;
  }
  // From a plain shell, the settings npm start wrote under .run/ (the environment wins).
  const config = loadOperatorConfig(databaseConfig.extend({ API_KEY_PEPPER: z.string().min(32) }));
  const ds = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'keys-cli' });
  await ds.initialize();
  try {
    const repo = new ApiKeysRepository(ds);
    const service = new ApiKeysService(repo, config.API_KEY_PEPPER, createLogger({ level: 'warn' }), 0);
    switch (command.kind) {
      case 'create':
        await create(repo, service, command);
        break;
      case 'list':
        printKeys(await service.listKeys(), command.json);
        break;
      case 'revoke':
        if (!(await service.revoke(command.id))) throw new UsageError(`no key with id ${command.id}`);
        console.log(`revoked ${command.id}`);
        break;
      default: {
        const unreachable: never = command;
        throw new Error(`unhandled command ${JSON.stringify(unreachable)}`);
      }
    }
  } finally {
    await ds.destroy();
  }
}

async function create(repo: ApiKeysRepository, service: ApiKeysService, v: Extract<KeysCommand, { kind: 'create' }>): Promise<void> {
  const plan = v.plan;
  let account;
  if (v.accountId !== null) {
    account = await repo.findAccount(v.accountId);
    if (!account) throw new UsageError(`no account with id ${v.accountId}`);
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
  const created = await service.createKey({ accountId: account.id, mode: v.test ? 'test' : 'live', label: v.label });
  console.log(`key id:  ${created.id}`);
  console.log(`account: ${account.name} (${account.id}), plan ${account.plan}${v.test ? ' (test key: free-plan limits)' : ''}`);
  console.log(`secret:  ${created.key}`);
  console.log('This is the only time the key is shown: store it now.');
}

function printKeys(keys: readonly ApiKeySummary[], json: boolean): void {
  const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);
  if (json) {
    const rows = keys.map((k) => ({
      id: k.id,
      account_id: k.accountId,
      account_name: k.accountName,
      plan: k.plan,
      mode: k.mode,
      label: k.label,
      created_at: iso(k.createdAt),
      last_used_at: iso(k.lastUsedAt),
      revoked_at: iso(k.revokedAt),
    }));
    console.log(JSON.stringify({ keys: rows }, null, 2));
    return;
  }
  const rows = [['ID', 'ACCOUNT', 'PLAN', 'MODE', 'LABEL', 'CREATED', 'LAST USED', 'REVOKED']].concat(
    keys.map((k) => [k.id, `${k.accountName} (${k.accountId})`, k.plan, k.mode, k.label ?? '-', iso(k.createdAt) ?? '-', iso(k.lastUsedAt) ?? '-', iso(k.revokedAt) ?? '-']),
  );
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`error: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if ((err as { code?: unknown }).code === '42P01') {
    console.error('error: the database has no api_keys table yet: run `npm run db:migrate` first');
  } else {
    console.error(err instanceof ConfigError ? err.message : err);
  }
  process.exit(1);
});
