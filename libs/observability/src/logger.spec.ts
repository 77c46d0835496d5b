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

  it('writes no secret, whatever field, message, binding or error holds it', async () => {
    const key = 'sk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
    const secrets = [key, 'opaque-token-1', 'Bearer-credential-2', 'sid-cookie-3', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Yq/4Tv1p7s='];
    const file = join(dir, 'log');
    const fd = openSync(file, 'w'); // left open: see above
    const log = createLogger({ fd });
    log.info({ url: `/v1/companies?api_key=${key}`, status: 401 }, 'request');
    log.warn({ req: { headers: { authorization: 'Bearer Bearer-credential-2', cookie: 'sid=sid-cookie-3' } } }, 'headers');
    log.child({ endpoint: 'https://hooks.example.com/in?token=opaque-token-1' }).info('delivery');
    log.error({ err: new Error(`fetch https://hooks.example.com/in?token=opaque-token-1 failed (${key})`) }, 'failed');
    log.info(`rotated to ${secrets[4]!}`);
    await new Promise<void>((resolve, reject) => log.flush((err) => (err ? reject(err) : resolve())));
    const text = readFileSync(file, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { url: '/v1/companies?api_key=[redacted]', status: 401 },
      { req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } } },
      { endpoint: 'https://hooks.example.com/in?token=[redacted]', msg: 'delivery' },
      { err: { message: 'fetch https://hooks.example.com/in?token=[redacted] failed (sk_live_[redacted])' }, msg: 'failed' },
      { msg: 'rotated to whsec_[redacted]' },
    ]);
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
