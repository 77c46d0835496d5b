import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from 'pg';

/**
 * What the benches share: numeric settings from the environment, clean-up on exit or signal, a
 * process's memory and CPU from /proc, and the built projector as a child process.
 */

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

/** Peak and current resident set of a process, in MiB (null once it is gone). */
export function memoryOf(pid: number): { hwm: number; rss: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used (null once it is gone, or when /proc is not readable). */
export function cpuSecondsOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold ") "): utime and stime are the 14th and 15th, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * The pid of the project's own Kafka broker for `broker` (host:port) when scripts/kafka.sh runs it
 * here (its `.run/kafka-<port>.pid`, from the repository root); null for any other broker.
 */
export function localBrokerPid(broker: string): number | null {
  const port = broker.split(':').pop();
  try {
    const pid = Number(readFileSync(join(process.cwd(), '.run', `kafka-${port}.pid`), 'utf8').trim());
    return Number.isInteger(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka') ? pid : null;
  } catch {
    return null;
  }
}

/** CPU seconds of the Postgres backends connected to `pg`'s database, `pg`'s own left out (they live as long as their pool does). */
export async function backendCpuSeconds(pg: Client): Promise<{ backends: number; seconds: number }> {
  const { rows } = await pg.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
  return { backends: rows.length, seconds: rows.reduce((sum, b) => sum + (cpuSecondsOf(b.pid) ?? 0), 0) };
}

/** The projector's own knobs pass through to its child process (batch sizes, pool size, consumer settings). */
const PROJECTOR_PASSTHROUGH = /^(PROJECTOR_|CONSUMER_|KAFKA_CONSUMER_|DATABASE_POOL|NODE_OPTIONS$)/;

/** The environment of a bench's projector: PATH, LOG_LEVEL=warn, the projector's knobs from the bench's own environment, then `settings`. */
export function projectorEnv(settings: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' };
  for (const [k, v] of Object.entries(process.env)) if (PROJECTOR_PASSTHROUGH.test(k) && v !== undefined) out[k] = v;
  return Object.assign(out, settings);
}

export interface ProjectorProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** SIGTERM (the batch in flight finishes), SIGKILL after 15 s; idempotent. */
  stop(): Promise<void>;
}

/** The built projector (`script`: dist/apps/projector/src/main.js) in its own process, as deployed; its output is prefixed and passed on. */
export function spawnProjector(script: string, childEnv: Record<string, string>): ProjectorProcess {
  if (!existsSync(script)) throw new Error(`${script} not found: build first (npm run build)`);
  const child = spawn(process.execPath, [script], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (c: Buffer) => process.stderr.write(c.toString().replace(/^(?=.)/gm, '[projector] ')));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  if (child.pid === undefined) throw new Error('the projector could not be spawned');
  let stopping: Promise<void> | undefined;
  return {
    child,
    pid: child.pid,
    exited,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      })();
      return stopping;
    },
  };
}
