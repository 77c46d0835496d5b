import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_PAGE_SEPARATOR } from '@app/contracts';
import { defaultFixturesDir } from '@app/testing';
import { DecksError } from './decks.errors';
import { classifyDocument } from './document.classifier';
import { toDocumentParts } from './document-parts.splitter';
import { buildDocumentText, type DocumentText } from './document-text.builder';
import { detectLanguage } from './language.detector';
import { layoutCaptioner } from './page.captioner';
import { extractPdf, type ExtractedPdf } from './pdf-text.extractor';

/*
 * The three real FRP Holdings PDFs (../shared/fixtures/decks, see SOURCES.md). Every expected
 * value below was read from the files: page text and offsets from our extraction, checked against
 * the slides as a viewer shows them.
 */
const DECKS = join(defaultFixturesDir(), 'decks');
const PRESENTATION = 'FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf';
const ANNUAL_MEETING = 'FRPH-Annual_Meeting_-_2015_FINAL2.pdf';
const ANNUAL_REPORT = 'FRPH-FRP_2019_Annual_Report.pdf';

interface Loaded {
  bytes: Uint8Array;
  pdf: ExtractedPdf;
  doc: DocumentText;
}

async function load(file: string): Promise<Loaded> {
  const bytes = new Uint8Array(readFileSync(join(DECKS, file)));
  const pdf = await extractPdf(bytes);
  return { bytes, pdf, doc: buildDocumentText(pdf.pages.map((p) => p.text)) };
}

function expectOffsetsExact({ pdf, doc }: Loaded): void {
  expect(doc.offsets).toHaveLength(pdf.pageCount);
  pdf.pages.forEach((page, i) => {
    const { char_start, char_end } = doc.offsets[i]!;
    expect(doc.text.slice(char_start, char_end)).toBe(page.text);
    if (i > 0) expect(doc.text.slice(doc.offsets[i - 1]!.char_end, char_start)).toBe(DOCUMENT_PAGE_SEPARATOR);
  });
  expect(doc.offsets[doc.offsets.length - 1]!.char_end).toBe(doc.text.length);
}

describe('FRPH investor presentation, Jan 2015 (landscape PowerPoint)', () => {
  let deck: Loaded;
  beforeAll(async () => {
    deck = await load(PRESENTATION);
  });

  it('has 36 landscape 756x540 pages and its Info dictionary', () => {
    expect(deck.bytes.byteLength).toBe(2_740_021);
    expect(deck.pdf.pageCount).toBe(36);
    expect(deck.pdf.pages).toHaveLength(36);
    expect(deck.pdf.pages.every((p) => p.width === 756 && p.height === 540 && p.rotate === 0 && p.text_rotation === 0)).toBe(true);
    expect(deck.pdf.info).toEqual({
      title: null,
      creator: 'Microsoft® PowerPoint® 2010',
      producer: 'Microsoft® PowerPoint® 2010',
      created_at: '2015-01-12T15:01:42-05:00',
    });
  });

  it('reads the title slide in reading order (PowerPoint draws the title box last)', () => {
    const cover = deck.pdf.pages[0]!;
    expect(cover.text).toBe(
      'FRP Holdings, Inc. (fka Patriot Transportation Holding, Inc.)\nA Real Estate and Transportation Company\nThompson S. Baker, II\nChief Executive Officer\nInvestor Presentation',
    );
    expect(cover.lines[0]).toEqual({ text: 'FRP Holdings, Inc. (fka Patriot Transportation Holding, Inc.)', fontSize: 32.06, y: 279, rotation: 0 });
    expect(deck.doc.offsets[0]).toEqual({ char_start: 0, char_end: 170 });
  });

  it('puts a slide title drawn after its body first (page 6) and gives exact offsets', () => {
    const page = deck.pdf.pages[5]!;
    expect(page.text.split('\n').slice(0, 5)).toEqual([
      'FRP Holdings, Inc.',
      'as of 9/30/2014 6',
      'Spin-off Benefits',
      'Why are we separating the real estate and transportation businesses?',
      'The Board of Directors and management believe separating the real estate',
    ]);
    expect(deck.doc.offsets[5]).toEqual({ char_start: 4079, char_end: 4982 });
    expect(deck.doc.text.slice(4079, 4982)).toBe(page.text);
    expectOffsetsExact(deck);
    expect(deck.doc.text).toHaveLength(27_518);
  });

  it('captions slides from their largest text and first body line', () => {
    expect(layoutCaptioner.id).toBe('layout@1');
    expect(layoutCaptioner.caption(deck.pdf.pages[0]!)).toBe('FRP Holdings, Inc. (fka Patriot Transportation Holding, Inc.) — A Real Estate and Transportation Company');
    expect(layoutCaptioner.caption(deck.pdf.pages[5]!)).toBe('Spin-off Benefits — Why are we separating the real estate and transportation businesses?');
    // A 24 pt bullet glyph does not make its 16 pt body line part of the title.
    expect(layoutCaptioner.caption(deck.pdf.pages[2]!)).toBe(
      'COMPANY OVERVIEW — • The company was formed in 1986 when Florida Rock Industries, Inc. spun off its mining and',
    );
    // Three or more lines at the largest size are a paragraph: only its first line is the title.
    expect(layoutCaptioner.caption(deck.pdf.pages[35]!)).toBe('CONTACT US — FRP Holdings, Inc.');
  });

  it('is English, a slide deck by its landscape pages, one part', () => {
    expect(detectLanguage(deck.doc.text)).toBe('en');
    expect(classifyDocument({ pages: deck.pdf.pages, info: deck.pdf.info })).toEqual({ doc_type: 'slide_deck', doc_group: 'slide_deck', cue: 'landscape' });
    const parts = toDocumentParts(deck.pdf.pages);
    expect(parts.map((p) => [p.index, p.count, p.pages.length])).toEqual([[0, 1, 36]]);
  });
});

describe('FRPH annual shareholder meeting deck, Feb 2015 (portrait MediaBox, /Rotate 90)', () => {
  let deck: Loaded;
  beforeAll(async () => {
    deck = await load(ANNUAL_MEETING);
  });

  it('has 36 pages that are portrait letter in the file but shown landscape 792x612 (/Rotate 90)', () => {
    expect(deck.bytes.byteLength).toBe(4_147_418);
    expect(deck.pdf.pageCount).toBe(36);
    expect(deck.pdf.pages.every((p) => p.width === 792 && p.height === 612 && p.rotate === 90 && p.text_rotation === 0)).toBe(true);
    expect(deck.pdf.info).toEqual({
      title: 'Microsoft PowerPoint - Annual Meeting - 2015 FINAL2',
      creator: 'PScript5.dll Version 5.2.2',
      producer: 'Acrobat Distiller 9.5.5 (Windows)',
      created_at: '2015-02-19T10:42:41-05:00',
    });
  });

  it('reads the rotated slides upright, with exact offsets', () => {
    expect(deck.pdf.pages[0]!.text).toBe('Annual Shareholder Meeting\nFRP Holdings, Inc.\nA Real Estate Company\nFebruary 5, 2015\n1');
    expect(deck.doc.offsets[0]).toEqual({ char_start: 0, char_end: 86 });
    expect(deck.doc.offsets[1]).toEqual({ char_start: 89, char_end: 1318 });
    expect(deck.pdf.pages[1]!.text.split('\n')[0]).toBe('Financial Statement Disclosure');
    // The superscript "th" (6.7 pt, raised 3 pt) stays on its 10 pt line.
    expect(deck.pdf.pages[35]!.text.split('\n').slice(0, 3)).toEqual(['Annual Shareholders Meeting', 'FRP HOLDINGS, INC.', '200 W. Forsyth Street, 7th floor']);
    expectOffsetsExact(deck);
    expect(deck.doc.text).toHaveLength(25_753);
  });

  it('captions the cover', () => {
    expect(layoutCaptioner.caption(deck.pdf.pages[0]!)).toBe('FRP Holdings, Inc. — A Real Estate Company');
    expect(layoutCaptioner.caption(deck.pdf.pages[35]!)).toBe('FRP HOLDINGS, INC. — 200 W. Forsyth Street, 7th floor');
  });

  it('is an English slide deck: by its Info title, and by its shown-landscape pages without it', () => {
    expect(detectLanguage(deck.doc.text)).toBe('en');
    expect(classifyDocument({ pages: deck.pdf.pages, info: deck.pdf.info })).toEqual({ doc_type: 'slide_deck', doc_group: 'slide_deck', cue: 'title:powerpoint' });
    // With no title at all, the pages decide: /Rotate 90 shows every portrait page landscape.
    expect(classifyDocument({ pages: deck.pdf.pages, info: { ...deck.pdf.info, title: null } }).cue).toBe('landscape');
    // The IR link's own title names the meeting.
    expect(classifyDocument({ pages: deck.pdf.pages, info: deck.pdf.info, title: 'Annual Meeting - 2015 Annual Shareholder Meeting', kind: 'presentation' })).toEqual({
      doc_type: 'slide_deck',
      doc_group: 'slide_deck',
      cue: 'title:annual meeting',
    });
  });
});

describe('FRP Holdings 2019 annual report (portrait InDesign)', () => {
  let report: Loaded;
  beforeAll(async () => {
    report = await load(ANNUAL_REPORT);
  });

  it('has 48 portrait letter pages and its Info dictionary', () => {
    expect(report.bytes.byteLength).toBe(1_538_002);
    expect(report.pdf.pageCount).toBe(48);
    expect(report.pdf.pages.every((p) => p.width === 612 && p.height === 792 && p.rotate === 0)).toBe(true);
    expect(report.pdf.info).toEqual({ title: null, creator: 'Adobe InDesign 15.0 (Macintosh)', producer: 'Adobe PDF Library 15.0', created_at: '2020-03-13T07:18:13-04:00' });
  });

  it('reads the cover (one line set sideways), an empty page, and the two-column letter column by column', () => {
    expect(report.pdf.pages[0]!.text).toBe('FRP HOLDINGS, INC.\n2019 ANNUAL REPORT');
    expect(report.pdf.pages[0]!.lines[1]).toEqual({ text: '2019 ANNUAL REPORT', fontSize: 68, y: 635.8, rotation: 90 });
    expect(report.pdf.pages[1]!.text).toBe('');
    expect(report.doc.offsets.slice(0, 3)).toEqual([
      { char_start: 0, char_end: 37 },
      { char_start: 40, char_end: 40 },
      { char_start: 43, char_end: 43 + report.pdf.pages[2]!.text.length },
    ]);
    const letter = report.pdf.pages[3]!.text.split('\n');
    expect(letter[0]).toBe('To Our Shareholders FRP Holdings, Inc.');
    expect(letter[1]).toBe('In many ways, 2019 was an embodiment of SALY, the');
    // The left column ends mid-sentence at the foot of the page and the right column continues it.
    const foot = letter.indexOf('foot clear-height ceiling. We completed construction on');
    expect(letter[foot + 1]).toBe('this building earlier this year and it is now 100% leased');
    expect(report.pdf.pages[47]).toMatchObject({ text: 'A REAL ESTATE COMPANY', text_rotation: 90 });
    expectOffsetsExact(report);
    expect(report.doc.text).toHaveLength(218_788);
  });

  it('captions the cover from its 68 pt line', () => {
    expect(layoutCaptioner.caption(report.pdf.pages[0]!)).toBe('2019 ANNUAL REPORT');
    expect(layoutCaptioner.caption(report.pdf.pages[1]!)).toBe('');
  });

  it('is an English annual report by its cover, or by the IR link kind', () => {
    expect(detectLanguage(report.doc.text)).toBe('en');
    const caption = layoutCaptioner.caption(report.pdf.pages[0]!);
    expect(classifyDocument({ pages: report.pdf.pages, info: report.pdf.info, firstPageCaption: caption })).toEqual({
      doc_type: 'annual_report',
      doc_group: 'report',
      cue: 'title:annual report',
    });
    expect(classifyDocument({ pages: report.pdf.pages, info: report.pdf.info, kind: 'annual_report' })).toEqual({ doc_type: 'annual_report', doc_group: 'report', cue: 'kind:annual_report' });
    expect(classifyDocument({ pages: report.pdf.pages, info: report.pdf.info })).toEqual({ doc_type: 'other', doc_group: 'other', cue: 'none' });
  });

  it('splits into parts of whole pages under a limit, with offsets still into the whole text', () => {
    expect(toDocumentParts(report.pdf.pages)).toHaveLength(1);
    const parts = toDocumentParts(report.pdf.pages, 50_000);
    expect(parts.map((p) => p.pages.length)).toEqual([12, 8, 11, 8, 9]);
    expect(parts.every((p) => p.count === 5 && p.pages.reduce((n, page) => n + page.text.length, 0) <= 50_000)).toBe(true);
    expect(parts.flatMap((p) => p.pages.map((page) => page.page_index))).toEqual([...Array(48).keys()]);
    expect(() => toDocumentParts(report.pdf.pages, 9_000)).toThrow(new DecksError('page_too_large', 'page 34 has 9993 characters of text, more than the 9000 a record holds'));
  });
});

describe('extractPdf on bytes that are not a PDF', () => {
  it('throws pdf_unreadable for a truncated file and for an HTML page, and leaves the input intact', async () => {
    const full = new Uint8Array(readFileSync(join(DECKS, PRESENTATION)));
    const half = full.subarray(0, full.length / 2);
    await expect(extractPdf(half)).rejects.toMatchObject({ name: 'DecksError', code: 'pdf_unreadable', message: 'not a readable PDF: Invalid PDF structure.' });
    await expect(extractPdf(new TextEncoder().encode('<!doctype html><title>Not Found</title>'))).rejects.toMatchObject({ code: 'pdf_unreadable' });
    await expect(extractPdf(new Uint8Array(0))).rejects.toMatchObject({ code: 'pdf_unreadable' });
    expect(half.byteLength).toBe(1_370_010);
  });
});
