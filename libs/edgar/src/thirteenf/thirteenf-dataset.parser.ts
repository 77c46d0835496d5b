import { EdgarParseError } from '../edgar.parse-error';
import { managerSequences } from './thirteenf-other-managers';
import type { ThirteenFAmendmentType, ThirteenFHolding, ThirteenFManagerRef, ThirteenFPrimaryDoc, ThirteenFReportType } from './thirteenf.types';

/*
 * SEC's Form 13F data sets (https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets):
 * a zip per quarter (older: `2023q4_form13f.zip`) or per three months of filing dates (newer:
 * `01jun2024-31aug2024_form13f.zip`) of tab-separated files with a header line, keyed by
 * ACCESSION_NUMBER. The columns, as SEC's FORM13F_readme.htm lists them and public loaders of the
 * data sets read them (abbotware/abbotware `Abbotware.Quant.Edgar` Report13F records for
 * SUBMISSION, COVERPAGE, SUMMARYPAGE and INFOTABLE; a DuckDB importer's EXPECTED_COLUMNS for all
 * seven; the header lines of the real 2025 Q2 files printed in a public analysis log):
 *   SUBMISSION     ACCESSION_NUMBER FILING_DATE SUBMISSIONTYPE CIK PERIODOFREPORT
 *   COVERPAGE      ACCESSION_NUMBER REPORTCALENDARORQUARTER ISAMENDMENT AMENDMENTNO AMENDMENTTYPE
 *                  CONFDENIEDEXPIRED DATEDENIEDEXPIRED DATEREPORTED REASONFORNONCONFIDENTIALITY
 *                  FILINGMANAGER_NAME FILINGMANAGER_STREET1 FILINGMANAGER_STREET2 FILINGMANAGER_CITY
 *                  FILINGMANAGER_STATEORCOUNTRY FILINGMANAGER_ZIPCODE REPORTTYPE FORM13FFILENUMBER
 *                  CRDNUMBER SECFILENUMBER PROVIDEINFOFORINSTRUCTION5 ADDITIONALINFORMATION
 *   SUMMARYPAGE    ACCESSION_NUMBER OTHERINCLUDEDMANAGERSCOUNT TABLEENTRYTOTAL TABLEVALUETOTAL ISCONFIDENTIALOMITTED
 *   OTHERMANAGER   ACCESSION_NUMBER OTHERMANAGER_SK CIK FORM13FFILENUMBER CRDNUMBER SECFILENUMBER NAME
 *                  (cover page: managers reporting for this one; _SK is SEC's surrogate key, not a sequence)
 *   OTHERMANAGER2  ACCESSION_NUMBER SEQUENCENUMBER CIK FORM13FFILENUMBER CRDNUMBER SECFILENUMBER NAME
 *                  (summary page: included managers; INFOTABLE.OTHERMANAGER refers to SEQUENCENUMBER)
 *   SIGNATURE      ACCESSION_NUMBER NAME TITLE PHONE SIGNATURE CITY STATEORCOUNTRY SIGNATUREDATE
 *   INFOTABLE      ACCESSION_NUMBER INFOTABLE_SK NAMEOFISSUER TITLEOFCLASS CUSIP FIGI VALUE SSHPRNAMT
 *                  SSHPRNAMTTYPE PUTCALL INVESTMENTDISCRETION OTHERMANAGER VOTING_AUTH_SOLE
 *                  VOTING_AUTH_SHARED VOTING_AUTH_NONE
 * Dates are DD-MON-YYYY (`30-JUN-2025`); flags Y/N; fields are not quoted. Columns are found by
 * their header name, so a reordered or widened file still reads. Pure: text in, typed values out.
 */

export const THIRTEENF_DATASET_TABLES = {
  submission: 'SUBMISSION',
  coverPage: 'COVERPAGE',
  summaryPage: 'SUMMARYPAGE',
  otherManager: 'OTHERMANAGER',
  otherManager2: 'OTHERMANAGER2',
  signature: 'SIGNATURE',
  infoTable: 'INFOTABLE',
} as const;
export type ThirteenFDatasetTable = keyof typeof THIRTEENF_DATASET_TABLES;

/** The header tables, read whole (a few MB a quarter); INFOTABLE is streamed line by line. */
export type ThirteenFDatasetHeaderTexts = Partial<Record<Exclude<ThirteenFDatasetTable, 'infoTable'>, string>>;

/** Which data-set table a zip entry is, by its name (`INFOTABLE.tsv`, `2023q4_form13f/INFOTABLE.tsv`); null for the readme and the rest. */
export function thirteenFDatasetTableOf(entryName: string): ThirteenFDatasetTable | null {
  const base = entryName.slice(entryName.lastIndexOf('/') + 1).toUpperCase();
  const m = /^([A-Z0-9]+)\.TSV$/.exec(base);
  if (!m) return null;
  const found = Object.entries(THIRTEENF_DATASET_TABLES).find(([, name]) => name === m[1]);
  return found ? (found[0] as ThirteenFDatasetTable) : null;
}

/** A TSV line's fields (the line without its terminator). */
export const tsvFields = (line: string): string[] => line.split('\t');

/** The accession a data-set line belongs to: its first field, read without splitting the line. */
export function datasetAccessionOf(line: string): string {
  const tab = line.indexOf('\t');
  return (tab < 0 ? line : line.slice(0, tab)).trim();
}

/** Column positions of one table, from its header line. */
export class TsvColumns {
  private readonly index = new Map<string, number>();

  constructor(
    readonly table: string,
    headerLine: string,
    required: readonly string[],
  ) {
    tsvFields(headerLine.replace(/^\uFEFF/, '')).forEach((name, i) => this.index.set(name.trim().toUpperCase(), i));
    const missing = required.filter((c) => !this.index.has(c));
    if (missing.length) throw new EdgarParseError(`${table}.tsv`, `header lacks ${missing.join(', ')}`);
  }

  /** The trimmed field, or null when empty or absent. */
  get(fields: readonly string[], column: string): string | null {
    const i = this.index.get(column);
    const v = i === undefined ? undefined : fields[i]?.trim();
    return v ? v : null;
  }
}

const MONTHS: Record<string, string> = { JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06', JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12' };

/** `30-JUN-2025` (the data sets' form) or an ISO date -> `2025-06-30`; null when neither. */
export function datasetDate(value: string | null): string | null {
  if (!value) return null;
  const v = value.trim().toUpperCase();
  const dmy = /^(\d{1,2})-([A-Z]{3})-(\d{4})$/.exec(v);
  if (dmy && MONTHS[dmy[2]!]) return `${dmy[3]}-${MONTHS[dmy[2]!]}-${dmy[1]!.padStart(2, '0')}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
}

function intOrNull(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value.replace(/,/g, ''));
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

function numberOr(value: string | null, fallback: number, what: string, table: string): number {
  if (value === null) return fallback;
  const n = Number(value.replace(/,/g, ''));
  if (!Number.isFinite(n)) throw new EdgarParseError(`${table}.tsv`, `${what} is not a number: ${JSON.stringify(value)}`);
  return n;
}

const REPORT_TYPES: Record<string, ThirteenFReportType> = {
  '13F HOLDINGS REPORT': 'holdings',
  '13F NOTICE': 'notice',
  '13F COMBINATION REPORT': 'combination',
};

function amendmentTypeOf(value: string | null): ThirteenFAmendmentType | null {
  const v = value?.toUpperCase().replace(/\s+/g, ' ') ?? '';
  if (v.startsWith('RESTATEMENT')) return 'restatement';
  // `NEW HOLDINGS` in the data sets; the form's wording is "adds new holdings entries".
  if (v.includes('NEW HOLDINGS')) return 'new_holdings';
  return null;
}

/** One filing's header, from the data set's small tables (what a primary_doc.xml gives the XML parser). */
export interface ThirteenFDatasetFiling {
  accession: string;
  /** SUBMISSION.FILING_DATE as YYYY-MM-DD. */
  filedDate: string | null;
  primary: ThirteenFPrimaryDoc;
  /** Every line of this filing in the header tables, in table order: hashed as its source content. */
  lines: string[];
}

function emptyPrimary(): ThirteenFPrimaryDoc {
  return {
    form: null,
    managerCik: null,
    managerName: null,
    fileNumber: null,
    crdNumber: null,
    secFileNumber: null,
    period: null,
    reportType: null,
    isAmendment: false,
    amendmentNumber: null,
    amendmentType: null,
    signedDate: null,
    otherManagers: [],
    includedManagers: [],
    tableEntryTotal: null,
    tableValueTotal: null,
  };
}

/** Each data line of a table with its fields and its columns; the header is the first line. */
function* rowsOf(table: string, text: string | undefined, required: readonly string[]): Generator<{ cols: TsvColumns; fields: string[]; line: string; accession: string }> {
  if (!text) return;
  let start = 0;
  let cols: TsvColumns | null = null;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (cols === null) {
      cols = new TsvColumns(table, line, ['ACCESSION_NUMBER', ...required]);
      continue;
    }
    if (!line.trim()) continue;
    const fields = tsvFields(line);
    yield { cols, fields, line, accession: fields[0]!.trim() };
  }
}

function managerRef(cols: TsvColumns, fields: string[], sequenceColumn: string | null): ThirteenFManagerRef {
  return {
    sequence: sequenceColumn ? intOrNull(cols.get(fields, sequenceColumn)) : null,
    cik: cols.get(fields, 'CIK'),
    name: cols.get(fields, 'NAME'),
    fileNumber: cols.get(fields, 'FORM13FFILENUMBER'),
  };
}

/**
 * Every filing of a data set from its header tables: SUBMISSION names the filings (a row of
 * another table without one is ignored), the others fill in the primary document's fields.
 */
export function parseThirteenFDatasetHeaders(texts: ThirteenFDatasetHeaderTexts): Map<string, ThirteenFDatasetFiling> {
  const filings = new Map<string, ThirteenFDatasetFiling>();
  for (const { cols, fields, line, accession } of rowsOf('SUBMISSION', texts.submission, ['FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'])) {
    const primary = emptyPrimary();
    primary.form = cols.get(fields, 'SUBMISSIONTYPE')?.toUpperCase() ?? null;
    const cik = cols.get(fields, 'CIK');
    primary.managerCik = cik && /^\d{1,10}$/.test(cik) ? cik.padStart(10, '0') : null;
    primary.period = datasetDate(cols.get(fields, 'PERIODOFREPORT'));
    filings.set(accession, { accession, filedDate: datasetDate(cols.get(fields, 'FILING_DATE')), primary, lines: [line] });
  }
  const each = (table: string, text: string | undefined, required: readonly string[], fill: (f: ThirteenFDatasetFiling, cols: TsvColumns, fields: string[]) => void) => {
    for (const { cols, fields, line, accession } of rowsOf(table, text, required)) {
      const filing = filings.get(accession);
      if (!filing) continue;
      filing.lines.push(line);
      fill(filing, cols, fields);
    }
  };
  each('COVERPAGE', texts.coverPage, ['REPORTTYPE', 'FILINGMANAGER_NAME'], ({ primary: p }, cols, f) => {
    p.managerName = cols.get(f, 'FILINGMANAGER_NAME');
    p.fileNumber = cols.get(f, 'FORM13FFILENUMBER');
    p.crdNumber = cols.get(f, 'CRDNUMBER');
    p.secFileNumber = cols.get(f, 'SECFILENUMBER');
    p.period ??= datasetDate(cols.get(f, 'REPORTCALENDARORQUARTER'));
    p.reportType = REPORT_TYPES[cols.get(f, 'REPORTTYPE')?.toUpperCase().replace(/\s+/g, ' ') ?? ''] ?? null;
    p.isAmendment = cols.get(f, 'ISAMENDMENT')?.toUpperCase() === 'Y';
    p.amendmentNumber = intOrNull(cols.get(f, 'AMENDMENTNO'));
    p.amendmentType = amendmentTypeOf(cols.get(f, 'AMENDMENTTYPE'));
  });
  each('SUMMARYPAGE', texts.summaryPage, [], ({ primary: p }, cols, f) => {
    p.tableEntryTotal = intOrNull(cols.get(f, 'TABLEENTRYTOTAL'));
    p.tableValueTotal = intOrNull(cols.get(f, 'TABLEVALUETOTAL'));
  });
  each('OTHERMANAGER', texts.otherManager, [], ({ primary: p }, cols, f) => p.otherManagers.push(managerRef(cols, f, null)));
  each('OTHERMANAGER2', texts.otherManager2, [], ({ primary: p }, cols, f) => p.includedManagers.push(managerRef(cols, f, 'SEQUENCENUMBER')));
  each('SIGNATURE', texts.signature, [], ({ primary: p }, cols, f) => {
    p.signedDate = datasetDate(cols.get(f, 'SIGNATUREDATE'));
  });
  for (const f of filings.values()) f.primary.includedManagers.sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  return filings;
}

const INFOTABLE_REQUIRED = ['NAMEOFISSUER', 'CUSIP', 'VALUE', 'SSHPRNAMT', 'SSHPRNAMTTYPE'] as const;

/**
 * The reader of INFOTABLE lines, given its header line: a line and its 0-based position within
 * its filing -> the holding, `quote` the line as written. EdgarParseError on a line that is not a
 * holding (no CUSIP or issuer, an amount that is not a number, a type other than SH/PRN).
 */
export function infoTableLineReader(headerLine: string): (line: string, index: number) => ThirteenFHolding {
  const cols = new TsvColumns('INFOTABLE', headerLine, ['ACCESSION_NUMBER', ...INFOTABLE_REQUIRED]);
  return (line, index) => {
    const f = tsvFields(line);
    const where = `${datasetAccessionOf(line)} row ${index}`;
    const issuer = cols.get(f, 'NAMEOFISSUER');
    const cusip = cols.get(f, 'CUSIP');
    if (!issuer || !cusip) throw new EdgarParseError('INFOTABLE.tsv', `${where}: no ${issuer ? 'CUSIP' : 'issuer'}`);
    const shareType = cols.get(f, 'SSHPRNAMTTYPE')?.toUpperCase();
    if (shareType !== 'SH' && shareType !== 'PRN') throw new EdgarParseError('INFOTABLE.tsv', `${where}: SSHPRNAMTTYPE ${JSON.stringify(shareType ?? null)} is neither SH nor PRN`);
    const putCall = cols.get(f, 'PUTCALL')?.toLowerCase();
    return {
      index,
      issuer,
      classTitle: cols.get(f, 'TITLEOFCLASS'),
      cusip: cusip.toUpperCase(),
      figi: cols.get(f, 'FIGI'),
      valueFiled: numberOr(cols.get(f, 'VALUE'), 0, `${where} VALUE`, 'INFOTABLE'),
      shares: numberOr(cols.get(f, 'SSHPRNAMT'), 0, `${where} SSHPRNAMT`, 'INFOTABLE'),
      shareType,
      putCall: putCall === 'put' || putCall === 'call' ? putCall : null,
      discretion: cols.get(f, 'INVESTMENTDISCRETION')?.toUpperCase() ?? null,
      otherManagers: managerSequences([cols.get(f, 'OTHERMANAGER')]),
      votingSole: numberOr(cols.get(f, 'VOTING_AUTH_SOLE'), 0, `${where} VOTING_AUTH_SOLE`, 'INFOTABLE'),
      votingShared: numberOr(cols.get(f, 'VOTING_AUTH_SHARED'), 0, `${where} VOTING_AUTH_SHARED`, 'INFOTABLE'),
      votingNone: numberOr(cols.get(f, 'VOTING_AUTH_NONE'), 0, `${where} VOTING_AUTH_NONE`, 'INFOTABLE'),
      quote: line,
    };
  };
}
