import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';
import { isRecord, parseJsonBytes, textOrNull } from '../json-bytes';
import { dashedAccession, easternToIso } from './filing-urls';

/** One file of a filing's directory listing (`/Archives/edgar/data/<cik>/<acc>/index.json`). */
export interface FilingDirectoryItem {
  name: string;
  type: string | null;
  size: number | null;
  lastModified: string | null;
}

export interface FilingDirectory {
  /** `/Archives/edgar/data/1648960/000121390024004875`. */
  path: string;
  cik: string;
  accession: string;
  items: FilingDirectoryItem[];
  /**
   * The listing does not say which file is the primary document: a guess, the first .htm/.html/.xml
   * (in listing order) that is neither EDGAR's own (index and R pages, XBRL linkbases and extracted
   * instances, FilingSummary) nor named like an exhibit (`ex99-1`). Null if none.
   */
  likelyPrimaryDocument: string | null;
}

const DIR_SOURCE = 'filing directory index.json';

/** Parses a filing directory listing (index.json). */
export function parseFilingDirectory(bytes: Uint8Array | string): FilingDirectory {
  const json = parseJsonBytes(bytes, DIR_SOURCE);
  const dir = isRecord(json) && isRecord(json.directory) ? json.directory : null;
  if (!dir) throw new EdgarParseError(DIR_SOURCE, 'no directory');
  const path = textOrNull(dir.name) ?? '';
  const m = /\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/?$/.exec(path);
  const accession = m ? dashedAccession(m[2]!) : null;
  if (!m || !accession) throw new EdgarParseError(DIR_SOURCE, `not a filing directory: ${JSON.stringify(path)}`);
  const items = (Array.isArray(dir.item) ? dir.item : []).filter(isRecord).flatMap((i): FilingDirectoryItem[] => {
    const name = textOrNull(i.name);
    if (!name) return [];
    const size = textOrNull(i.size);
    return [{ name, type: textOrNull(i.type), size: size && /^\d+$/.test(size) ? Number(size) : null, lastModified: textOrNull(i['last-modified']) }];
  });
  const candidates = items.filter(
    (i) =>
      /\.(htm|html|xml)$/i.test(i.name) &&
      !/-index(-headers)?\.html?$/i.test(i.name) &&
      !/^R\d+\.htm$/i.test(i.name) &&
      !/_(cal|def|lab|pre)\.xml$/i.test(i.name) &&
      !/_htm\.xml$/i.test(i.name) &&
      !/ex-?\d/i.test(i.name) &&
      !/^FilingSummary\.xml$/i.test(i.name),
  );
  const primary = candidates[0];
  return { path, cik: m[1]!.padStart(10, '0'), accession, items, likelyPrimaryDocument: primary?.name ?? null };
}

/** One row of the documents table of a filing index page. */
export interface FilingIndexDocument {
  seq: string | null;
  description: string | null;
  /** Link text (file name as EDGAR shows it). */
  document: string;
  /** Link target path on www.sec.gov. */
  href: string;
  type: string | null;
  size: number | null;
}

export interface FilingIndexFiler {
  name: string;
  /** `Issuer`, `Reporting`, `Filer`, `Filed by`, ... as the page labels it; null when unlabelled. */
  role: string | null;
  cik: string;
}

/** A filing index page (`<accession>-index.htm`). */
export interface FilingIndexPage {
  accession: string;
  form: string;
  formDescription: string | null;
  filingDate: string | null;
  /** The page prints US Eastern wall time; converted to ISO UTC. */
  acceptedAt: string | null;
  /** The acceptance time exactly as printed (provenance). */
  acceptedText: string | null;
  periodOfReport: string | null;
  documents: FilingIndexDocument[];
  /** First document of sequence 1 whose link is the raw file (not an `xsl...` rendering). */
  primaryDocument: FilingIndexDocument | null;
  filers: FilingIndexFiler[];
}

const PAGE_SOURCE = 'filing index page';

/** Parses an EDGAR filing index page with htmlparser2 (header fields, documents table, filers). */
export function parseFilingIndexPage(bytes: Uint8Array | string): FilingIndexPage {
  const html = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  // Flatten into blocks: text of divs by class/id, and table rows of the documents table.
  const info: Array<{ head: string; value: string }> = [];
  let pendingHead: string | null = null;
  let capture: { kind: 'infoHead' | 'info' | 'formName' | 'secNum' | 'companyName'; text: string; depth: number } | null = null;
  let depth = 0;
  let formName = '';
  let secNum = '';
  const companies: string[] = [];
  const rows: Array<{ cells: string[]; href: string | null; linkText: string | null }> = [];
  let row: { cells: string[]; href: string | null; linkText: string | null } | null = null;
  let cell: string | null = null;
  let inTableFile = false;
  let link: string | null = null;
  let linkText = '';

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth += 1;
        const cls = attrs.class ?? '';
        const id = attrs.id ?? '';
        if (!capture) {
          if (name === 'div' && cls === 'infoHead') capture = { kind: 'infoHead', text: '', depth };
          else if (name === 'div' && cls === 'info') capture = { kind: 'info', text: '', depth };
          else if (name === 'div' && id === 'formName') capture = { kind: 'formName', text: '', depth };
          else if (name === 'div' && id === 'secNum') capture = { kind: 'secNum', text: '', depth };
          else if (name === 'span' && cls === 'companyName') capture = { kind: 'companyName', text: '', depth };
        }
        if (name === 'table' && /\btableFile\b/.test(cls)) inTableFile = true;
        if (inTableFile && name === 'tr') row = { cells: [], href: null, linkText: null };
        if (row && (name === 'td' || name === 'th')) cell = '';
        if (name === 'a') {
          link = attrs.href ?? '';
          linkText = '';
        }
      },
      ontext(text) {
        if (capture) capture.text += text;
        if (cell !== null) cell += text;
        if (link !== null) linkText += text;
      },
      onclosetag(name) {
        if (name === 'a' && link !== null) {
          if (row && cell !== null && row.href === null) {
            row.href = link;
            row.linkText = linkText.trim();
          }
          if (capture?.kind === 'companyName') capture.text += ` [[${link}]] `;
          link = null;
        }
        if (row && cell !== null && (name === 'td' || name === 'th')) {
          row.cells.push(cell.replace(/\s+/g, ' ').trim());
          cell = null;
        }
        if (name === 'tr' && row) {
          rows.push(row);
          row = null;
        }
        if (name === 'table') inTableFile = false;
        if (capture && capture.depth === depth) {
          const text = capture.text.replace(/\s+/g, ' ').trim();
          switch (capture.kind) {
            case 'infoHead':
              pendingHead = text;
              break;
            case 'info':
              if (pendingHead !== null) info.push({ head: pendingHead, value: text });
              pendingHead = null;
              break;
            case 'formName':
              formName = text;
              break;
            case 'secNum':
              secNum = text;
              break;
            case 'companyName':
              companies.push(capture.text);
              break;
          }
          capture = null;
        }
        depth -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();

  const accession = /(\d{10}-\d{2}-\d{6})/.exec(secNum)?.[1];
  // "Form 10-K - Annual report [...]:": the form ends at the first " - " (blanks around it), so its
  // own hyphens (10-K, S-1) stay in the form and the description is everything after that separator.
  const named = /^Form\s+(\S+(?:\s\S+)*?)\s+-\s+(.*?):?\s*$/.exec(formName);
  const form = named?.[1] ?? /^Form\s+(\S+)/.exec(formName)?.[1];
  if (!accession || !form) throw new EdgarParseError(PAGE_SOURCE, 'no form name or accession number');
  const field = (head: string): string | null => info.find((i) => i.head.toLowerCase() === head.toLowerCase())?.value || null;
  const acceptedText = field('Accepted');

  const documents: FilingIndexDocument[] = rows
    .filter((r) => r.href !== null && r.cells.length >= 5)
    .map((r) => ({
      seq: blankToNull(r.cells[0]),
      description: blankToNull(r.cells[1]),
      document: r.linkText ?? r.cells[2] ?? '',
      href: r.href!,
      type: blankToNull(r.cells[3]),
      size: /^\d+$/.test(r.cells[4] ?? '') ? Number(r.cells[4]) : null,
    }));
  const primaryDocument =
    documents.find((d) => d.seq === '1' && !/\/xsl[^/]*\//i.test(d.href)) ?? documents.find((d) => d.seq === '1') ?? null;

  const filers = companies.flatMap((raw): FilingIndexFiler[] => {
    const name = /^(.*?)\s*\(/.exec(raw)?.[1]?.trim();
    const cik = /CIK\s*:?\s*(\d{10})/.exec(raw)?.[1];
    const role = /\(\s*([A-Za-z ]+?)\s*(?:\[\[[^\]]*\]\])?\s*\)/.exec(raw)?.[1] ?? null;
    return name && cik ? [{ name, role, cik }] : [];
  });

  return {
    accession,
    form,
    formDescription: named?.[2] || null,
    filingDate: field('Filing Date'),
    acceptedAt: acceptedText ? easternToIso(acceptedText) : null,
    acceptedText,
    periodOfReport: field('Period of Report'),
    documents,
    primaryDocument,
    filers,
  };
}

function blankToNull(value: string | undefined): string | null {
  const v = (value ?? '').replace(/\u00a0/g, ' ').trim();
  return v ? v : null;
}
