import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '@app/testing';
import { cpuSecondsOf } from '../bench-support';

/** One server under test, in its own process. */
export interface ServerProcess {
  label: string;
  baseUrl: string;
  pid: number;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  label: string;
  script: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** With an IPC channel, `stop()` asks the process to exit (so --cpu-prof gets written). */
  ipcExit?: boolean;
}

/**
 * Starts `node <script>` with PORT set. stdout goes to /dev/null (request logs must not flow
 * through the load generator's process); stderr is passed through, prefixed.
 */
export async function spawnServer(opts: SpawnOptions): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.script], {
    env: { PATH: process.env.PATH ?? '', ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: opts.ipcExit ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefixLines(`[${opts.label}] `, chunk.toString())));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${opts.label}: could not spawn`);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    label: opts.label,
    baseUrl,
    pid,
    cpuSeconds: () => cpuSecondsOf(pid) ?? Number.NaN,
    stop: () => stopChild(child, opts.ipcExit === true),
  };
  try {
    await waitReady(`${baseUrl}/healthz`, child, opts.label);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

function prefixLines(prefix: string, text: string): string {
  return text.replace(/^(?=.)/gm, prefix);
}

/** Until `url` answers 2xx (the child's health or readiness route); fails when the child exits or after `timeoutMs`. */
export async function waitReady(url: string, child: ChildProcess, label: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${label} not ready after ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess, ipcExit: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (ipcExit && child.connected) child.send('exit');
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
