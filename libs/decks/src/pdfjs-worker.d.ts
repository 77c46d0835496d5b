// pdfjs-dist ships no types for its worker module; only its presence as `globalThis.pdfjsWorker` matters.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
