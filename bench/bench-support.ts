/** What the benches share: numeric settings from the environment, and clean-up on exit or signal. */

/** A positive number from the environment variable `name`, else `fallback`. */
export function positiveNumberEnv(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${v}`);
  return n;
}

/** Clean-up steps (scratch databases, child processes), run last-registered first. */
export const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;

/** Runs every clean-up step once, whatever fails. */
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error('cleanup:', err instanceof Error ? err.message : err);
      }
    }
  })();
  return cleaning;
}

/** Ctrl-C or a kill cleans up before exiting. */
export function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}

/**
 * A bench's raw server (a child process): listens on PORT (default 3001) on loopback until
 * SIGINT/SIGTERM, then closes (its onClose hooks release the database) and exits.
 */
export async function listenUntilSignal(server: { close(): Promise<unknown>; listen(o: { port: number; host: string }): Promise<unknown> }): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await server.listen({ port: Number(process.env.PORT ?? 3001), host: '127.0.0.1' });
}

/** Runs a raw server's main; a failure to start exits 1 with the error. */
export function runRawServer(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
