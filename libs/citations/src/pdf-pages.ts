import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractPdf } from '@app/decks';

/** The text of each page of a PDF, as libs/decks extracts it (ingest-decks quoted from that text). */
export type PdfPagesReader = (bytes: Uint8Array) => Promise<string[]>;

/** On this thread: pdfjs holds the event loop for the whole document (~1.5 s for a 36-page deck). */
export const readPdfPagesInThread: PdfPagesReader = async (bytes) => (await extractPdf(bytes)).pages.map((p) => p.text);

export interface PdfWorkerOptions {
  /** The worker is terminated past this, and the read fails. */
  timeoutMs: number;
  /** V8 old-generation cap of the worker (a hostile PDF fails the read, not the process). */
  maxOldGenerationSizeMb?: number;
}

type WorkerAnswer = { ok: true; pages: string[] } | { ok: false; message: string };

/**
 * Runs `script` (a worker that answers one WorkerAnswer for the bytes in its workerData) on a
 * worker thread of its own: a copy of the bytes is handed over (the caller's stay intact, they may
 * be cached), and the thread is ended when it answers, fails, or runs past the timeout.
 */
export function readPdfPagesInWorker(script: string, bytes: Uint8Array, options: PdfWorkerOptions): Promise<string[]> {
  const copy = new Uint8Array(bytes);
  return new Promise<string[]>((resolve, reject) => {
    const worker = new Worker(script, {
      workerData: copy,
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 512 },
    });
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`PDF text extraction took longer than ${options.timeoutMs} ms and was stopped`))), options.timeoutMs);
    worker.once('message', (answer: WorkerAnswer) => settle(() => (answer.ok ? resolve(answer.pages) : reject(new Error(answer.message)))));
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`PDF text extraction worker exited (code ${code}) without an answer`))));
  });
}

/**
 * The compiled worker script beside this module, or null when this module is not running from the
 * build: under Jest (swc compiles TypeScript in-process) a worker thread could not load the .ts
 * script nor resolve `@app/*`, so there is nothing to start.
 */
export function compiledPdfWorkerScript(dir: string = __dirname, file: string = __filename): string | null {
  if (!file.endsWith('.js')) return null;
  const script = join(dir, 'pdf-text.worker.js');
  return existsSync(script) ? script : null;
}

/**
 * Where PDF text is read: on a worker thread, one per document (verification keeps the text of a
 * cached source, so a deck is read once for its many citations), when the compiled worker script
 * is there; on this thread otherwise (tests run from TypeScript), which `onFallback` is told once.
 */
export function createPdfPagesReader(options: PdfWorkerOptions & { script?: string | null; onFallback?: (why: string) => void }): PdfPagesReader {
  const script = options.script === undefined ? compiledPdfWorkerScript() : options.script;
  if (script === null) {
    options.onFallback?.('PDF text is extracted on the main thread: no compiled worker script beside the citations module (running from TypeScript, e.g. under Jest)');
    return readPdfPagesInThread;
  }
  return (bytes) => readPdfPagesInWorker(script, bytes, options);
}
