import { EdgarParseError } from '../edgar.parse-error';
import { dashedAccession } from './filing-urls';

/** One row of an EDGAR daily form index (`form.YYYYMMDD.idx`). */
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

const SOURCE = 'daily form index';
// CIK, date filed and file name end every row; form and company name come before them.
const TAIL_RE = /\s(\d{1,10})\s+(\d{8})\s+(edgar\/data\/\d+\/(\d{10}-\d{2}-\d{6}|\d{18})\.txt)\s*$/;

/**
 * Parses the fixed-width daily index by form type. Column starts come from the header line
 * (`Form Type   Company Name   CIK   Date Filed  File Name`); the right-hand columns are read
 * from the end of the row, so a long company name cannot shift them.
 */
export function parseDailyFormIndex(bytes: Uint8Array | string): DailyIndexEntry[] {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /^Form Type\s+Company Name\s+CIK\s+Date Filed\s+File Name/.test(l));
  if (headerAt < 0) throw new EdgarParseError(SOURCE, 'no "Form Type  Company Name  CIK  Date Filed  File Name" header');
  const companyCol = (lines[headerAt] ?? '').indexOf('Company Name');
  const out: DailyIndexEntry[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (/^-+\s*$/.test(raw) || raw.trim() === '') continue;
    const tail = TAIL_RE.exec(raw);
    if (!tail) continue;
    const head = raw.slice(0, tail.index);
    let form: string;
    let companyName: string;
    if (head.length > companyCol && head[companyCol - 1] === ' ') {
      form = head.slice(0, companyCol).trim();
      companyName = head.slice(companyCol).trim();
    } else {
      // A form type wider than its column pushes the name right: split on the first run of 2+ blanks.
      const m = /^(\S.*?)\s{2,}(\S.*)$/.exec(head.trim());
      if (!m) continue;
      form = m[1]!.trim();
      companyName = m[2]!.trim();
    }
    const accession = dashedAccession(tail[4]!);
    const d = tail[2]!;
    if (!form || !companyName || !accession) continue;
    out.push({
      form,
      companyName,
      cik: tail[1]!.padStart(10, '0'),
      dateFiled: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`,
      fileName: tail[3]!,
      accession,
      line: raw.replace(/\s+$/, ''),
    });
  }
  return out;
}
