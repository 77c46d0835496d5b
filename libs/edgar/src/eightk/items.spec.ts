import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import {
  EIGHT_K_ITEM_TITLES,
  eightKItem,
  eightKItemsFromDocument,
  eightKItemsFromHeaderTitles,
  eightKItemsFromList,
  type EightKItem,
} from './items';
import { parseCompleteSubmission } from './submission.parser';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '8k', file), 'utf8');
/** The main document (sequence 1) of a file holding <DOCUMENT>s. */
const mainBody = (file: string): string => parseCompleteSubmission(read(file)).documents[0]!.body;
const numbers = (items: EightKItem[]): string[] => items.map((i) => (i.legacy_number ? `${i.number}<-${i.legacy_number}` : i.number));

describe('8-K item catalog', () => {
  it('holds the current items, the later additions and the asset-backed items', () => {
    expect(Object.keys(EIGHT_K_ITEM_TITLES)).toEqual([
      '1.01', '1.02', '1.03', '1.04', '1.05', '2.01', '2.02', '2.03', '2.04', '2.05', '2.06', '3.01', '3.02', '3.03', '4.01', '4.02',
      '5.01', '5.02', '5.03', '5.04', '5.05', '5.06', '5.07', '5.08', '6.01', '6.02', '6.03', '6.04', '6.05', '6.06', '6.10', '7.01',
      '8.01', '9.01',
    ]);
    expect(EIGHT_K_ITEM_TITLES['1.01']).toBe('Entry into a Material Definitive Agreement');
    expect(EIGHT_K_ITEM_TITLES['1.05']).toBe('Material Cybersecurity Incidents');
    expect(EIGHT_K_ITEM_TITLES['9.01']).toBe('Financial Statements and Exhibits');
  });

  it('looks items up by number, padded or not; unknown numbers are null', () => {
    expect(eightKItem('2.02')).toEqual({ number: '2.02', title: 'Results of Operations and Financial Condition', legacy_number: null });
    expect(eightKItem(' 9.1 ')?.number).toBe('9.01');
    expect(eightKItem('6.07')).toBeNull();
    expect(eightKItem('5')).toBeNull();
  });

  it("reads the submissions JSON's comma-joined list", () => {
    expect(numbers(eightKItemsFromList('2.02,9.01'))).toEqual(['2.02', '9.01']);
    expect(numbers(eightKItemsFromList('9.01,5.02,5.02'))).toEqual(['5.02', '9.01']);
    expect(numbers(eightKItemsFromList('7.01,X'))).toEqual(['7.01']);
    expect(eightKItemsFromList('')).toEqual([]);
  });

  it('maps ITEM INFORMATION titles to numbers; empty titles are ignored, unknown ones reported', () => {
    const r = eightKItemsFromHeaderTitles([
      'Financial Statements and Exhibits',
      'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers',
      'results of operations and financial condition',
      "Changes in Registrant’s Certifying Accountant",
      '',
      'Something Else Entirely',
    ]);
    expect(numbers(r.items)).toEqual(['2.02', '4.01', '5.02', '9.01']);
    expect(r.unmatched).toEqual(['Something Else Entirely']);
  });

  it('maps every ITEM INFORMATION title of the fixtures', () => {
    const titles = ['ABVC-0001213900-25-032135.txt', 'ADBE-0000796343-23-000044.txt', 'JWN-0000072333-23-000015.txt', 'MMM-0000066740-24-000023.txt', 'NVDA-0001045810-26-000024.txt']
      .flatMap((f) => [...read(f).matchAll(/^ITEM INFORMATION:(.*)$/gm)].map((m) => m[1]!));
    expect(titles.length).toBeGreaterThan(8);
    expect(eightKItemsFromHeaderTitles(titles).unmatched).toEqual([]);
  });
});

describe('items as the main document states them (SOURCES.md, 8k)', () => {
  // [file, filed date, items]; files with <DOCUMENT>s are read through their first document.
  const cases: Array<[string, string, string[], boolean]> = [
    ['AAPL-0000912057-00-002128.txt', '2000-01-24', ['8.01<-5', '9.01<-7'], true],
    ['AAPL-a8-kq1201712312016.htm', '2017-01-31', ['2.02', '9.01'], true],
    ['ABVC-0001213900-25-032135.txt', '2025-04-15', ['2.02', '4.02', '7.01', '9.01'], true],
    ['ACFN-0001493152-25-001317.nc', '2025-01-08', ['5.02', '9.01'], true],
    ['ADBE-0000796343-23-000044.txt', '2023-03-15', ['2.02', '9.01'], true],
    ['ADBE-adbe-20230315.htm', '2023-03-15', ['2.02', '9.01'], false],
    ['BKE-BuckleInc.8-K.html', '2024-11-22', ['2.02', '9.01'], false],
    ['FLWS-1800Flowers.8-K.html', '2023-12-15', ['5.07'], false],
    ['JWN-0000072333-23-000015.txt', '2023-03-06', ['5.02', '9.01'], true],
    ['JWN-jwn-20230301.htm', '2023-03-06', ['5.02', '9.01'], false],
    ['LGE-KU-0001104659-03-004925.html', '2003-03-25', ['7.01<-9'], false],
    ['MMM-0000066740-24-000023.txt', '2024-03-08', ['8.01', '9.01'], true],
    ['NEXPOINTCAP-NextPoint.8K.html', '2023-12-20', ['8.01'], false],
    ['NVDA-0001045810-26-000024.txt', '2026-03-06', ['5.02', '9.01'], true],
    ['NVDA-nvda-20260302.htm', '2026-03-06', ['5.02', '9.01'], false],
    ['ORCL-Oracle.8-K.html', '2024-11-15', ['5.07'], false],
  ];
  it.each(cases)('%s', (file, filed, expected, wrapped) => {
    const body = wrapped ? mainBody(file) : read(file);
    expect(numbers(eightKItemsFromDocument(body, filed))).toEqual(expected);
  });

  it('flags old numbers with their legacy number and the current title', () => {
    const [other, exhibits] = eightKItemsFromDocument(mainBody('AAPL-0000912057-00-002128.txt'), '2000-01-24');
    expect(other).toEqual({ number: '8.01', title: 'Other Events', legacy_number: '5' });
    expect(exhibits).toEqual({ number: '9.01', title: 'Financial Statements and Exhibits', legacy_number: '7' });
  });

  it('reads old numbers only for filings filed before 2004-08-23', () => {
    const lge = read('LGE-KU-0001104659-03-004925.html');
    expect(eightKItemsFromDocument(lge, '2004-08-23')).toEqual([]);
    expect(numbers(eightKItemsFromDocument('Item 12. Results of Operations and Financial Condition\nItem 7. Exhibits', '2004-08-20'))).toEqual([
      '2.02<-12',
      '9.01<-7',
    ]);
  });

  it('takes headings only: cross-references inside sentences and "Items 1 through 4" lists do not count', () => {
    const text = 'Items 1 through 4 Not Applicable.\nThe information furnished under Item 2.02 is not filed.\nITEM 9.01(d) Exhibits';
    expect(numbers(eightKItemsFromDocument(text, '2024-01-01'))).toEqual(['9.01']);
  });

  it('ignores numbers the form does not have', () => {
    expect(eightKItemsFromDocument('Item 6.07 Something\nItem 13. Other', '2003-01-01')).toEqual([]);
  });
});

describe('header items against document items', () => {
  it('MMM: the header lists Other Events only while the document states 8.01 and 9.01', () => {
    const s = parseCompleteSubmission(read('MMM-0000066740-24-000023.txt'));
    expect(numbers(s.items)).toEqual(['8.01']);
    expect(numbers(eightKItemsFromDocument(s.documents[0]!.body, s.filed_date!))).toEqual(['8.01', '9.01']);
  });
});
