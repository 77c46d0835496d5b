import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { parseCompleteSubmission, type CompleteSubmission } from './submission.parser';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '8k', file), 'utf8');
const FILES = [
  'AAPL-0000912057-00-002128.txt',
  'AAPL-a8-kq1201712312016.htm',
  'ABVC-0001213900-25-032135.txt',
  'ACFN-0001493152-25-001317.nc',
  'ADBE-0000796343-23-000044.txt',
  'BKE-BuckleInc.8-K.EX99.1.html',
  'JWN-0000072333-23-000015.txt',
  'MMM-0000066740-24-000023.txt',
  'NVDA-0001045810-26-000024.txt',
];
const header = ({ documents: _d, ...rest }: CompleteSubmission) => ({ ...rest, items: rest.items.map((i) => i.number) });
const listing = (s: CompleteSubmission): string[] => s.documents.map((d) => `${d.sequence} ${d.type} ${d.filename ?? '-'} ${d.format}${d.binary ? ' binary' : ''}`);

describe('parseCompleteSubmission: headers', () => {
  it('ADBE .txt: every header field; ACCEPTANCE-DATETIME is Eastern (EDT here) turned into UTC', () => {
    expect(header(parseCompleteSubmission(read('ADBE-0000796343-23-000044.txt')))).toEqual({
      accession: '0000796343-23-000044',
      form: '8-K',
      filed_date: '2023-03-15',
      accepted_at: '2023-03-15T20:06:36.000Z',
      period_of_report: '2023-03-15',
      public_document_count: 15,
      items: ['2.02', '9.01'],
      items_unmatched: [],
      filers: [{ cik: '0000796343', name: 'ADOBE INC.', role: 'filer' }],
    });
  });

  it.each([
    ['ABVC-0001213900-25-032135.txt', '0001213900-25-032135', '2025-04-15', '2025-04-15', ['2.02', '4.02', '7.01', '9.01'], '0001173313', 'ABVC BIOPHARMA, INC.'],
    ['JWN-0000072333-23-000015.txt', '0000072333-23-000015', '2023-03-06', '2023-03-01', ['5.02', '9.01'], '0000072333', 'NORDSTROM INC'],
    ['NVDA-0001045810-26-000024.txt', '0001045810-26-000024', '2026-03-06', '2026-03-02', ['5.02', '9.01'], '0001045810', 'NVIDIA CORP'],
    ['MMM-0000066740-24-000023.txt', '0000066740-24-000023', '2024-03-08', '2024-03-08', ['8.01'], '0000066740', '3M CO'],
  ])('%s', (file, accession, filed, period, items, cik, name) => {
    expect(header(parseCompleteSubmission(read(file)))).toMatchObject({
      accession,
      form: '8-K',
      filed_date: filed,
      period_of_report: period,
      items,
      items_unmatched: [],
      filers: [{ cik, name, role: 'filer' }],
    });
  });

  it('accepted_at matches the index pages (JWN 17:29:21 EST, NVDA 16:11:25 EST)', () => {
    expect(parseCompleteSubmission(read('JWN-0000072333-23-000015.txt')).accepted_at).toBe('2023-03-06T22:29:21.000Z');
    expect(parseCompleteSubmission(read('NVDA-0001045810-26-000024.txt')).accepted_at).toBe('2026-03-06T21:11:25.000Z');
  });

  it('AAPL 2000: PEM wrapper, empty ITEM INFORMATION lines, no acceptance time, no FILENAME lines', () => {
    const s = parseCompleteSubmission(read('AAPL-0000912057-00-002128.txt'));
    expect(header(s)).toEqual({
      accession: '0000912057-00-002128',
      form: '8-K',
      filed_date: '2000-01-24',
      accepted_at: null,
      period_of_report: '2000-01-19',
      public_document_count: 2,
      items: [],
      items_unmatched: [],
      filers: [{ cik: '0000320193', name: 'APPLE COMPUTER INC', role: 'filer' }],
    });
    expect(s.documents.map(({ body: _b, ...d }) => d)).toEqual([
      { type: '8-K', sequence: 1, filename: null, description: '8-K', format: 'text', binary: false },
      { type: 'EX-99.1', sequence: 2, filename: null, description: 'EXHIBIT 99.1', format: 'text', binary: false },
    ]);
    expect(s.documents[1]!.body).not.toContain('PRIVACY-ENHANCED');
  });

  it('ACFN .nc: tag header with <ITEMS> numbers, bare-CR lines', () => {
    const text = read('ACFN-0001493152-25-001317.nc');
    expect(text.split('\n')).toHaveLength(2);
    const s = parseCompleteSubmission(text);
    expect(header(s)).toEqual({
      accession: '0001493152-25-001317',
      form: '8-K',
      filed_date: '2025-01-08',
      accepted_at: null,
      period_of_report: '2025-01-06',
      public_document_count: 14,
      items: ['5.02', '9.01'],
      items_unmatched: [],
      filers: [{ cik: '0000880984', name: 'ACORN ENERGY, INC.', role: 'filer' }],
    });
    expect(listing(s).slice(0, 3)).toEqual(['1 8-K form8-k.htm html', '2 EX-10.1 ex10-1.htm html', '3 EX-101.SCH acfn-20250106.xsd xml']);
    expect(s.documents[0]!.description).toBeNull();
    expect(s.documents[1]!.body.startsWith('\r<HTML>\r<HEAD>')).toBe(true);
  });

  it('a run of <DOCUMENT>s without a header (BKE EX-99.1 as stored): header fields are null', () => {
    const s = parseCompleteSubmission(read('BKE-BuckleInc.8-K.EX99.1.html'));
    expect(header(s)).toEqual({
      accession: null,
      form: null,
      filed_date: null,
      accepted_at: null,
      period_of_report: null,
      public_document_count: null,
      items: [],
      items_unmatched: [],
      filers: [],
    });
    expect(listing(s)).toEqual(['2 EX-99.1 bke20241122-8kexhibit.htm html']);
  });

  it('reports ITEM INFORMATION titles and <ITEMS> values it cannot map', () => {
    const s = parseCompleteSubmission(
      '<SEC-HEADER>\nITEM INFORMATION:\t\tNot A Real Item\n<ITEMS>9.99\n</SEC-HEADER>\n<DOCUMENT>\n<TYPE>8-K\n<TEXT>\nx\n</TEXT>\n</DOCUMENT>\n',
    );
    expect(s.items).toEqual([]);
    expect(s.items_unmatched).toEqual(['Not A Real Item', '9.99']);
  });

  it('throws EdgarParseError on a file without documents', () => {
    expect(() => parseCompleteSubmission(read('LGE-KU-0001104659-03-004925.html'))).toThrow(EdgarParseError);
  });
});

describe('parseCompleteSubmission: documents', () => {
  it('ADBE: all 15 documents, binaries marked, formats from wrapper, extension and content', () => {
    expect(listing(parseCompleteSubmission(read('ADBE-0000796343-23-000044.txt')))).toEqual([
      '1 8-K adbe-20230315.htm html',
      '2 EX-99.1 adbeex991q123.htm html',
      '3 EX-101.SCH adbe-20230315.xsd xml',
      '4 EX-101.DEF adbe-20230315_def.xml xml',
      '5 EX-101.LAB adbe-20230315_lab.xml xml',
      '6 EX-101.PRE adbe-20230315_pre.xml xml',
      '7 GRAPHIC image.jpg uuencoded binary',
      '8 XML R1.htm html',
      '9 XML adbe-20230315_htm.xml xml',
      '10 EXCEL Financial_Report.xlsx uuencoded binary',
      '11 XML Show.js other',
      '12 XML report.css other',
      '13 XML FilingSummary.xml xml',
      '15 JSON MetaLinks.json json',
      '16 ZIP 0000796343-23-000044-xbrl.zip uuencoded binary',
    ]);
  });

  it.each([
    ['ABVC-0001213900-25-032135.txt', ['1 8-K ea0238372-8k_abvcbio.htm html', '2 EX-99.1 ea023837201ex99-1_abvcbio.htm html', '3 GRAPHIC ex99-1_001.jpg uuencoded binary']],
    ['JWN-0000072333-23-000015.txt', ['1 8-K jwn-20230301.htm html', '2 EX-10.1 jwn-03062023xex101.htm html', '3 EX-10.2 jwn-03062023xex102.htm html']],
    ['MMM-0000066740-24-000023.txt', ['1 8-K mmm-20240308.htm html', '2 EX-99.1 pressrelease3-8x24.htm html', '3 EX-101.SCH mmm-20240308.xsd xml']],
    ['NVDA-0001045810-26-000024.txt', ['1 8-K nvda-20260302.htm html', '2 EX-10.1 formxex101xfy27variablecom.htm html', '3 EX-101.SCH nvda-20260302.xsd xml']],
  ])('%s: first documents', (file, first) => {
    expect(listing(parseCompleteSubmission(read(file))).slice(0, first.length)).toEqual(first);
  });

  it.each(FILES)('%s: each body is exactly the text between <TEXT> and </TEXT>', (file) => {
    const text = read(file);
    const s = parseCompleteSubmission(text);
    let from = 0;
    for (const d of s.documents) {
      const at = text.indexOf(`<TEXT>${d.body}</TEXT>`, from);
      expect(at).toBeGreaterThanOrEqual(0);
      from = at + d.body.length;
    }
    expect(s.documents.length).toBe(text.match(/^<DOCUMENT>/gm)!.length);
  });

  it('keeps <XBRL>/<XML> wrappers in the body and reads the format inside them', () => {
    const adbe = parseCompleteSubmission(read('ADBE-0000796343-23-000044.txt')).documents;
    expect(adbe[0]!.body.startsWith('\n<XBRL>\n<?xml')).toBe(true);
    expect(adbe[8]!.body.startsWith('\n<XML>\n')).toBe(true);
    const bare = parseCompleteSubmission('<DOCUMENT>\n<TYPE>EX-99.1\n<TEXT>\n<XBRL>\n<?xml version="1.0"?><html><body><p>x</p></body></html>\n</XBRL>\n</TEXT>\n</DOCUMENT>');
    expect(bare.documents[0]!.format).toBe('html');
  });

  it('marks a uuencoded PDF as pdf and binary', () => {
    const s = parseCompleteSubmission('<DOCUMENT>\n<TYPE>EX-99.2\n<SEQUENCE>3\n<FILENAME>deck.pdf\n<TEXT>\n<PDF>\nbegin 644 deck.pdf\nM)5!$1BTQ+C0*\n`\nend\n</PDF>\n</TEXT>\n</DOCUMENT>');
    expect(s.documents[0]).toMatchObject({ type: 'EX-99.2', sequence: 3, filename: 'deck.pdf', format: 'pdf', binary: true });
  });
});
