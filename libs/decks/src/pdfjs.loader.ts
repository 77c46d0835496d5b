import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** A variable, not a literal: pdfjs ships no types for its worker, and only its presence matters. */
const WORKER_MODULE: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

let loading: Promise<PdfJs> | undefined;

/**
 * pdfjs-dist is ESM only and our build is CommonJS: `import()` stays a real dynamic import in the
 * built code (TypeScript keeps it under module node20), and Jest compiles the package to CommonJS
 * (jest.config.js esmPackages). Setting `globalThis.pdfjsWorker` makes pdfjs run its worker code
 * on this thread instead of importing `workerSrc` itself (a path that breaks under Jest and
 * bundlers); text extraction needs no real worker.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    provideDomGlobals();
    const [pdfjs, worker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import(WORKER_MODULE) as Promise<unknown>]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return pdfjs;
  })();
  return loading;
}

/**
 * pdfjs' Node build needs DOMMatrix (used when its module loads), ImageData and Path2D, which Node
 * lacks; it takes them from @napi-rs/canvas (its optional dependency) through
 * `createRequire(import.meta.url)`. Under Jest that step fails (jest/swc-transformer.js rewrites
 * `import.meta.url` to an expression calling `require`, inside the initializer of pdfjs' own local
 * `const require`), so they are provided here first, from the same package resolved from pdfjs'
 * location. Only the classes are taken; nothing is rendered.
 */
function provideDomGlobals(): void {
  const scope = globalThis as Record<string, unknown>;
  if (scope.DOMMatrix) return;
  const fromPdfjs = createRequire(require.resolve('pdfjs-dist/package.json'));
  const canvas = fromPdfjs('@napi-rs/canvas') as Record<string, unknown>;
  for (const name of ['DOMMatrix', 'ImageData', 'Path2D']) scope[name] ??= canvas[name];
}

/** Directories of pdfjs' own data files (trailing slash required): CMaps for CJK fonts, the 14 standard fonts' metrics. */
function pdfjsDataUrls(): { cMapUrl: string; standardFontDataUrl: string } {
  const root = dirname(require.resolve('pdfjs-dist/package.json'));
  return { cMapUrl: `${join(root, 'cmaps')}/`, standardFontDataUrl: `${join(root, 'standard_fonts')}/` };
}

/**
 * The getDocument parameters of every extraction (the bench's plain-pdfjs baseline uses them too):
 * no font faces, no system fonts, no eval, errors-only logging. The bytes are copied: pdfjs
 * transfers (detaches) the buffer it is given.
 */
export function pdfjsDocumentParams(bytes: Uint8Array) {
  return {
    data: new Uint8Array(bytes),
    ...pdfjsDataUrls(),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0, // VerbosityLevel.ERRORS
  };
}
