import { DecksError } from './decks.errors';
import { pdfDateToIso } from './pdf-date.parser';
import { loadPdfJs, pdfjsDocumentParams } from './pdfjs.loader';
import { cleanRunText, layoutPage, type LaidOutLine, type PlacedRun, type TextRotation } from './text-layout';

export interface PdfInfo {
  /** Info dictionary Title, trimmed, control characters removed; null when absent or blank. */
  title: string | null;
  creator: string | null;
  producer: string | null;
  /** Info dictionary CreationDate as ISO 8601 (see pdfDateToIso). */
  created_at: string | null;
}

export interface ExtractedPage {
  /** 0-based. */
  page_index: number;
  /** Size of the page as shown (after /Rotate), in points. */
  width: number;
  height: number;
  /** The page's /Rotate: 90 turns a portrait MediaBox into a landscape page on screen. */
  rotate: number;
  /** Direction of most of the page's text: 90/270 on a portrait page means a landscape slide printed sideways. */
  text_rotation: TextRotation;
  lines: LaidOutLine[];
  /** The lines joined by "\n": reading order, each line trimmed, no blank lines. */
  text: string;
}

export interface ExtractedPdf {
  pageCount: number;
  info: PdfInfo;
  pages: ExtractedPage[];
}

/** An Info dictionary string, without the control characters (NUL) a page's text loses too. */
function infoString(info: Record<string, unknown>, name: string): string | null {
  const value = info[name];
  if (typeof value !== 'string') return null;
  const clean = cleanRunText(value).trim();
  return clean.length > 0 ? clean : null;
}

/** Affine product m1 x m2 of two PDF matrices [a, b, c, d, e, f]. */
function multiply(m1: readonly number[], m2: readonly number[]): number[] {
  const [a1 = 1, b1 = 0, c1 = 0, d1 = 1, e1 = 0, f1 = 0] = m1;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = m2;
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Text of every page of a PDF, in reading order (see text-layout.ts), with the Info dictionary.
 * Pure over the bytes: no network, no fonts loaded, no eval, no canvas. Pages are read one at a
 * time and released, the document is destroyed at the end, so memory stays about one page plus
 * the file (twice: the caller's bytes are copied, pdfjs detaches the buffer it is given).
 * Throws DecksError('pdf_unreadable') when pdfjs cannot open the file or read one of its pages.
 */
export async function extractPdf(bytes: Uint8Array): Promise<ExtractedPdf> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument(pdfjsDocumentParams(bytes));
  try {
    const doc = await task.promise;
    const metadata = await doc.getMetadata();
    const rawInfo = (metadata.info ?? {}) as Record<string, unknown>;
    const info: PdfInfo = {
      title: infoString(rawInfo, 'Title'),
      creator: infoString(rawInfo, 'Creator'),
      producer: infoString(rawInfo, 'Producer'),
      created_at: pdfDateToIso(infoString(rawInfo, 'CreationDate')),
    };
    const pages: ExtractedPage[] = [];
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber += 1) {
      const page = await doc.getPage(pageNumber);
      try {
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        const runs: PlacedRun[] = [];
        for (const item of content.items) {
          if (!('str' in item)) continue;
          runs.push({ str: item.str, hasEOL: item.hasEOL, transform: multiply(viewport.transform, item.transform as number[]), width: item.width });
        }
        const layout = layoutPage(runs);
        pages.push({
          page_index: pageNumber - 1,
          width: round2(viewport.width),
          height: round2(viewport.height),
          rotate: page.rotate,
          text_rotation: layout.rotation,
          lines: layout.lines,
          text: layout.lines.map((l) => l.text).join('\n'),
        });
      } finally {
        page.cleanup();
      }
      // pdfjs runs its worker on this thread: let timers and sockets (Kafka, HTTP) in between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { pageCount: doc.numPages, info, pages };
  } catch (error) {
    throw new DecksError('pdf_unreadable', `not a readable PDF: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    // Destroys the document too, and works when opening it failed.
    await task.destroy();
  }
}
