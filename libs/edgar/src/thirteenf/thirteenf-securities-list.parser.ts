import { loadPdfJs, pdfjsDocumentParams } from '@app/decks';
import { EdgarParseError } from '../edgar.parse-error';
import type { ThirteenFListedSecurity } from './thirteenf.types';

const SOURCE = 'Official List of Section 13(f) Securities (PDF)';

interface PlacedText {
  str: string;
  x: number;
  y: number;
}

/** Baselines closer than this (points) are one printed line. */
const SAME_LINE = 2;
/** Text may start this far left of its column's heading and still be in that column. */
const COLUMN_SLACK = 3;
const HEADINGS = { cusip: 'CUSIP NO', issuer: 'ISSUER NAME', description: 'ISSUER DESCRIPTION', status: 'STATUS' } as const;
type Column = keyof typeof HEADINGS;

const joined = (parts: PlacedText[]): string | null => {
  const text = parts.map((p) => p.str).join('').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
};

/**
 * The rows of one page: the column headings' x positions split each line into columns (so a list
 * laid out a little differently another quarter still reads), lines are runs of text on one
 * baseline. Pages without the headings (cover, user information sheet) give nothing; lines without
 * a CUSIP-shaped first column (page header, "Total Count") are skipped.
 */
function rowsOfPage(items: PlacedText[]): ThirteenFListedSecurity[] {
  const heading = items.find((i) => i.str.trim() === HEADINGS.cusip);
  if (!heading) return [];
  const starts = (Object.keys(HEADINGS) as Column[])
    .map((column) => ({ column, x: items.find((i) => i.str.trim() === HEADINGS[column] && Math.abs(i.y - heading.y) < SAME_LINE)?.x }))
    .filter((s): s is { column: Column; x: number } => s.x !== undefined)
    .sort((a, b) => b.x - a.x);
  const columnOf = (x: number): Column => starts.find((s) => x + COLUMN_SLACK >= s.x)?.column ?? 'cusip';

  const below = items.filter((i) => i.y < heading.y - SAME_LINE).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PlacedText[][] = [];
  for (const item of below) {
    const line = lines.at(-1);
    if (line && Math.abs(line[0]!.y - item.y) < SAME_LINE) line.push(item);
    else lines.push([item]);
  }
  return lines.flatMap((line): ThirteenFListedSecurity[] => {
    const cells: Record<Column, PlacedText[]> = { cusip: [], issuer: [], description: [], status: [] };
    for (const item of line.sort((a, b) => a.x - b.x)) cells[columnOf(item.x)].push(item);
    // The CUSIP is printed in three pieces (issuer, issue, check digit), then `*` when options are listed.
    const printed = cells.cusip.map((p) => p.str).join('').replace(/\s+/g, '');
    const cusip = printed.replace(/\*$/, '');
    const issuer = joined(cells.issuer);
    if (!/^[0-9A-Z]{9}$/.test(cusip) || issuer === null) return [];
    return [{ cusip, hasOptions: printed.endsWith('*'), issuer, description: joined(cells.description), status: joined(cells.status) }];
  });
}

/**
 * Parses SEC's Official List of Section 13(f) Securities (the quarterly PDF) with pdfjs-dist:
 * one row per CUSIP with the options asterisk, issuer, description and ADDED/DELETED status.
 * Pages are read one at a time and released. Throws EdgarParseError when the bytes are not a
 * readable PDF or no page carries the list's column headings.
 */
export async function parseThirteenFSecuritiesList(pdf: Uint8Array): Promise<ThirteenFListedSecurity[]> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument(pdfjsDocumentParams(pdf));
  const rows: ThirteenFListedSecurity[] = [];
  try {
    const doc = await task.promise;
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber += 1) {
      const page = await doc.getPage(pageNumber);
      try {
        const content = await page.getTextContent();
        const items: PlacedText[] = [];
        for (const item of content.items) if ('str' in item && item.str !== '') items.push({ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number });
        for (const row of rowsOfPage(items)) rows.push(row);
      } finally {
        page.cleanup();
      }
      // pdfjs runs its worker on this thread: let timers and sockets (Kafka heartbeats) in between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    throw new EdgarParseError(SOURCE, `not a readable PDF: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await task.destroy();
  }
  if (rows.length === 0) throw new EdgarParseError(SOURCE, 'no page with the CUSIP NO / ISSUER NAME column headings');
  return rows;
}
