import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, freePort, swcRegisterScript, type TestDatabase } from '@app/testing';

/*
 * The real entry point (main.ts: config from the environment, createApiApp, listen, SIGTERM) in a
 * child process, as production starts it. TypeScript is compiled on the fly with swc.
 */
const ROOT = resolve(__dirname, '..');
const REGISTER = swcRegisterScript(ROOT);

let db: TestDatabase;
let dir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase('apiboot');
  dir = mkdtempSync(join(tmpdir(), 'api-boot-'));
  writeFileSync(join(dir, 'register.js'), REGISTER);
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

it('boots the Nest app (main.ts), serves problems and health, shuts down on SIGTERM', async () => {
  const port = await freePort();
  child = spawn(process.execPath, ['-r', join(dir, 'register.js'), join(ROOT, 'apps/api/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', REDIS_URL: '', LOG_LEVEL: 'silent',
      API_KEY_PEPPER: 'p'.repeat(40), CURSOR_SECRET: 'c'.repeat(40), DOCS_URL: 'https://docs.boot.example' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200 && !output.includes('api listening'); i++) {
    if (child.exitCode !== null) throw new Error(`api exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(output).toContain('api listening');
  expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
  const unauth = await fetch(`${base}/v1/companies`);
  expect(unauth.status).toBe(401);
  expect(unauth.headers.get('www-authenticate')).toBe('Bearer');
  expect(unauth.headers.get('content-type')).toContain('application/problem+json');
  const nf = await fetch(`${base}/nowhere`);
  expect(nf.status).toBe(404);
  expect(((await nf.json()) as { type: string }).type).toBe('https://docs.boot.example/errors/not-found');
  const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  expect(await exited).not.toBeUndefined();
});
