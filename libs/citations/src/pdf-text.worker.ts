// Worker thread script: the text of each page of one PDF, as libs/decks extracts it, posted back
// to the thread that started it (see pdf-pages.ts). Runs only from the build (dist/), as JS.
import { parentPort, workerData } from 'node:worker_threads';
import { extractPdf } from '@app/decks';

const port = parentPort;
if (port) {
  extractPdf(workerData as Uint8Array).then(
    (pdf) => port.postMessage({ ok: true, pages: pdf.pages.map((p) => p.text) }),
    (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
}
