import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from './fixture-server';
import { writeZip, type SubmissionsZipEntry } from './submissions-zip';

/*
 * A Form 13F data set (SEC's zip of TSV tables) made from real 13F filings of the fixtures: no
 * real data-set zip is among the fixtures, so the test writes each filing's header fields and
 * infoTable rows as the data set's TSV lines (the columns of SEC's FORM13F_readme, DD-MON-YYYY
 * dates), read from the filing's own XML with plain regular expressions (not the parser under test).
 */

export const THIRTEENF_DATASET_COLUMNS = {
  SUBMISSION: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'],
  COVERPAGE: [
    'ACCESSION_NUMBER', 'REPORTCALENDARORQUARTER', 'ISAMENDMENT', 'AMENDMENTNO', 'AMENDMENTTYPE', 'CONFDENIEDEXPIRED', 'DATEDENIEDEXPIRED', 'DATEREPORTED',
    'REASONFORNONCONFIDENTIALITY', 'FILINGMANAGER_NAME', 'FILINGMANAGER_STREET1', 'FILINGMANAGER_STREET2', 'FILINGMANAGER_CITY', 'FILINGMANAGER_STATEORCOUNTRY',
    'FILINGMANAGER_ZIPCODE', 'REPORTTYPE', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER', 'PROVIDEINFOFORINSTRUCTION5', 'ADDITIONALINFORMATION',
  ],
  SUMMARYPAGE: ['ACCESSION_NUMBER', 'OTHERINCLUDEDMANAGERSCOUNT', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL', 'ISCONFIDENTIALOMITTED'],
  OTHERMANAGER: ['ACCESSION_NUMBER', 'OTHERMANAGER_SK', 'CIK', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER', 'NAME'],
  OTHERMANAGER2: ['ACCESSION_NUMBER', 'SEQUENCENUMBER', 'CIK', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER', 'NAME'],
  SIGNATURE: ['ACCESSION_NUMBER', 'NAME', 'TITLE', 'PHONE', 'SIGNATURE', 'CITY', 'STATEORCOUNTRY', 'SIGNATUREDATE'],
  INFOTABLE: [
    'ACCESSION_NUMBER', 'INFOTABLE_SK', 'NAMEOFISSUER', 'TITLEOFCLASS', 'CUSIP', 'FIGI', 'VALUE', 'SSHPRNAMT', 'SSHPRNAMTTYPE', 'PUTCALL',
    'INVESTMENTDISCRETION', 'OTHERMANAGER', 'VOTING_AUTH_SOLE', 'VOTING_AUTH_SHARED', 'VOTING_AUTH_NONE',
  ],
} as const;
export type ThirteenFDatasetTableName = keyof typeof THIRTEENF_DATASET_COLUMNS;
export type ThirteenFDatasetRow = Partial<Record<string, string | number>>;

/** Rows per table (objects keyed by column). */
export type ThirteenFDatasetRows = Record<ThirteenFDatasetTableName, ThirteenFDatasetRow[]>;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `2023-09-30`, `09-30-2023` or `20230930` -> `30-SEP-2023`, the data sets' form. */
export function datasetDateOf(value: string): string {
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const mdy = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1]!, iso[2]!, iso[3]!] : mdy ? [mdy[3]!, mdy[1]!, mdy[2]!] : ['', '', ''];
  if (!y) throw new Error(`not a date: ${value}`);
  return `${d}-${MONTHS[Number(m) - 1]}-${y}`;
}

const tag = (xml: string, name: string): string => new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(xml)?.[1]?.trim() ?? '';

/** One fixture 13F filing (complete submission .txt) as data-set rows; infoTable rows numbered from `sk`. */
export function thirteenFDatasetRowsOf(text: string, sk = 1): ThirteenFDatasetRows {
  const accession = /ACCESSION NUMBER:\s*(\S+)/.exec(text)?.[1] ?? '';
  const filed = /FILED AS OF DATE:\s*(\d{8})/.exec(text)?.[1] ?? '';
  const [primary = '', table = ''] = [...text.matchAll(/<XML>([\s\S]*?)<\/XML>/g)].map((m) => m[1]!);
  const period = datasetDateOf(tag(primary, 'periodOfReport'));
  const infos = [...table.matchAll(/<(?:\w+:)?infoTable>([\s\S]*?)<\/(?:\w+:)?infoTable>/g)].map((m) => m[1]!);
  return {
    SUBMISSION: [{ ACCESSION_NUMBER: accession, FILING_DATE: datasetDateOf(filed), SUBMISSIONTYPE: tag(primary, 'submissionType'), CIK: tag(primary, 'cik'), PERIODOFREPORT: period }],
    COVERPAGE: [
      {
        ACCESSION_NUMBER: accession,
        REPORTCALENDARORQUARTER: datasetDateOf(tag(primary, 'reportCalendarOrQuarter')),
        ISAMENDMENT: tag(primary, 'isAmendment') === 'true' ? 'Y' : 'N',
        FILINGMANAGER_NAME: tag(primary, 'name'),
        FILINGMANAGER_CITY: tag(primary, 'city'),
        REPORTTYPE: tag(primary, 'reportType'),
        FORM13FFILENUMBER: tag(primary, 'form13FFileNumber'),
        CRDNUMBER: tag(primary, 'crdNumber'),
        SECFILENUMBER: tag(primary, 'secFileNumber'),
        PROVIDEINFOFORINSTRUCTION5: tag(primary, 'provideInfoForInstruction5'),
      },
    ],
    SUMMARYPAGE: [{ ACCESSION_NUMBER: accession, OTHERINCLUDEDMANAGERSCOUNT: tag(primary, 'otherIncludedManagersCount'), TABLEENTRYTOTAL: tag(primary, 'tableEntryTotal'), TABLEVALUETOTAL: tag(primary, 'tableValueTotal'), ISCONFIDENTIALOMITTED: 'N' }],
    OTHERMANAGER: [],
    OTHERMANAGER2: [],
    SIGNATURE: [{ ACCESSION_NUMBER: accession, NAME: tag(primary, 'name'), SIGNATUREDATE: datasetDateOf(tag(primary, 'signatureDate')) }],
    INFOTABLE: infos.map((x, i) => ({
      ACCESSION_NUMBER: accession,
      INFOTABLE_SK: sk + i,
      NAMEOFISSUER: tag(x, 'nameOfIssuer'),
      TITLEOFCLASS: tag(x, 'titleOfClass'),
      CUSIP: tag(x, 'cusip'),
      FIGI: tag(x, 'figi'),
      VALUE: tag(x, 'value'),
      SSHPRNAMT: tag(x, 'sshPrnamt'),
      SSHPRNAMTTYPE: tag(x, 'sshPrnamtType'),
      PUTCALL: tag(x, 'putCall'),
      INVESTMENTDISCRETION: tag(x, 'investmentDiscretion'),
      OTHERMANAGER: tag(x, 'otherManager'),
      VOTING_AUTH_SOLE: tag(x, 'Sole'),
      VOTING_AUTH_SHARED: tag(x, 'Shared'),
      VOTING_AUTH_NONE: tag(x, 'None'),
    })),
  };
}

/** The rows of several filings together, table by table, infoTable rows numbered on. */
export function thirteenFDatasetRowsFromFixtures(files: readonly string[], fixturesDir = defaultFixturesDir()): ThirteenFDatasetRows {
  const out = emptyThirteenFDatasetRows();
  for (const file of files) {
    const rows = thirteenFDatasetRowsOf(readFileSync(join(fixturesDir, '13f', file), 'utf8'), out.INFOTABLE.length + 1);
    for (const t of Object.keys(out) as ThirteenFDatasetTableName[]) out[t].push(...rows[t]);
  }
  return out;
}

export function emptyThirteenFDatasetRows(): ThirteenFDatasetRows {
  return { SUBMISSION: [], COVERPAGE: [], SUMMARYPAGE: [], OTHERMANAGER: [], OTHERMANAGER2: [], SIGNATURE: [], INFOTABLE: [] };
}

/** One row as a TSV line in the table's column order. */
export function thirteenFDatasetLine(table: ThirteenFDatasetTableName, row: ThirteenFDatasetRow): string {
  return THIRTEENF_DATASET_COLUMNS[table].map((c) => String(row[c] ?? '')).join('\t');
}

/** A table's TSV text: the header line, then the rows (LF line ends). */
export function thirteenFDatasetTsv(table: ThirteenFDatasetTableName, rows: readonly ThirteenFDatasetRow[]): string {
  return [THIRTEENF_DATASET_COLUMNS[table].join('\t'), ...rows.map((r) => thirteenFDatasetLine(table, r))].join('\n') + '\n';
}

/** Writes the data-set zip: the seven tables as `<folder>/<TABLE>.tsv` and a readme, as SEC's zips hold them. */
export function writeThirteenFDataset(path: string, rows: ThirteenFDatasetRows, folder = ''): Promise<void> {
  const prefix = folder ? `${folder}/` : '';
  const entries: SubmissionsZipEntry[] = [
    { name: `${prefix}FORM13F_readme.htm`, bytes: Buffer.from('<html><body>test data set</body></html>') },
    ...(Object.keys(rows) as ThirteenFDatasetTableName[]).map((t) => ({ name: `${prefix}${t}.tsv`, bytes: Buffer.from(thirteenFDatasetTsv(t, rows[t])) })),
  ];
  return writeZip(path, entries);
}
