import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRecentFilings } from '../submissions.parser';
import { parseCurrentEvents } from './current-events.parser';
import { parseDailyIndex } from './daily-index.parser';
import { parseFilingDirectory, parseFilingIndexPage } from './filing-index.parser';
import { archivesDocumentPath, dailyIndexPath, dashedAccession, easternToIso, isAmendmentForm } from './filing-urls';
import { itemsOf, parseSubmissionsOverflow } from './submissions-filings.parser';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const read = (dir: string, file: string) => readFileSync(join(FIXTURES, dir, file));

describe('submissions filings', () => {
  it("reads MSFT's recent block: 1,010 filings, the 10-K of 2025-07-30 first", () => {
    const filings = parseRecentFilings(read('submissions', 'CIK0000789019.json'));
    expect(filings).toHaveLength(1010);
    expect(filings[0]).toEqual({
      accessionNumber: '0000950170-25-100235',
      filingDate: '2025-07-30',
      reportDate: '2025-06-30',
      acceptanceDateTime: '2025-07-30T20:11:40.000Z',
      act: '34',
      form: '10-K',
      fileNumber: '001-37845',
      filmNumber: '251167157',
      items: null,
      coreType: 'XBRL',
      size: 34889671,
      isXBRL: true,
      isInlineXBRL: true,
      primaryDocument: 'msft-20250630.htm',
      primaryDocDescription: '10-K',
    });
  });

  it('reads an overflow file (same columns at the top level)', () => {
    const json = JSON.parse(read('submissions', 'CIK0001318605.json').toString('utf8')) as { filings: { recent: unknown } };
    const overflow = parseSubmissionsOverflow(JSON.stringify(json.filings.recent));
    expect(overflow).toHaveLength(1001);
    expect(overflow[0]).toMatchObject({
      accessionNumber: '0001790565-22-000015',
      filingDate: '2022-11-30',
      reportDate: '2022-11-28',
      form: '4',
      act: null,
      size: 8579,
      isXBRL: false,
      primaryDocument: 'xslF345X03/edgardoc.xml',
      primaryDocDescription: 'PRIMARY DOCUMENT',
    });
    expect(() => parseSubmissionsOverflow('{"cik":"1"}')).toThrow(/accessionNumber/);
  });

  it('splits items', () => {
    expect(itemsOf('2.02,9.01').map((i) => i.number)).toEqual(['2.02', '9.01']);
    expect(itemsOf('9.01,2.02,2.02')).toEqual([
      { number: '2.02', title: 'Results of Operations and Financial Condition', legacy_number: null },
      { number: '9.01', title: 'Financial Statements and Exhibits', legacy_number: null },
    ]);
    // An old 8-K's numbers, mapped and kept.
    expect(itemsOf('5,7')).toEqual([
      { number: '8.01', title: 'Other Events', legacy_number: '5' },
      { number: '9.01', title: 'Financial Statements and Exhibits', legacy_number: '7' },
    ]);
    expect(itemsOf(null)).toEqual([]);
    expect(itemsOf('')).toEqual([]);
  });
});

describe('parseDailyIndex: the form layout (form.20200318.idx)', () => {
  const bytes = read('feeds', 'form.20200318.idx');
  const { layout, entries } = parseDailyIndex(bytes);

  it('reads every row of form.20200318.idx', () => {
    expect(layout).toBe('form');
    expect(entries).toHaveLength(4084);
    expect(entries[0]).toEqual({
      form: '1-A',
      companyName: 'DLP Positive Note Fund LLC',
      cik: '0001806014',
      dateFiled: '2020-03-18',
      fileName: 'edgar/data/1806014/0001140361-20-006155.txt',
      accession: '0001140361-20-006155',
      line: '1-A         DLP Positive Note Fund LLC                                    1806014     20200318    edgar/data/1806014/0001140361-20-006155.txt',
    });
  });

  it('keeps form types with blanks and amendments, and quotes rows verbatim', () => {
    expect(entries.find((e) => e.accession === '0001010549-20-000033')).toMatchObject({ form: '1-A POS', companyName: 'Belpointe REIT, Inc.', cik: '0001749817' });
    expect(entries.find((e) => e.accession === '0001193125-20-076863')).toMatchObject({ form: '10-12B/A', companyName: 'MSG ENTERTAINMENT SPINCO, INC.' });
    const msft = entries.filter((e) => e.cik === '0000789019');
    expect(msft).toEqual([expect.objectContaining({ form: '4', companyName: 'MICROSOFT CORP', accession: '0001626431-20-000031' })]);
    const text = bytes.toString('latin1');
    for (const e of entries) expect(text.includes(e.line)).toBe(true);
  });

  it('rejects what is not a daily index', () => {
    expect(() => parseDailyIndex('hello').entries).toThrow(/header/);
  });
});

// company.20221003.idx and master.20200103.idx are not in ../shared/fixtures: the sample holds them
// (real SEC files from public repositories, see sample/SOURCES.md).
const SAMPLE = resolve(__dirname, '../../../../sample/fixtures');

describe('parseDailyIndex: the company layout (company.20221003.idx)', () => {
  const bytes = readFileSync(join(SAMPLE, 'feeds', 'company.20221003.idx'));
  const { layout, entries } = parseDailyIndex(bytes);

  it('tells the layout by its header, which SEC breaks over two lines, and reads every row', () => {
    expect(layout).toBe('company');
    expect(entries).toHaveLength(4925);
    expect(entries[0]).toEqual({
      form: '1-A POS',
      companyName: '1st stREIT Office Inc.',
      cik: '0001700461',
      dateFiled: '2022-10-03',
      fileName: 'edgar/data/1700461/0001104659-22-105357.txt',
      accession: '0001104659-22-105357',
      line: '1st stREIT Office Inc.                                        1-A POS     1700461     20221003    edgar/data/1700461/0001104659-22-105357.txt',
    });
  });

  it('splits name and form at the column: names cut at 60 characters, form types with blanks, rows of another date', () => {
    expect(entries.find((e) => e.accession === '0001564590-22-033053')).toMatchObject({ form: '8-K', companyName: 'Tesla, Inc.', cik: '0001318605' });
    expect(entries.find((e) => e.accession === '0001104659-22-104702')).toMatchObject({ form: '497', companyName: 'AIM VARIABLE INSURANCE FUNDS (INVESCO VARIABLE INSURANCE FUN' });
    expect(entries.find((e) => e.accession === '0001104659-22-104841')).toMatchObject({ form: 'SC 13D/A', companyName: '36Kr Holdings Inc.' });
    expect(entries.find((e) => e.accession === '9999999995-22-002867')).toMatchObject({ form: 'EFFECT', companyName: 'AEye, Inc.', dateFiled: '2022-09-30' });
    const text = bytes.toString('latin1');
    for (const e of entries) expect(text.includes(e.line)).toBe(true);
  });
});

describe('parseDailyIndex: the master layout (master.20200103.idx)', () => {
  const bytes = readFileSync(join(SAMPLE, 'feeds', 'master.20200103.idx'));
  const { layout, entries } = parseDailyIndex(bytes);

  it('reads every pipe-delimited row', () => {
    expect(layout).toBe('master');
    expect(entries).toHaveLength(7989);
    expect(entries[0]).toEqual({
      form: '4',
      companyName: 'CORE LABORATORIES N V',
      cik: '0001000229',
      dateFiled: '2020-01-03',
      fileName: 'edgar/data/1000229/0001209191-20-000788.txt',
      accession: '0001209191-20-000788',
      line: '1000229|CORE LABORATORIES N V|4|20200103|edgar/data/1000229/0001209191-20-000788.txt',
    });
  });

  it('keeps names as filed, form types with blanks, and rows disseminated late with their own date', () => {
    expect(entries.filter((e) => e.cik === '0000320193').map((e) => [e.form, e.accession])).toEqual([
      ['DEF 14A', '0001193125-20-001450'],
      ['DEFA14A', '0001193125-20-001452'],
    ]);
    expect(entries.find((e) => e.accession === '0001005284-20-000002')).toMatchObject({ companyName: 'UNIVERSAL DISPLAY CORP \\PA\\' });
    expect(entries.find((e) => e.accession === '0001140361-20-000122')).toMatchObject({ form: 'SC 13D/A', companyName: 'BROOKFIELD ASSET MANAGEMENT INC.' });
    expect(entries.find((e) => e.accession === '0001144204-19-047413')).toMatchObject({ form: 'CORRESP', dateFiled: '2019-10-04' });
    const text = bytes.toString('latin1');
    for (const e of entries) expect(text.includes(e.line)).toBe(true);
  });

  it('builds the path of each layout', () => {
    expect(dailyIndexPath('2020-01-03', 'master')).toBe('/Archives/edgar/daily-index/2020/QTR1/master.20200103.idx');
    expect(dailyIndexPath('2022-10-03', 'company')).toBe('/Archives/edgar/daily-index/2022/QTR4/company.20221003.idx');
  });
});

describe('parseCurrentEvents', () => {
  const bytes = read('feeds', 'current-1eb469.html');
  const listing = parseCurrentEvents(bytes);

  it('reads the 24 10-K rows of 2021-04-16', () => {
    expect(listing.date).toBe('2021-04-16');
    expect(listing.entries).toHaveLength(24);
    expect(listing.entries[0]).toEqual({
      dateFiled: '2021-04-16',
      form: '10-K',
      cik: '0001096950',
      companyName: 'ADVANCED CONTAINER TECHNOLOGIES, INC.',
      accession: '0001721868-21-000228',
      indexPath: '/Archives/edgar/data/1096950/0001721868-21-000228-index.html',
      line: '04-16-2021   <a href="/Archives/edgar/data/1096950/0001721868-21-000228-index.html">10-K</a>          <a href="browse-edgar?action=getcompany&CIK=1096950">1096950</a>   ADVANCED CONTAINER TECHNOLOGIES, INC.',
    });
    expect(listing.entries.filter((e) => e.form === '10-K/A').map((e) => e.companyName)).toEqual([
      'BorrowMoney.com, Inc.', 'GIVEMEPOWER CORP', 'INFINITE GROUP INC', 'Noble Corp', 'Noble Finance Co', 'Pipergy Inc.', 'TENAX THERAPEUTICS, INC.',
    ]);
    expect(listing.entries[23]).toMatchObject({ cik: '0001042187', companyName: 'Yunhong CTI Ltd.', accession: '0001437749-21-009071' });
    const html = bytes.toString('utf8');
    for (const e of listing.entries) expect(html.includes(e.line)).toBe(true);
  });

  it('rejects other pages', () => {
    expect(() => parseCurrentEvents('<html><body>nothing</body></html>')).toThrow(/Current Events/);
  });
});

describe('filing indexes', () => {
  it('reads the directory listing index.json of DatChat 8-K 0001213900-24-004875', () => {
    const dir = parseFilingDirectory(read('feeds', '0001213900-24-004875-index.json'));
    expect(dir).toMatchObject({ path: '/Archives/edgar/data/1648960/000121390024004875', cik: '0001648960', accession: '0001213900-24-004875' });
    expect(dir.items).toHaveLength(25);
    expect(dir.items.find((i) => i.name === '0001213900-24-004875-xbrl.zip')).toEqual({ name: '0001213900-24-004875-xbrl.zip', type: 'compressed.gif', size: 101351, lastModified: '2024-01-19 16:21:45' });
    expect(dir.likelyPrimaryDocument).toBe('ea191807-8k_datchat.htm');
  });

  it('reads the index page of Form 4 0001562180-17-002633', () => {
    const page = parseFilingIndexPage(read('feeds', '0001562180-17-002633-index.htm'));
    expect(page).toMatchObject({
      accession: '0001562180-17-002633',
      form: '4',
      formDescription: 'Statement of changes in beneficial ownership of securities',
      filingDate: '2017-08-09',
      acceptedText: '2017-08-09 15:24:40',
      // EDT: the page's Last-Modified header says 19:24:40 GMT.
      acceptedAt: '2017-08-09T19:24:40.000Z',
      periodOfReport: '2017-08-08',
      filers: [
        { name: 'INTERNATIONAL BUSINESS MACHINES CORP', role: 'Issuer', cik: '0000051143' },
        { name: 'Rometty Virginia M', role: 'Reporting', cik: '0001333712' },
      ],
    });
    expect(page.documents).toHaveLength(3);
    expect(page.primaryDocument).toEqual({
      seq: '1',
      description: 'PRIMARY DOCUMENT',
      document: 'primarydocument.xml',
      href: '/Archives/edgar/data/51143/000156218017002633/primarydocument.xml',
      type: '4',
      size: 4465,
    });
  });

  // Not in ../shared/fixtures: the sample holds it (a real SEC page from a public repository, see sample/SOURCES.md).
  it("reads a 10-K's form description whole, hyphen in the form name and all (Lennar, 0001628280-17-000327)", () => {
    const page = parseFilingIndexPage(readFileSync(join(SAMPLE, 'feeds', '0001628280-17-000327-index.htm')));
    expect(page).toMatchObject({
      accession: '0001628280-17-000327',
      form: '10-K',
      formDescription: 'Annual report [Section 13 and 15(d), not S-K Item 405]',
      filingDate: '2017-01-20',
      periodOfReport: '2016-11-30',
      filers: [{ name: 'LENNAR CORP /NEW/', role: 'Filer', cik: '0000920760' }],
    });
  });
});

describe('filing urls', () => {
  it('builds Archives paths and tells amendments', () => {
    expect(archivesDocumentPath('0000789019', '0000950170-25-100235', 'msft-20250630.htm')).toBe('/Archives/edgar/data/789019/000095017025100235/msft-20250630.htm');
    expect(dailyIndexPath('2020-03-18')).toBe('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx');
    expect(dailyIndexPath('2025-11-21')).toBe('/Archives/edgar/daily-index/2025/QTR4/form.20251121.idx');
    expect(dashedAccession('000121390024004875')).toBe('0001213900-24-004875');
    expect(isAmendmentForm('10-K/A')).toBe(true);
    expect(isAmendmentForm('10-K')).toBe(false);
    expect(easternToIso('2025-01-15 16:05:00')).toBe('2025-01-15T21:05:00.000Z');
  });
});
