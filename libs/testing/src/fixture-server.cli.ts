import { startFixtureServer } from './fixture-server';

/**
 * Runs the fixture EDGAR server until SIGINT/SIGTERM (used by scripts/run.sh):
 *   node dist/libs/testing/src/fixture-server.cli.js [--dir <fixturesDir>] [--port <port>]
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const port = arg('--port');
  const server = await startFixtureServer({ fixturesDir: arg('--dir'), port: port ? Number(port) : undefined });
  console.log(`fixture EDGAR server on ${server.url} (${server.paths().length} paths)`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
