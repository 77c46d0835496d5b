import { EdgarParseError } from '../edgar.parse-error';
import { easternToIso } from '../filings/filing-urls';
import { eightKItem, eightKItemsFromHeaderTitles, type EightKItem } from './items';
import { looksLikeHtml } from './html-lines';

/**
 * EDGAR's complete submission text file (`<accession>.txt`: `<SEC-DOCUMENT>`, an SGML
 * `<SEC-HEADER>` of "KEY: value" lines, then `<DOCUMENT>`s) and the dissemination `.nc` file
 * (`<SUBMISSION>` with tag-style header lines and no closing tags for leaves, `<ITEMS>5.02`).
 * Also accepted: a bare run of `<DOCUMENT>`s cut from either (header fields then null), the
 * `-----BEGIN PRIVACY-ENHANCED MESSAGE-----` wrapper of 1990s-2000s filings, and any line ending
 * (\n, \r\n, bare \r as the stored .nc files have). Bodies are returned as found, never decoded.
 */

export type SubmissionDocumentFormat = 'html' | 'text' | 'xml' | 'json' | 'pdf' | 'uuencoded' | 'other';

export interface SubmissionDocument {
  /** `<TYPE>` as written: "8-K", "EX-99.1", "GRAPHIC", "EX-101.SCH", "XML", "ZIP". */
  type: string;
  /** `<SEQUENCE>` as a number; null when absent. */
  sequence: number | null;
  /** `<FILENAME>`; null in old filings that have none. */
  filename: string | null;
  /** `<DESCRIPTION>`; null when absent or empty. */
  description: string | null;
  /** The exact text between `<TEXT>` and `</TEXT>` (wrappers such as `<XBRL>`, `<XML>`, `<PDF>` included). */
  body: string;
  /** What the body holds once unwrapped; 'pdf' and 'uuencoded' are uuencoded binaries (not text). */
  format: SubmissionDocumentFormat;
  /** The body is a uuencoded file (`begin 644 name`): GRAPHIC, EXCEL, ZIP, PDF. Callers skip these for text. */
  binary: boolean;
}

export interface SubmissionFiler {
  /** Ten digits, zero-padded, as the header writes it. */
  cik: string;
  name: string;
  /** The header block it came from: 'filer', 'subject_company', 'filed_by', 'reporting_owner', 'issuer'. */
  role: string;
}

export interface CompleteSubmission {
  accession: string | null;
  /** CONFORMED SUBMISSION TYPE (.txt) or the submission's `<TYPE>` (.nc); null without a header. */
  form: string | null;
  /** FILED AS OF DATE / `<FILING-DATE>` as YYYY-MM-DD. */
  filed_date: string | null;
  /** ACCEPTANCE-DATETIME (US Eastern wall time) as ISO UTC; the .nc files carry none. */
  accepted_at: string | null;
  /** CONFORMED PERIOD OF REPORT / `<PERIOD>` as YYYY-MM-DD. */
  period_of_report: string | null;
  /** PUBLIC DOCUMENT COUNT as stated (may differ from documents.length for .nc files). */
  public_document_count: number | null;
  /** Items as the header states them: ITEM INFORMATION titles (.txt) or `<ITEMS>` numbers (.nc). */
  items: EightKItem[];
  /** ITEM INFORMATION titles / `<ITEMS>` values that match no known item, as written. */
  items_unmatched: string[];
  filers: SubmissionFiler[];
  documents: SubmissionDocument[];
}

const SOURCE = 'complete submission';

const yyyymmdd = (s: string | null): string | null => {
  const m = s ? /^(\d{4})(\d{2})(\d{2})/.exec(s.trim()) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

function acceptedAt(s: string | null): string | null {
  const m = s ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s.trim()) : null;
  return m ? easternToIso(`${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`) : null;
}

/** All values of a header field, in order: "KEY:\tvalue" lines (.txt) and "<KEY>value" lines (.nc). */
function fieldValues(header: string, sgmlKey: string | null, tagKey: string | null): string[] {
  const out: string[] = [];
  const keys = [sgmlKey ? `${sgmlKey}:` : null, tagKey ? `<${tagKey}>` : null].filter(Boolean).join('|');
  const re = new RegExp(`^[ \\t]*(?:${keys})[ \\t]*(.*)$`, 'gm');
  for (const m of header.matchAll(re)) out.push(m[1]!.trim());
  return out;
}
const field = (header: string, sgmlKey: string | null, tagKey: string | null): string | null => fieldValues(header, sgmlKey, tagKey)[0] || null;

const ROLE_BLOCK = /^[ \t]*(?:(FILER|SUBJECT COMPANY|FILED BY|REPORTING-OWNER|ISSUER):[ \t]*|<(FILER|SUBJECT-COMPANY|FILED-BY|REPORTING-OWNER|ISSUER)>[ \t]*)$/gm;

function filersOf(header: string): SubmissionFiler[] {
  const starts = [...header.matchAll(ROLE_BLOCK)];
  return starts.flatMap((m, i): SubmissionFiler[] => {
    const block = header.slice(m.index + m[0].length, starts[i + 1]?.index ?? header.length);
    const cik = field(block, 'CENTRAL INDEX KEY', 'CIK');
    const name = field(block, 'COMPANY CONFORMED NAME', 'CONFORMED-NAME');
    const role = (m[1] ?? m[2]!).toLowerCase().replace(/[ -]/g, '_');
    return cik && /^\d{1,10}$/.test(cik) && name ? [{ cik: cik.padStart(10, '0'), name, role }] : [];
  });
}

const WRAPPER = /^\s*<(XBRL|XML|PDF)>[ \t]*(?:\r\n|\r|\n)?/i;
const UUENCODED = /^begin [0-7]{3,4} \S/;

const FORMAT_BY_EXTENSION: Readonly<Record<string, SubmissionDocumentFormat>> = {
  htm: 'html',
  html: 'html',
  xml: 'xml',
  xsd: 'xml',
  json: 'json',
  txt: 'text',
  pdf: 'pdf',
  js: 'other',
  css: 'other',
};

/** A document's body without its `<XML>` / `<XBRL>` / `<PDF>` wrapper: the document as the filer sent it. */
export function unwrappedBody(body: string): string {
  const wrapper = WRAPPER.exec(body);
  if (!wrapper) return body;
  const inner = body.slice(wrapper[0].length);
  const close = new RegExp(`</${wrapper[1]!}>\\s*$`, 'i').exec(inner);
  return close ? inner.slice(0, close.index) : inner;
}

function formatOf(filename: string | null, body: string): SubmissionDocumentFormat {
  const wrapper = WRAPPER.exec(body);
  const content = (wrapper ? body.slice(wrapper[0].length) : body).trimStart();
  const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase() ?? null;
  const kind = wrapper?.[1]!.toUpperCase() ?? null;
  if (UUENCODED.test(content)) return kind === 'PDF' || ext === 'pdf' ? 'pdf' : 'uuencoded';
  if (kind === 'PDF') return 'pdf';
  const byExt = ext ? FORMAT_BY_EXTENSION[ext] : undefined;
  if (byExt) return byExt;
  if (/^<\?xml/i.test(content)) return /<html\b/i.test(content.slice(0, 4096)) ? 'html' : 'xml';
  if (kind === 'XML') return 'xml';
  return looksLikeHtml(content) ? 'html' : 'text';
}

const DOC_START = /^<DOCUMENT>[ \t]*$/gm;
const DOC_FIELD = /^<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>[ \t]*(.*)$/gm;
const TEXT_START = /^<TEXT>[ \t]*$/m;
const TEXT_END = /^<\/TEXT>/m;

function documentsOf(text: string, starts: number[]): SubmissionDocument[] {
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? text.length;
    const chunk = text.slice(start, end);
    const textTag = TEXT_START.exec(chunk);
    const head = textTag ? chunk.slice(0, textTag.index) : chunk;
    const fields = new Map<string, string>();
    for (const m of head.matchAll(DOC_FIELD)) if (!fields.has(m[1]!)) fields.set(m[1]!, m[2]!.trim());
    let body = '';
    if (textTag) {
      const from = textTag.index + '<TEXT>'.length;
      const close = TEXT_END.exec(chunk.slice(from));
      body = chunk.slice(from, close ? from + close.index : chunk.length);
    }
    const type = fields.get('TYPE');
    if (!type) throw new EdgarParseError(SOURCE, `document ${i + 1} has no <TYPE>`);
    const sequence = fields.get('SEQUENCE');
    const filename = fields.get('FILENAME') || null;
    const format = formatOf(filename, body);
    return {
      type,
      sequence: sequence && /^\d+$/.test(sequence) ? Number(sequence) : null,
      filename,
      description: fields.get('DESCRIPTION') || null,
      body,
      format,
      binary: format === 'pdf' || format === 'uuencoded',
    };
  });
}

/** Parses a complete submission `.txt` or `.nc` file (pure); throws EdgarParseError when it holds no document. */
export function parseCompleteSubmission(text: string): CompleteSubmission {
  const starts = [...text.matchAll(DOC_START)].map((m) => m.index);
  if (starts.length === 0) throw new EdgarParseError(SOURCE, 'no <DOCUMENT> found');
  const header = text.slice(0, starts[0]);
  const documents = documentsOf(text, starts);

  const titles = fieldValues(header, 'ITEM INFORMATION', null);
  const numbers = fieldValues(header, null, 'ITEMS').filter(Boolean);
  const fromTitles = eightKItemsFromHeaderTitles(titles);
  const fromNumbers = numbers.map((n) => ({ n, item: eightKItem(n) }));
  const items = [...fromTitles.items, ...fromNumbers.flatMap(({ item }) => item ?? [])];
  const unique = [...new Map(items.map((item) => [item.number, item])).values()].sort((a, b) => Number(a.number) - Number(b.number));

  const count = field(header, 'PUBLIC DOCUMENT COUNT', 'PUBLIC-DOCUMENT-COUNT');
  const secDocument = /<SEC-DOCUMENT>\s*(\d{10}-\d{2}-\d{6})/.exec(header)?.[1] ?? null;
  return {
    accession: field(header, 'ACCESSION NUMBER', 'ACCESSION-NUMBER') ?? secDocument,
    form: field(header, 'CONFORMED SUBMISSION TYPE', 'TYPE'),
    filed_date: yyyymmdd(field(header, 'FILED AS OF DATE', 'FILING-DATE')),
    accepted_at: acceptedAt(field(header, null, 'ACCEPTANCE-DATETIME')),
    period_of_report: yyyymmdd(field(header, 'CONFORMED PERIOD OF REPORT', 'PERIOD')),
    public_document_count: count && /^\d+$/.test(count) ? Number(count) : null,
    items: unique,
    items_unmatched: [...fromTitles.unmatched, ...fromNumbers.filter(({ item }) => !item).map(({ n }) => n)],
    filers: filersOf(header),
    documents,
  };
}
