import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { compiledPdfWorkerScript, createPdfPagesReader, readPdfPagesInThread, readPdfPagesInWorker } from './pdf-pages';

// Worker scripts in plain JS (a worker thread cannot load TypeScript under Jest), speaking the
// protocol of pdf-text.worker.ts: one answer for the bytes in workerData.
const WORKERS: Record<string, string> = {
  'echo.js': `const { parentPort, workerData } = require('node:worker_threads');
    parentPort.postMessage({ ok: true, pages: [String(workerData.byteLength), String(workerData[0])] });`,
  'fails.js': `require('node:worker_threads').parentPort.postMessage({ ok: false, message: 'Invalid PDF structure.' });`,
  'hangs.js': `setInterval(() => undefined, 1000);`,
  'throws.js': `throw new Error('worker broke');`,
  'silent.js': `process.exit(3);`,
};

describe('PDF text on a worker thread', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-workers-'));
    for (const [name, code] of Object.entries(WORKERS)) writeFileSync(join(dir, name), code);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hands the worker a copy of the bytes (the caller keeps its own, e.g. cached) and returns its pages', async () => {
    const bytes = new Uint8Array([7, 8, 9]);
    expect(await readPdfPagesInWorker(join(dir, 'echo.js'), bytes, { timeoutMs: 5000 })).toEqual(['3', '7']);
    expect(bytes.byteLength).toBe(3);
    expect([...bytes]).toEqual([7, 8, 9]);
  });

  it('fails with the worker\'s error, a thrown error, an exit without an answer, or the timeout (the thread is stopped)', async () => {
    const bytes = new Uint8Array(1);
    await expect(readPdfPagesInWorker(join(dir, 'fails.js'), bytes, { timeoutMs: 5000 })).rejects.toThrow('Invalid PDF structure.');
    await expect(readPdfPagesInWorker(join(dir, 'throws.js'), bytes, { timeoutMs: 5000 })).rejects.toThrow('worker broke');
    await expect(readPdfPagesInWorker(join(dir, 'silent.js'), bytes, { timeoutMs: 5000 })).rejects.toThrow('exited (code 3) without an answer');
    const start = Date.now();
    await expect(readPdfPagesInWorker(join(dir, 'hangs.js'), bytes, { timeoutMs: 300 })).rejects.toThrow('took longer than 300 ms');
    expect(Date.now() - start).toBeLessThan(3000);
  });

  it('uses the compiled worker script only when running from the build; from TypeScript it falls back to this thread, and says so', async () => {
    expect(compiledPdfWorkerScript()).toBeNull(); // this module is pdf-pages.ts here
    writeFileSync(join(dir, 'pdf-text.worker.js'), '');
    expect(compiledPdfWorkerScript(dir, join(dir, 'pdf-pages.js'))).toBe(join(dir, 'pdf-text.worker.js'));
    expect(compiledPdfWorkerScript(join(dir, 'elsewhere'), join(dir, 'elsewhere', 'pdf-pages.js'))).toBeNull();

    const notes: string[] = [];
    const reader = createPdfPagesReader({ timeoutMs: 1000, onFallback: (why) => notes.push(why) });
    expect(reader).toBe(readPdfPagesInThread);
    expect(notes).toEqual([expect.stringContaining('main thread')]);
    const deck = readFileSync(join(defaultFixturesDir(), 'decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf'));
    const before = createHash('sha256').update(deck).digest('hex');
    const pages = await reader(deck);
    expect(pages[0]).toContain('Annual Shareholder Meeting');
    expect(createHash('sha256').update(deck).digest('hex')).toBe(before);

    const viaWorker = createPdfPagesReader({ timeoutMs: 5000, script: join(dir, 'echo.js') });
    expect(await viaWorker(new Uint8Array([1, 2]))).toEqual(['2', '1']);
  });
});
