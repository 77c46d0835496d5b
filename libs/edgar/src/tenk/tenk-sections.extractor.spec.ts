import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractTenkSections, TENK_SECTIONS_EXTRACTOR_VERSION, type TenkItem, type TenkSection, type TenkSectionsExtraction } from './tenk-sections.extractor';
import { tenkText } from './tenk-text';

/*
 * Every file of ../shared/fixtures/tenk. Headings, offsets and first sentences were checked by hand
 * against the documents (the first sentence of each Item 1 stands verbatim in the HTML, entities
 * decoded); offsets are into tenkText(bytes).text.
 */
const DIR = process.env.FIXTURES_DIR ? join(process.env.FIXTURES_DIR, 'tenk') : join(__dirname, '../../../../../shared/fixtures/tenk');
const FILES = {
  TSLA: 'TSLA-tsla-10-k-2025-01-30.html',
  AMZN: 'AMZN-amzn-10-k-2025-02-07.html',
  WFC: 'WFC-wfc-10-k-2025-02-25.html',
  MDRX: '0000950153-99-001234.html',
  GE: 'GE-10k-cross-reference-index-excerpt.html',
} as const;

const bytesOf = (name: keyof typeof FILES): Buffer => readFileSync(join(DIR, FILES[name]));
const cache = new Map<string, TenkSectionsExtraction>();
function extract(name: keyof typeof FILES): TenkSectionsExtraction {
  let r = cache.get(name);
  if (!r) {
    r = extractTenkSections(bytesOf(name));
    cache.set(name, r);
  }
  return r;
}
const section = (r: TenkSectionsExtraction, item: TenkItem): TenkSection => r.sections.find((s) => s.item === item)!;
const textOf = (r: TenkSectionsExtraction, s: TenkSection): string => r.text.slice(s.charStart!, s.charEnd!);
const firstSentence = (text: string): string => /^.*?[.!?](?=\s|$)/s.exec(text)![0];

describe('extractTenkSections: Tesla 10-K for 2024 (inline XBRL, a TOC with page numbers)', () => {
  const r = () => extract('TSLA');

  it('locates the three items by their body headings, not by the table of contents', () => {
    expect(r().extractorVersion).toBe(TENK_SECTIONS_EXTRACTOR_VERSION);
    expect(r().fiscalYearEnded).toBe('2024-12-31');
    expect(r().sections.map(({ item, status, heading, charStart, charEnd, length }) => ({ item, status, heading, charStart, charEnd, length }))).toEqual([
      { item: '1', status: 'extracted', heading: 'ITEM 1. BUSINESS', charStart: 8281, charEnd: 57889, length: 49608 },
      { item: '1A', status: 'extracted', heading: 'ITEM 1A. RISK FACTORS', charStart: 57890, charEnd: 137614, length: 79724 },
      {
        item: '7',
        status: 'extracted',
        heading: 'ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS',
        charStart: 148205,
        charEnd: 196856,
        length: 48651,
      },
    ]);
    // The TOC ("Item 1." / "Business" / "2") comes first; no section starts in it.
    const toc = r().text.indexOf('Item 1.\nBusiness\n2\nItem 1A.\nRisk Factors\n13');
    expect(toc).toBeGreaterThan(0);
    for (const s of r().sections) expect(s.charStart!).toBeGreaterThan(toc + 100);
  });

  it('each section runs from its heading to the next item heading', () => {
    const item1 = textOf(r(), section(r(), '1'));
    expect(item1.startsWith('ITEM 1. BUSINESS\nOverview\nWe design, develop, manufacture')).toBe(true);
    expect(r().text.slice(section(r(), '1').charEnd! + 1).startsWith('ITEM 1A. RISK FACTORS')).toBe(true);
    expect(r().text.slice(section(r(), '7').charEnd! + 1).startsWith('ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK')).toBe(true);
    expect(firstSentence(item1.split('\n')[2]!)).toBe(
      'We design, develop, manufacture, sell and lease high-performance fully electric vehicles and energy generation and storage systems, and offer services related to our products.',
    );
  });

  it('the description is the opening paragraph of Item 1, cut at a sentence, verbatim in the text', () => {
    const d = r().description!;
    expect(firstSentence(d.text)).toBe(
      'We design, develop, manufacture, sell and lease high-performance fully electric vehicles and energy generation and storage systems, and offer services related to our products.',
    );
    expect(d.text.endsWith('by offering financial and other services tailored to our products.')).toBe(true);
    expect(r().text.slice(d.charStart, d.charEnd)).toBe(d.text);
    expect(d.text.length).toBeLessThanOrEqual(1000);
    expect([d.charStart, d.charEnd]).toEqual([8307, 9194]);
  });
});

describe('extractTenkSections: Amazon 10-K for 2024', () => {
  const r = () => extract('AMZN');

  it('locates Items 1, 1A and 7 in the body', () => {
    expect(r().fiscalYearEnded).toBe('2024-12-31');
    expect(r().sections.map(({ item, status, heading, charStart, length }) => ({ item, status, heading, charStart, length }))).toEqual([
      { item: '1', status: 'extracted', heading: 'Item 1. Business', charStart: 5923, length: 13223 },
      { item: '1A', status: 'extracted', heading: 'Item 1A. Risk Factors', charStart: 19147, length: 59395 },
      { item: '7', status: 'extracted', heading: 'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations', charStart: 84615, length: 48539 },
    ]);
  });

  it('the description skips the forward-looking boilerplate and the "General" heading', () => {
    const d = r().description!;
    expect(firstSentence(d.text)).toBe('We seek to be Earth’s most customer-centric company.');
    expect(d.text).not.toMatch(/forward-looking/);
    expect(d.text.split('\n')).toHaveLength(2);
    expect(r().text.slice(d.charStart, d.charEnd)).toBe(d.text);
  });
});

describe('extractTenkSections: Wells Fargo 10-K for 2024 (a bank whose 10-K refers to its annual report)', () => {
  const r = () => extract('WFC');

  it('Item 1 is extracted; Items 1A and 7 are incorporated by reference, with the reference as the reason', () => {
    expect(r().fiscalYearEnded).toBe('2024-12-31');
    const [i1, i1a, i7] = r().sections;
    expect(i1).toMatchObject({ status: 'extracted', heading: 'ITEM 1. BUSINESS', charStart: 5179, charEnd: 51678, length: 46499, reason: null });
    expect(i1a).toMatchObject({ status: 'incorporated_by_reference', heading: 'ITEM 1A. RISK FACTORS', charStart: 51679, length: 251 });
    expect(i1a!.reason).toBe(
      'Information in response to this Item 1A can be found in this report under Item 1 and in the 2024 Annual Report to Shareholders under “Financial Review – Risk Factors.” That information is incorporated into this item by reference.',
    );
    expect(i7).toMatchObject({ status: 'incorporated_by_reference', charStart: 56163, length: 275 });
    expect(i7!.reason).toMatch(/^Information in response to this Item 7 can be found in the 2024 Annual Report to Shareholders under “Financial Review\.”/);
  });

  it('the description is the opening of Item 1', () => {
    expect(firstSentence(r().description!.text)).toBe(
      'Wells Fargo & Company is a corporation organized under the laws of Delaware and a financial holding company and a bank holding company registered under the Bank Holding Company Act of 1956, as amended (BHC Act).',
    );
  });
});

describe('extractTenkSections: Medicis 10-K for fiscal 1999 (plain HTML, upper-case tags)', () => {
  const r = () => extract('MDRX');

  it('Item 1 extracted, no Item 1A (risk factors were not an item in 1999), Item 7 incorporated by reference', () => {
    expect(r().fiscalYearEnded).toBe('1999-06-30');
    const [i1, i1a, i7] = r().sections;
    expect(i1).toMatchObject({ status: 'extracted', heading: 'Item 1: Business', charStart: 3197, charEnd: 94537, length: 91340 });
    expect(r().text.slice(i1!.charEnd! + 1).startsWith('Item 2: Properties')).toBe(true);
    expect(i1a).toMatchObject({ status: 'not_present', charStart: null, charEnd: null, length: null, reason: 'no Item 1A heading in the document' });
    expect(i7).toMatchObject({ status: 'incorporated_by_reference', charStart: 97105, length: 214 });
    expect(i7!.reason).toBe('Information required by this item is incorporated by reference on pages 14-21 of the 1999 Annual Report to Shareholders.');
  });

  it('the description starts with the first sentence under "The Company"', () => {
    const d = r().description!;
    expect(firstSentence(d.text)).toBe(
      'Medicis is the leading independent pharmaceutical company in the United States focusing primarily on the treatment of dermatological conditions.',
    );
    expect(d.text.length).toBeLessThanOrEqual(1000);
    expect(r().text.slice(d.charStart, d.charEnd)).toBe(d.text);
  });
});

describe('extractTenkSections: GE cross-reference index (an excerpt: the index, no body)', () => {
  const r = () => extract('GE');

  it('reads the pages the index gives and never takes them for items', () => {
    const [i1, i1a, i7] = r().sections;
    expect(i1).toMatchObject({ status: 'failed', crossReferencePages: '4-7, 9-11, 74-75', charStart: null, heading: null });
    expect(i1!.reason).toMatch(/cross-reference index places Item 1 on pages 4-7, 9-11, 74-75/);
    expect(i1a).toMatchObject({ status: 'failed', crossReferencePages: '26-33', charStart: null });
    // The excerpt stops at Item 4: the index does not reach Item 7.
    expect(i7).toMatchObject({ status: 'not_present', crossReferencePages: null });
    expect(r().description).toBeNull();
    expect(r().fiscalYearEnded).toBeNull();
  });
});

describe('extractTenkSections: sanity checks (on Tesla\'s real bytes)', () => {
  it('rejects an Item 1 that runs into another item when the headings between are not found', () => {
    let html = bytesOf('TSLA').toString('utf8');
    for (const h of ['ITEM 1A. RISK FACTORS ', 'ITEM 1B. UNRESOLVED STAFF COMMENTS', 'ITEM 1C. CYBERSECURITY ', 'ITEM 2. PROPERTIES']) {
      expect(html.includes(`>${h}<`)).toBe(true);
      html = html.replace(`>${h}<`, '><');
    }
    const item1 = extractTenkSections(html).sections[0]!;
    expect(item1).toMatchObject({ status: 'failed', heading: 'ITEM 1. BUSINESS', charStart: 8281 });
    expect(item1.reason).toBe('runs into "ITEM 3. LEGAL PROCEEDINGS": the headings of the items between were not found');
  });

  it('rejects an implausibly long Item 1', () => {
    const r = extractTenkSections(bytesOf('TSLA'), { maxLength: { '1': 40_000 } });
    expect(r.sections[0]).toMatchObject({ status: 'failed', reason: 'implausibly long: 49608 characters (at most 40000)' });
    expect(r.description).toBeNull();
  });
});

describe('tenkText', () => {
  it('line starts index the text, and hidden inline-XBRL header facts are left out', () => {
    const t = tenkText(bytesOf('TSLA'));
    expect(t.lineStarts[0]).toBe(0);
    for (const i of [1, 50, 500, t.lineStarts.length - 1]) expect(t.text[t.lineStarts[i]! - 1]).toBe('\n');
    expect(t.text).not.toContain('http://fasb.org/us-gaap/2024');
  });
});
