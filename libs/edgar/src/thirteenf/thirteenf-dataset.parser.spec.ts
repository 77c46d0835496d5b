import {
  emptyThirteenFDatasetRows,
  thirteenFDatasetLine,
  thirteenFDatasetRowsFromFixtures,
  thirteenFDatasetTsv,
  THIRTEENF_DATASET_COLUMNS,
  type ThirteenFDatasetRows,
} from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { datasetAccessionOf, datasetDate, infoTableLineReader, parseThirteenFDatasetHeaders, thirteenFDatasetTableOf } from './thirteenf-dataset.parser';

// No real data-set zip is among the fixtures: the data-set rows are written by the test helper
// from the real LTS One (2023, dollars) and ACTIAM (2021, thousands) complete submissions.
const LTSONE = '0001894188-23-000007';
const ACTIAM = '0001619124-21-000002';
let rows: ThirteenFDatasetRows;

beforeAll(() => {
  rows = thirteenFDatasetRowsFromFixtures(['LTSONE-0001894188-23-000007.txt', 'ACTIAM-0001619124-21-000002.txt']);
});

const headerTexts = (r: ThirteenFDatasetRows) => ({
  submission: thirteenFDatasetTsv('SUBMISSION', r.SUBMISSION),
  coverPage: thirteenFDatasetTsv('COVERPAGE', r.COVERPAGE),
  summaryPage: thirteenFDatasetTsv('SUMMARYPAGE', r.SUMMARYPAGE),
  otherManager: thirteenFDatasetTsv('OTHERMANAGER', r.OTHERMANAGER),
  otherManager2: thirteenFDatasetTsv('OTHERMANAGER2', r.OTHERMANAGER2),
  signature: thirteenFDatasetTsv('SIGNATURE', r.SIGNATURE),
});

describe('Form 13F data set tables', () => {
  it('names the tables of a data-set zip by entry name, with or without a folder', () => {
    expect(thirteenFDatasetTableOf('INFOTABLE.tsv')).toBe('infoTable');
    expect(thirteenFDatasetTableOf('01JUN2024-31AUG2024_form13f/OTHERMANAGER2.tsv')).toBe('otherManager2');
    expect(thirteenFDatasetTableOf('2023q4_form13f/SUBMISSION.TSV')).toBe('submission');
    expect(thirteenFDatasetTableOf('FORM13F_readme.htm')).toBeNull();
    expect(thirteenFDatasetTableOf('FORM13F_metadata.json')).toBeNull();
  });

  it('reads DD-MON-YYYY dates', () => {
    expect(datasetDate('30-JUN-2025')).toBe('2025-06-30');
    expect(datasetDate('1-Feb-2021')).toBe('2021-02-01');
    expect(datasetDate('2024-03-31')).toBe('2024-03-31');
    expect(datasetDate('31/03/2024')).toBeNull();
    expect(datasetDate(null)).toBeNull();
  });

  it('gives each filing the primary document fields the XML would give', () => {
    const filings = parseThirteenFDatasetHeaders(headerTexts(rows));
    expect([...filings.keys()]).toEqual([LTSONE, ACTIAM]);
    const lts = filings.get(LTSONE)!;
    expect(lts.filedDate).toBe('2023-11-14');
    expect(lts.primary).toMatchObject({
      form: '13F-HR',
      managerCik: '0001894188',
      managerName: 'LTS One Management LP',
      fileNumber: '028-22111',
      crdNumber: '000317572',
      secFileNumber: '801-123373',
      period: '2023-09-30',
      reportType: 'holdings',
      isAmendment: false,
      amendmentType: null,
      signedDate: '2023-11-14',
      tableEntryTotal: 14,
      tableValueTotal: 454_926_000,
    });
    expect(filings.get(ACTIAM)).toMatchObject({ filedDate: '2021-02-12', primary: { period: '2020-12-31', tableEntryTotal: 5, tableValueTotal: 732_158 } });
    // Each filing keeps its own header lines (its source content), one per table it appears in.
    expect(lts.lines).toHaveLength(4);
    expect(lts.lines.every((l) => l.startsWith(`${LTSONE}\t`))).toBe(true);
  });

  it('reads amendments, notices and both manager lists', () => {
    const r = emptyThirteenFDatasetRows();
    const acc = '0000950123-25-008361';
    r.SUBMISSION.push({ ACCESSION_NUMBER: acc, FILING_DATE: '14-AUG-2025', SUBMISSIONTYPE: '13F-HR/A', CIK: '1067983', PERIODOFREPORT: '31-MAR-2025' });
    r.COVERPAGE.push({ ACCESSION_NUMBER: acc, REPORTCALENDARORQUARTER: '31-MAR-2025', ISAMENDMENT: 'Y', AMENDMENTNO: '1', AMENDMENTTYPE: 'NEW HOLDINGS', FILINGMANAGER_NAME: 'Berkshire Hathaway Inc', REPORTTYPE: '13F COMBINATION REPORT' });
    r.OTHERMANAGER.push({ ACCESSION_NUMBER: acc, OTHERMANAGER_SK: 7, CIK: '0000895421', FORM13FFILENUMBER: '028-24289', NAME: 'MORGAN STANLEY' });
    r.OTHERMANAGER2.push({ ACCESSION_NUMBER: acc, SEQUENCENUMBER: 2, CIK: '0001229262', FORM13FFILENUMBER: '028-10981', NAME: 'GOLDMAN SACHS ASSET MANAGEMENT, L.P.' });
    r.OTHERMANAGER2.push({ ACCESSION_NUMBER: acc, SEQUENCENUMBER: 1, CIK: '0000769993', FORM13FFILENUMBER: '028-00687', NAME: 'GOLDMAN SACHS & CO. LLC' });
    r.COVERPAGE.push({ ACCESSION_NUMBER: '0000000000-00-000000', FILINGMANAGER_NAME: 'not in SUBMISSION', REPORTTYPE: '13F NOTICE' });
    const filings = parseThirteenFDatasetHeaders(headerTexts(r));
    expect(filings.size).toBe(1);
    expect(filings.get(acc)!.primary).toMatchObject({
      form: '13F-HR/A',
      managerCik: '0001067983',
      reportType: 'combination',
      isAmendment: true,
      amendmentNumber: 1,
      amendmentType: 'new_holdings',
      otherManagers: [{ sequence: null, cik: '0000895421', name: 'MORGAN STANLEY', fileNumber: '028-24289' }],
      includedManagers: [
        { sequence: 1, cik: '0000769993', name: 'GOLDMAN SACHS & CO. LLC', fileNumber: '028-00687' },
        { sequence: 2, cik: '0001229262', name: 'GOLDMAN SACHS ASSET MANAGEMENT, L.P.', fileNumber: '028-10981' },
      ],
    });
    r.COVERPAGE[0]!.AMENDMENTTYPE = 'RESTATEMENT';
    expect(parseThirteenFDatasetHeaders(headerTexts(r)).get(acc)!.primary.amendmentType).toBe('restatement');
  });

  it('reads INFOTABLE lines into holdings whose counts and sums are the filings\' own', () => {
    const header = THIRTEENF_DATASET_COLUMNS.INFOTABLE.join('\t');
    const read = infoTableLineReader(header);
    const of = (acc: string) => rows.INFOTABLE.filter((r) => r.ACCESSION_NUMBER === acc).map((r, i) => read(thirteenFDatasetLine('INFOTABLE', r), i));
    const lts = of(LTSONE);
    const actiam = of(ACTIAM);
    // SOURCES.md: LTS One 14 rows summing to 454,926,000 (dollars); ACTIAM 5 rows summing to 732,158 (x$1000).
    expect(lts).toHaveLength(14);
    expect(lts.reduce((s, h) => s + h.valueFiled, 0)).toBe(454_926_000);
    expect(actiam).toHaveLength(5);
    expect(actiam.reduce((s, h) => s + h.valueFiled, 0)).toBe(732_158);
    expect(lts[0]).toEqual({
      index: 0,
      issuer: 'AMAZON COM INC',
      classTitle: 'COM',
      cusip: '023135106',
      figi: null,
      valueFiled: 17_479_000,
      shares: 137_500,
      shareType: 'SH',
      putCall: null,
      discretion: 'SOLE',
      otherManagers: [],
      votingSole: 137_500,
      votingShared: 0,
      votingNone: 0,
      quote: thirteenFDatasetLine('INFOTABLE', rows.INFOTABLE[0]!),
    });
    expect(actiam.find((h) => h.issuer === 'APPLE INC')).toMatchObject({ shares: 1_733_777, valueFiled: 230_054 });
    expect(datasetAccessionOf(lts[3]!.quote)).toBe(LTSONE);
  });

  it('reads options, shared discretion and included managers of a row; refuses a row that is not a holding', () => {
    const header = THIRTEENF_DATASET_COLUMNS.INFOTABLE.join('\t');
    const read = infoTableLineReader(header);
    const base = { ...rows.INFOTABLE[0]! };
    const option = read(thirteenFDatasetLine('INFOTABLE', { ...base, PUTCALL: 'Put', INVESTMENTDISCRETION: 'DFND', OTHERMANAGER: '1,3', FIGI: 'BBG000BVPV84' }), 7);
    expect(option).toMatchObject({ index: 7, putCall: 'put', discretion: 'DFND', otherManagers: [1, 3], figi: 'BBG000BVPV84' });
    expect(read(thirteenFDatasetLine('INFOTABLE', { ...base, PUTCALL: 'CALL', OTHERMANAGER: '0' }), 0)).toMatchObject({ putCall: 'call', otherManagers: [] });
    expect(() => read(thirteenFDatasetLine('INFOTABLE', { ...base, SSHPRNAMTTYPE: 'XX' }), 0)).toThrow(EdgarParseError);
    expect(() => read(thirteenFDatasetLine('INFOTABLE', { ...base, CUSIP: '' }), 0)).toThrow(/no CUSIP/);
    expect(() => read(thirteenFDatasetLine('INFOTABLE', { ...base, VALUE: 'n/a' }), 0)).toThrow(/VALUE is not a number/);
    // Columns are found by name: a reordered header reads the same.
    const reordered = [...THIRTEENF_DATASET_COLUMNS.INFOTABLE].reverse();
    const line = reordered.map((c) => String(base[c] ?? '')).join('\t');
    expect(infoTableLineReader(reordered.join('\t'))(line, 0)).toMatchObject({ cusip: '023135106', valueFiled: 17_479_000, quote: line });
    expect(() => infoTableLineReader('ACCESSION_NUMBER\tCUSIP')).toThrow(/header lacks NAMEOFISSUER, VALUE, SSHPRNAMT, SSHPRNAMTTYPE/);
  });
});
