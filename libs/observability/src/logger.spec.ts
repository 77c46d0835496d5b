import { execFile } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { swcRegisterScript } from '@app/testing';
import { createLogger, isoTimeField, LOG_FLUSH_MS } from './logger';

describe('isoTimeField', () => {
  it('writes what pino.stdTimeFunctions.isoTime writes, across milliseconds, seconds and days', () => {
    const start = Date.UTC(2026, 10, 21, 23, 59, 58, 990);
    for (let t = start; t < start + 2_500; t += 7) {
      expect(isoTimeField(t)).toBe(`,"time":"${new Date(t).toISOString()}"`);
    }
    // Going back in time (a clock step) is not served from the cache of a later second.
    for (const t of [Date.UTC(2030, 0, 1, 0, 0, 0, 0), Date.UTC(2001, 8, 9, 1, 46, 40, 5), Date.UTC(2030, 0, 1, 0, 0, 0, 999)]) {
      expect(isoTimeField(t)).toBe(`,"time":"${new Date(t).toISOString()}"`);
    }
    const now = Date.now();
    expect(isoTimeField(now)).toBe(`,"time":"${new Date(now).toISOString()}"`);
  });
});

describe('createLogger', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'logger-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds a lone line in its chunk and writes it within LOG_FLUSH_MS', async () => {
    const file = join(dir, 'log');
    // Left open: the logger's periodic flush outlives the test, and a write to a closed fd is an
    // unhandled EBADF that kills the jest worker.
    const fd = openSync(file, 'w');
    createLogger({ fd }).info({ request_id: 'req_1' }, 'request');
    expect(readFileSync(file, 'utf8')).toBe('');
    const deadline = Date.now() + LOG_FLUSH_MS * 8;
    while (!readFileSync(file, 'utf8').includes('"request_id":"req_1"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ level: 30, request_id: 'req_1', msg: 'request' });
  });

  it('writes the lines it holds when the process exits', async () => {
    // This module, compiled with swc, in a child that logs and exits at once (as a CLI does).
    const register = join(dir, 'register.js');
    writeFileSync(register, swcRegisterScript(resolve(__dirname, '../../..')));
    const script = `
      const log = require(${JSON.stringify(join(__dirname, 'logger.ts'))}).createLogger({ name: 'cli' });
      for (let i = 0; i < 3; i++) log.info({ i }, 'step');
      process.exit(3);`;
    const out = await promisify(execFile)(process.execPath, ['-r', register, '-e', script]).catch((err: { code: number; stdout: string }) => err);
    expect('code' in out ? out.code : 0).toBe(3);
    const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.i, l.name, l.msg])).toEqual([0, 1, 2].map((i) => [i, 'cli', 'step']));
  });
});
