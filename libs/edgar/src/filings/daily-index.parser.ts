import { EdgarParseError } from '../edgar.parse-error';
import { dashedAccession } from './filing-urls';

/** One row of an EDGAR daily index (`form.`, `company.` or `master.YYYYMMDD.idx`). */
export interface DailyIndexEntry {
  form: string;
  companyName: string;
  /** 10-digit zero-padded. */
  cik: string;
  /** YYYY-MM-DD. */
  dateFiled: string;
  /** `edgar/data/789019/0001626431-20-000031.txt` as listed. */
  fileName: string;
  accession: string;
  /** The row as it stands in the file (trailing blanks trimmed): the provenance quote. */
  line: string;
}

/**
 * The three layouts EDGAR publishes each day's index in: sorted by form type (`form`) or by
 * company name (`company`), both fixed-width, and `master`, pipe-delimited and sorted by CIK.
 */
export type DailyIndexLayout = 'form' | 'company' | 'master';

const SOURCE = 'daily index';
// CIK, date filed and file name end every fixed-width row; form and company name come before them.
// The date is 20200318 in a daily index, 2020-03-18 in the quarterly full index (full-index/<y>/QTR<q>/form.idx).
const TAIL_RE = /\s(\d{1,10})\s+(\d{8}|\d{4}-\d{2}-\d{2})\s+(edgar\/data\/\d+\/(\d{10}-\d{2}-\d{6}|\d{18})\.txt)\s*$/;
const FILE_RE = /^edgar\/data\/\d+\/(\d{10}-\d{2}-\d{6}|\d{18})\.txt$/;
const FORM_HEADER = /^Form Type\s+Company Name\s+CIK\s+Date Filed\s+File Name/;
// The company index's header is broken over two lines in the files SEC serves ("... Form Type   CIK",
// then "      Date Filed  File Name").
const COMPANY_HEADER = /^Company Name\s+Form Type\s+CIK(?:\s+Date Filed\s+File Name)?\s*$/;
const MASTER_HEADER = /^CIK\|Company Name\|Form Type\|Date Filed\|File ?name\s*$/i;

/** `20200318` or `2020-03-18` (the quarterly indexes) as YYYY-MM-DD; null otherwise. */
function isoDate(raw: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/**
 * Splits the head of a fixed-width row (what comes before the CIK) at a column start. A value wider
 * than its column pushes the next one right: then the split is at the run of 2+ blanks after the
 * form type (form layout: the first run; company layout: the last, a form type has single blanks).
 */
function splitAt(head: string, col: number, layout: 'form' | 'company'): [string, string] | null {
  if (head.length > col && head[col - 1] === ' ') return [head.slice(0, col).trim(), head.slice(col).trim()];
  const m = (layout === 'form' ? /^(\S.*?)\s{2,}(\S.*)$/ : /^(\S.*)\s{2,}(\S.*?)$/).exec(head.trim());
  return m ? [m[1]!.trim(), m[2]!.trim()] : null;
}

/**
 * Parses an EDGAR daily index in any of its three layouts, told by its column header:
 * `form.YYYYMMDD.idx` (Form Type, Company Name, CIK, Date Filed, File Name; fixed width),
 * `company.YYYYMMDD.idx` (Company Name, Form Type, ...; fixed width, header over two lines) and
 * `master.YYYYMMDD.idx` (CIK|Company Name|Form Type|Date Filed|File Name). In the fixed-width
 * layouts the right-hand columns are read from the end of the row, so a long name cannot shift them.
 */
export function parseDailyIndex(bytes: Uint8Array | string): { layout: DailyIndexLayout; entries: DailyIndexEntry[] } {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => FORM_HEADER.test(l) || COMPANY_HEADER.test(l) || MASTER_HEADER.test(l));
  if (headerAt < 0) throw new EdgarParseError(SOURCE, 'no column header (form, company or master layout)');
  const header = lines[headerAt]!;
  const layout: DailyIndexLayout = MASTER_HEADER.test(header) ? 'master' : FORM_HEADER.test(header) ? 'form' : 'company';
  const entries: DailyIndexEntry[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (/^-+\s*$/.test(raw) || raw.trim() === '') continue;
    const entry = layout === 'master' ? masterRow(raw) : fixedWidthRow(raw, header, layout);
    if (entry) entries.push(entry);
  }
  return { layout, entries };
}

function fixedWidthRow(raw: string, header: string, layout: 'form' | 'company'): DailyIndexEntry | null {
  const tail = TAIL_RE.exec(raw);
  if (!tail) return null;
  const head = raw.slice(0, tail.index);
  const parts = splitAt(head, header.indexOf(layout === 'form' ? 'Company Name' : 'Form Type'), layout);
  if (!parts) return null;
  const [form, companyName] = layout === 'form' ? parts : [parts[1], parts[0]];
  return entryOf(form, companyName, tail[1]!, tail[2]!, tail[3]!, raw);
}

function masterRow(raw: string): DailyIndexEntry | null {
  const fields = raw.split('|');
  if (fields.length < 5) return null;
  // Only a company name could hold a `|`: the other four columns are taken from both ends.
  const cik = fields[0]!.trim();
  const fileName = fields[fields.length - 1]!.trim();
  const date = fields[fields.length - 2]!.trim();
  const form = fields[fields.length - 3]!.trim();
  const companyName = fields.slice(1, -3).join('|').trim();
  if (!/^\d{1,10}$/.test(cik) || !FILE_RE.test(fileName)) return null;
  return entryOf(form, companyName, cik, date, fileName, raw);
}

function entryOf(form: string, companyName: string, cik: string, date: string, fileName: string, raw: string): DailyIndexEntry | null {
  const accession = dashedAccession(FILE_RE.exec(fileName)?.[1] ?? '');
  const dateFiled = isoDate(date);
  if (!form || !companyName || !accession || !dateFiled) return null;
  return { form, companyName, cik: cik.padStart(10, '0'), dateFiled, fileName, accession, line: raw.replace(/\s+$/, '') };
}
