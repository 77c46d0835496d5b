import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocumentText } from '@app/decks';
import { defaultFixturesDir } from '@app/testing';
import { exhibitPages, exhibitTitle } from './exhibit-pages';
import { parseCompleteSubmission, type SubmissionDocument } from './submission.parser';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '8k', file), 'utf8');
const doc = (file: string, sequence: number): SubmissionDocument => parseCompleteSubmission(read(file)).documents.find((d) => d.sequence === sequence)!;
const pagesOf = (d: SubmissionDocument): string[] => exhibitPages(d.body, d.format === 'text' ? 'text' : 'html').pages;

/** Pages are non-empty, trimmed, without blank lines, and reproduced exactly by buildDocumentText offsets. */
function expectWellFormed(pages: string[]): void {
  for (const page of pages) {
    expect(page.length).toBeGreaterThan(0);
    expect(page.split('\n').every((line) => line.length > 0 && line === line.trim())).toBe(true);
  }
  const { text, offsets } = buildDocumentText(pages);
  expect(offsets.map((o) => text.slice(o.char_start, o.char_end))).toEqual(pages);
}

describe('exhibitPages on the fixture exhibits', () => {
  it('BKE EX-99.1 (stored with its SGML wrapper): 4 pages at the Workiva breaks, release text verbatim', () => {
    const pages = pagesOf(doc('BKE-BuckleInc.8-K.EX99.1.html', 2));
    expectWellFormed(pages);
    expect(pages).toHaveLength(4);
    const first = pages[0]!.split('\n');
    expect(first.slice(0, 2)).toEqual(['Exhibit 99.1', 'The Buckle, Inc.']);
    expect(first).toContain('THE BUCKLE, INC. REPORTS THIRD QUARTER NET INCOME');
    expect(first).toContain(
      'KEARNEY, NE -- (BUSINESS WIRE) -- The Buckle, Inc. (NYSE: BKE) announced today that net income for the fiscal quarter ended November 2, 2024 was $44.2 million, or $0.89 per share ($0.88 per share on a diluted basis).',
    );
    expect(pages[1]!.startsWith('About Buckle\n')).toBe(true);
    expect(pages[2]!.startsWith('THE BUCKLE, INC.\nCONSOLIDATED STATEMENTS OF INCOME\n')).toBe(true);
    expect(pages[3]!.startsWith('THE BUCKLE, INC.\nCONSOLIDATED BALANCE SHEETS\n')).toBe(true);
    expect(exhibitTitle(pages)).toBe('THE BUCKLE, INC. REPORTS THIRD QUARTER NET INCOME');
  });

  it('ADBE EX-99.1: 9 pages, each ending with its printed page number from 2 on; table rows on one line', () => {
    const pages = pagesOf(doc('ADBE-0000796343-23-000044.txt', 2));
    expectWellFormed(pages);
    expect(pages).toHaveLength(9);
    expect(pages.slice(1).map((p) => p.slice(p.lastIndexOf('\n') + 1))).toEqual(['2', '3', '4', '5', '6', '7', '8', '9']);
    expect(pages[0]).toContain('\nAdobe Reports Record Revenue in Q1 Fiscal 2023\nCompany raises Digital Media net new ARR and EPS annual targets\n');
    expect(pages[4]).toContain('\nCash and cash equivalents $ 4,072 $ 4,236\n');
    expect(exhibitTitle(pages)).toBe('Adobe Reports Record Revenue in Q1 Fiscal 2023');
  });

  it('MMM EX-99.1: 4 pages and its headline', () => {
    const pages = pagesOf(doc('MMM-0000066740-24-000023.txt', 2));
    expectWellFormed(pages);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toContain('\nST. PAUL, Minn., March 8, 2024 /PRNewswire/ -- 3M (NYSE: MMM) today announced');
    expect(exhibitTitle(pages)).toBe('3M Board of Directors Approves Spin-off of Solventum');
  });

  it('ABVC EX-99.1: 2 pages and its headline', () => {
    const pages = pagesOf(doc('ABVC-0001213900-25-032135.txt', 2));
    expectWellFormed(pages);
    expect(pages).toHaveLength(2);
    expect(exhibitTitle(pages)).toBe('ABVC BioPharma Announces 2024 Financial Results');
  });

  it('AAPL 2000 EX-99.1 (plain text): one page, lines trimmed and spaces collapsed', () => {
    const pages = pagesOf(doc('AAPL-0000912057-00-002128.txt', 2));
    expectWellFormed(pages);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.split('\n').slice(0, 3)).toEqual([
      'Apple Board of Directors Announces CEO Compensation',
      'CUPERTINO, California--January 19, 2000--Apple-Registered Trademark- today',
      'announced that its Board of Directors has unanimously voted to grant the',
    ]);
    expect(exhibitTitle(pages)).toBe('Apple Board of Directors Announces CEO Compensation');
  });

  it('AAPL 2000 8-K (plain text): split at <PAGE>, the leading empty page dropped', () => {
    const pages = pagesOf(doc('AAPL-0000912057-00-002128.txt', 1));
    expectWellFormed(pages);
    expect(pages.map((p) => p.split('\n')[0])).toEqual(['SECURITIES AND EXCHANGE COMMISSION', 'INFORMATION INCLUDED IN THIS REPORT', 'SIGNATURE', 'INDEX TO EXHIBITS']);
  });

  it('ACFN EX-10.1 (.nc, bare CR): pages without stray CRs', () => {
    const pages = pagesOf(doc('ACFN-0001493152-25-001317.nc', 2));
    expectWellFormed(pages);
    expect(pages.join('')).not.toContain('\r');
  });
});

describe('exhibitPages on main documents: page breaks of several filer tools', () => {
  const firstLines = (html: string): string[] => exhibitPages(html, 'html').pages.map((p) => p.split('\n')[0]!);
  it.each<[string, string[]]>([
    // Workiva: <hr style="page-break-after:always">
    ['BKE-BuckleInc.8-K.html', ['UNITED STATES', 'ITEM 2.02. Results of Operations and Financial Condition', 'SIGNATURES', 'EXHIBIT INDEX']],
    [
      'NVDA-nvda-20260302.htm',
      [
        'UNITED STATES',
        'Item 5.02. Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers.',
        'SIGNATURE',
      ],
    ],
    // <p style="page-break-before:always"> followed by a plain <hr>: one break, no empty page
    ['ORCL-Oracle.8-K.html', ['UNITED STATES', 'Section 5—Corporate Governance and Management', 'SIGNATURE']],
    ['NEXPOINTCAP-NextPoint.8K.html', ['UNITED STATES', 'Item 8.01.', 'SIGNATURES']],
    // 2003: <br style="page-break-before:always"> next to rules that end each page
    ['LGE-KU-0001104659-03-004925.html', ['UNITED STATES', 'Item 9. Regulation FD Disclosure', 'SIGNATURES']],
    // <hr style="PAGE-BREAK-AFTER: always"> in upper case
    ['FLWS-1800Flowers.8-K.html', ['UNITED STATES', 'Item 5.07. Submission of Matters to a Vote of Security Holders.', 'SIGNATURE']],
  ])('%s', (file, expected) => {
    const html = read(file);
    expect(firstLines(html)).toEqual(expected);
    expectWellFormed(exhibitPages(html, 'html').pages);
  });

  it('never reads the hidden inline XBRL header', () => {
    const pages = exhibitPages(read('ADBE-adbe-20230315.htm'), 'html').pages;
    expect(pages.join('\n')).not.toContain('2023-03-15'); // the ix:resources context dates
    expect(pages.join('\n')).toContain('March 15, 2023');
  });
});

describe('exhibitPages rules', () => {
  const pages = (html: string) => exhibitPages(html, 'html');
  it('no break: one page; CSS breaks before and after, break-before: page', () => {
    expect(pages('<p>a</p><p>b</p>').pages).toEqual(['a\nb']);
    expect(pages('<p>a</p><div style="page-break-before: always">b</div><p style="page-break-after:always">c</p><p>d</p>').pages).toEqual(['a', 'b\nc', 'd']);
    expect(pages('<p>a</p><div style="break-before: page">b</div>').pages).toEqual(['a', 'b']);
  });

  it('drops empty pages at the ends and between adjacent breaks', () => {
    const html = '<hr style="page-break-after:always"><p>a</p><hr style="page-break-after:always"><hr style="page-break-after:always"><p>b</p><hr style="page-break-after:always">';
    expect(pages(html).pages).toEqual(['a', 'b']);
  });

  it('plain <hr> separates pages only when the document has no CSS break', () => {
    expect(pages('<p>a</p><hr><p>b</p>').pages).toEqual(['a', 'b']);
    expect(pages('<p>a</p><hr><p>b</p><p style="page-break-before:always">c</p>').pages).toEqual(['a\nb', 'c']);
  });

  it('imagesOnly: images and no text', () => {
    expect(pages('<div><img src="p1.jpg"></div><hr style="page-break-after:always"><div><img src="p2.jpg"></div>')).toEqual({ pages: [], imagesOnly: true });
    expect(pages('<img src="logo.jpg"><p>Text</p>').imagesOnly).toBe(false);
    expect(pages('<p> </p>')).toEqual({ pages: [], imagesOnly: false });
  });

  it('plain text: <PAGE> lines and form feeds split pages; SGML table tags are not text', () => {
    expect(exhibitPages('\n<PAGE>\n  One   line \n\fTwo\n<TABLE>\n<S>\nrow  1\n</TABLE>\n<PAGE>\n\n', 'text')).toEqual({ pages: ['One line', 'Two\nrow 1'], imagesOnly: false });
  });
});

describe('exhibitTitle', () => {
  it('skips labels, contacts, dates and company-name lines', () => {
    const page = ['EXHIBIT 99.1', 'Acme Corp.', 'Investor Contact', 'Jane Roe', 'jane@acme.com', '(555) 123-4567', 'March 1, 2024', 'Acme Reports Fourth Quarter Results', 'Body'].join('\n');
    expect(exhibitTitle([page])).toBe('Acme Reports Fourth Quarter Results');
    expect(exhibitTitle([])).toBeNull();
    expect(exhibitTitle(['Exhibit 99.1\n2024'])).toBeNull();
  });
});
