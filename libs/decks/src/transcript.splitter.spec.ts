import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { buildDocumentText, type DocumentText } from './document-text.builder';
import { extractPdf, type ExtractedPdf } from './pdf-text.extractor';
import { recognizeTranscript } from './transcript.recognizer';
import { splitTranscript, titleSaysTranscript, transcriptGate, type TranscriptSplit } from './transcript.splitter';

/*
 * The two real transcripts of ../shared/fixtures/transcripts (see SOURCES.md). Participants, turn
 * counts and first and last words were read from the PDFs' text by hand: Citi lists its host and
 * two speakers on page 1 and labels turns "NAME IN CAPITALS: text" (59 such lines; the operator
 * introduces each analyst "with <firm>"); Bank of America lists 3 presenters and 10 analysts as
 * "Name – Firm[, Title]" and puts each speaker's name alone on a line (62 such lines, 4 before the
 * "Q&A" heading).
 */
const DIR = join(defaultFixturesDir(), 'transcripts');
const CITI = 'C-citi-4Q2024-earnings-call-transcript.pdf';
const BAC = 'BAC-1Q2025-earnings-call-transcript.pdf';

interface Loaded {
  pdf: ExtractedPdf;
  doc: DocumentText;
  split: TranscriptSplit;
}

async function load(file: string): Promise<Loaded> {
  const pdf = await extractPdf(new Uint8Array(readFileSync(join(DIR, file))));
  const doc = buildDocumentText(pdf.pages.map((p) => p.text));
  return { pdf, doc, split: splitTranscript(doc, pdf.info.title) };
}

const said = ({ doc }: Loaded, t: { char_start: number; char_end: number }): string => doc.text.slice(t.char_start, t.char_end);

/** What lies between two turns (or a turn and the back matter) is blank, a running header or footer, or a section heading. */
function expectNothingBetweenTurns(loaded: Loaded): void {
  const { doc, split } = loaded;
  const placed = [...split.furniture, ...split.headings];
  const ends = [...split.turns.slice(1).map((t) => t.label_start), split.back_matter?.char_start ?? doc.text.length];
  split.turns.forEach((turn, i) => {
    let gap = doc.text.slice(turn.char_end, ends[i]);
    for (const span of placed) {
      if (span.char_start >= turn.char_end && span.char_end <= ends[i]!) gap = gap.replace(doc.text.slice(span.char_start, span.char_end), '');
    }
    expect({ turn: i, gap: gap.replace(/\s+/g, '') }).toEqual({ turn: i, gap: '' });
  });
  // Front matter runs up to the first heading or turn; nothing of the body sits outside a turn.
  expect(split.front_matter.char_start).toBe(0);
  expect(split.unplaced).toEqual([]);
}

function expectTurnOffsetsExact(loaded: Loaded, labelSuffix: string): void {
  const { doc, split, pdf } = loaded;
  for (const t of split.turns) {
    // The label, then what was said: trimmed, starting and ending on a word.
    expect(doc.text.slice(t.label_start, t.char_start).trim()).toBe(`${t.label}${labelSuffix}`);
    expect(said(loaded, t)).toBe(said(loaded, t).trim());
    expect(said(loaded, t).length).toBeGreaterThan(0);
    expect(t.quote.startsWith(t.label)).toBe(true);
    expect(doc.text.slice(t.label_start).startsWith(t.quote)).toBe(true);
    // Page citations: the page's span holds the turn's first and last characters.
    const first = doc.offsets[t.page_index]!;
    const last = doc.offsets[t.last_page_index]!;
    expect(t.label_start).toBeGreaterThanOrEqual(first.char_start);
    expect(t.label_start).toBeLessThan(first.char_end);
    expect(t.char_end).toBeGreaterThan(last.char_start);
    expect(t.char_end).toBeLessThanOrEqual(last.char_end);
    expect(t.last_page_index).toBeLessThan(pdf.pageCount);
  }
  // Turns are in document order and never overlap.
  split.turns.slice(1).forEach((t, i) => expect(t.label_start).toBeGreaterThanOrEqual(split.turns[i]!.char_end));
}

describe('Citigroup, Fourth Quarter 2024 Earnings Call (NAME IN CAPITALS: turns, no Q&A heading)', () => {
  let citi: Loaded;
  beforeAll(async () => {
    citi = await load(CITI);
  }, 60_000);

  it('reads the call from the front matter', () => {
    expect(citi.pdf.pageCount).toBe(16);
    expect(citi.split.call).toEqual({ company: 'Citi', title: 'Citi Fourth Quarter 2024 Earnings Call', date: '2025-01-15', date_source: 'document' });
  });

  it('lists the host and two speakers, then the operator and the nine analysts the operator introduces', () => {
    const p = citi.split.participants;
    expect(p).toHaveLength(13);
    expect(p.slice(0, 3)).toEqual([
      { name: 'Jennifer Landis', role: 'Head of Citi Investor Relations', firm: null, kind: 'company', listed: true, quote: 'Jennifer Landis, Head of Citi Investor Relations' },
      { name: 'Jane Fraser', role: 'Citi Chief Executive Officer', firm: null, kind: 'company', listed: true, quote: 'Jane Fraser, Citi Chief Executive Officer' },
      { name: 'Mark Mason', role: 'Citi Chief Financial Officer', firm: null, kind: 'company', listed: true, quote: 'Mark Mason, Citi Chief Financial Officer' },
    ]);
    expect(p[3]).toEqual({ name: 'Operator', role: null, firm: null, kind: 'operator', listed: false, quote: null });
    expect(p.slice(4).map((x) => [x.name, x.firm, x.kind, x.listed])).toEqual([
      ['Jim Mitchell', 'Seaport Global', 'analyst', false],
      ['John McDonald', 'Truist Securities', 'analyst', false],
      ['Mike Mayo', 'Wells Fargo', 'analyst', false],
      ['Betsy Graseck', 'Morgan Stanley', 'analyst', false],
      ['Ebrahim Poonawala', 'Bank America', 'analyst', false],
      ['Erika Najarian', 'UBS', 'analyst', false],
      ['Gerard Cassidy', 'RBC Capital Markets', 'analyst', false],
      ["Matt O'Connor", 'Deutsche Bank', 'analyst', false],
      ['Saul Martinez', 'HSBC', 'analyst', false],
    ]);
    expect(p[4]!.quote).toBe('Our first question will come from Jim Mitchell with Seaport Global.');
  });

  it('splits 59 turns: 4 in the presentation, 55 in Q&A from the operator introducing the first question', () => {
    const turns = citi.split.turns;
    expect(turns).toHaveLength(59);
    expect(turns.filter((t) => t.section === 'presentation').map((t) => t.speaker)).toEqual(['Operator', 'Jennifer Landis', 'Jane Fraser', 'Mark Mason']);
    expect(turns.filter((t) => t.section === 'qa')).toHaveLength(55);
    expect(turns[4]).toMatchObject({ speaker: 'Operator', section: 'qa', page_index: 5 });
    expect(said(citi, turns[4]!)).toMatch(/^Our first question will come from Jim Mitchell with Seaport Global\./);
  });

  it('names speakers with the capitalization of the list (or of the operator\'s introduction)', () => {
    const turns = citi.split.turns;
    expect(turns[1]).toMatchObject({ label: 'JENNIFER LANDIS', speaker: 'Jennifer Landis', participant_index: 0 });
    const matt = turns.find((t) => t.label === 'MATT O’CONNOR');
    expect(matt).toMatchObject({ speaker: "Matt O'Connor", participant_index: 11 });
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(13);
  });

  it('has the first and last turns as printed', () => {
    const [first] = citi.split.turns;
    const last = citi.split.turns[citi.split.turns.length - 1]!;
    expect(first).toMatchObject({ speaker: 'Operator', label: 'OPERATOR', page_index: 0, last_page_index: 0 });
    expect(said(citi, first!)).toMatch(/^Hello and welcome to Citi's Fourth Quarter 2024 Earnings Call\. /);
    expect(said(citi, first!)).toMatch(/Ms\. Landis, you may begin\.$/);
    expect(first!.quote).toBe('OPERATOR: Hello and welcome to Citi\'s Fourth Quarter 2024 Earnings Call. Today\'s call will be hosted by');
    expect(last).toMatchObject({ speaker: 'Operator', section: 'qa', page_index: 14, last_page_index: 14 });
    expect(said(citi, last)).toBe('This concludes Citi\'s Fourth Quarter 2024 Earnings Call. You may now disconnect.');
  });

  it('gives offsets that reproduce each turn, across page breaks and running headers', () => {
    expectTurnOffsetsExact(citi, ':');
    const mark = citi.split.turns[3]!;
    expect(mark).toMatchObject({ speaker: 'Mark Mason', page_index: 2, last_page_index: 5 });
    expect(said(citi, mark)).toMatch(/^Thanks, Jane and good morning, everyone\./);
    expect(said(citi, mark)).toMatch(/With that, Jane and I will be happy to take your questions\.$/);
    expect(said(citi, mark)).toContain('Copyright © 2025 Citigroup Inc. 3\n\f\nT R A N S C R I P T\n');
  });

  it('places every body character: in a turn, a heading or a running header; the disclaimer is back matter', () => {
    expectNothingBetweenTurns(citi);
    expect(citi.doc.text.slice(citi.split.front_matter.char_start, citi.split.front_matter.char_end)).toMatch(/^T R A N S C R I P T\nCiti Fourth Quarter 2024 Earnings Call\n/);
    expect(citi.split.headings.map((h) => citi.doc.text.slice(h.char_start, h.char_end))).toEqual(['PRESENTATION']);
    expect(citi.split.back_matter).toEqual({ char_start: expect.any(Number), char_end: citi.doc.text.length });
    expect(citi.doc.text.slice(citi.split.back_matter!.char_start)).toMatch(/^Certain statements in this transcript are “forward-looking statements”/);
    expect(citi.split.back_matter!.char_start).toBeGreaterThan(citi.doc.offsets[15]!.char_start);
  });

  it('passes the serving gate', () => {
    expect(transcriptGate(citi.doc, citi.split)).toBeNull();
  });
});

describe('Bank of America, First Quarter 2025 Earnings Announcement (Name – Firm list, names on their own line)', () => {
  let bac: Loaded;
  beforeAll(async () => {
    bac = await load(BAC);
  }, 60_000);

  it('reads the call from the cover and the front matter', () => {
    expect(bac.pdf.pageCount).toBe(20);
    expect(bac.split.call).toEqual({ company: 'Bank of America', title: 'First Quarter 2025 Earnings Announcement', date: '2025-04-15', date_source: 'document' });
  });

  it('lists 3 presenters and 10 analysts as printed, and the operator', () => {
    const p = bac.split.participants;
    expect(p).toHaveLength(14);
    expect(p.slice(0, 3)).toEqual([
      { name: 'Brian Moynihan', role: 'Chair and CEO', firm: 'Bank of America', kind: 'company', listed: true, quote: 'Brian Moynihan – Bank of America, Chair and CEO' },
      { name: 'Alastair Borthwick', role: 'CFO', firm: 'Bank of America', kind: 'company', listed: true, quote: 'Alastair Borthwick – Bank of America, CFO' },
      {
        name: 'Lee McEntire',
        role: 'Investor Relations & Local Markets Organization Executive',
        firm: 'Bank of America',
        kind: 'company',
        listed: true,
        quote: 'Lee McEntire – Bank of America, Investor Relations & Local Markets Organization Executive',
      },
    ]);
    expect(p.slice(3, 13).map((x) => [x.name, x.firm, x.role, x.kind, x.listed])).toEqual([
      ['Steven Chubak', 'Wolfe Research', null, 'analyst', true],
      ['John McDonald', 'Truist Securities', null, 'analyst', true],
      ['Jim Mitchell', 'Seaport Global', null, 'analyst', true],
      ['Glenn Schorr', 'Evercore', null, 'analyst', true],
      ['Mike Mayo', 'Wells Fargo', null, 'analyst', true],
      ['Erika Najarian', 'UBS', null, 'analyst', true],
      ['Matt O’Connor', 'Deutsche Bank', null, 'analyst', true],
      ['Betsy Graseck', 'Morgan Stanley', null, 'analyst', true],
      ['Ken Usdin', 'Autonomous', null, 'analyst', true],
      ['Gerard Cassidy', 'RBC Capital Markets', null, 'analyst', true],
    ]);
    expect(p[13]).toEqual({ name: 'Operator', role: null, firm: null, kind: 'operator', listed: false, quote: null });
  });

  it('splits 62 turns: 4 in the presentation, 58 after the Q&A heading', () => {
    const turns = bac.split.turns;
    expect(turns).toHaveLength(62);
    expect(turns.filter((t) => t.section === 'presentation').map((t) => t.speaker)).toEqual(['Lee McEntire', 'Brian Moynihan', 'Alastair Borthwick', 'Brian Moynihan']);
    expect(turns.filter((t) => t.section === 'qa')).toHaveLength(58);
    expect(turns[4]).toMatchObject({ speaker: 'Operator', label: 'Operator', section: 'qa', page_index: 8 });
    expect(said(bac, turns[4]!)).toBe('We\'ll take our first question from Steven Chubak with Wolfe Research.');
    // Every listed person speaks, and nobody else but the operator.
    expect(new Set(turns.map((t) => t.participant_index)).size).toBe(14);
  });

  it('has the first and last turns as printed', () => {
    const [first] = bac.split.turns;
    const last = bac.split.turns[bac.split.turns.length - 1]!;
    expect(first).toMatchObject({ speaker: 'Lee McEntire', section: 'presentation', page_index: 1, last_page_index: 1 });
    expect(said(bac, first!)).toMatch(/^Good morning\. Thank you\. Thank you for joining the call to review our first quarter results\./);
    expect(said(bac, first!)).toMatch(/With that, Brian, let's get started\.$/);
    expect(first!.quote).toBe('Lee McEntire\nGood morning. Thank you. Thank you for joining the call to review our first quarter results. Our earnings');
    expect(last).toMatchObject({ speaker: 'Brian Moynihan', section: 'qa', page_index: 19, last_page_index: 19 });
    expect(said(bac, last)).toMatch(/^Okay\. Well, thank you\. I think that's all our questions\./);
    expect(said(bac, last)).toMatch(/that's what we plan to do\. Thank you\.$/);
  });

  it('gives offsets that reproduce each turn, the shortest too', () => {
    expectTurnOffsetsExact(bac, '');
    const sorry = bac.split.turns.find((t) => said(bac, t) === 'I\'m sorry. Yes');
    expect(sorry).toMatchObject({ speaker: 'Jim Mitchell', section: 'qa' });
  });

  it('places every body character; the running header and page numbers are furniture, the disclaimer back matter', () => {
    expectNothingBetweenTurns(bac);
    expect(bac.split.headings.map((h) => bac.doc.text.slice(h.char_start, h.char_end))).toEqual(['Presentation', 'Q&A']);
    const furniture = new Set(bac.split.furniture.map((f) => bac.doc.text.slice(f.char_start, f.char_end)));
    expect(furniture.has('First Quarter 2025 Earnings Announcement')).toBe(true);
    expect(furniture.has('April 15, 2025')).toBe(true);
    expect(furniture.has('18')).toBe(true);
    expect(bac.doc.text.slice(bac.split.back_matter!.char_start)).toMatch(/^Disclaimer\nCertain statements contained in this document/);
  });

  it('passes the serving gate', () => {
    expect(transcriptGate(bac.doc, bac.split)).toBeNull();
  });
});

describe('recognizeTranscript', () => {
  let citi: Loaded;
  let bac: Loaded;
  beforeAll(async () => {
    [citi, bac] = await Promise.all([load(CITI), load(BAC)]);
  }, 60_000);

  it('recognizes Citi by its PDF title, Bank of America by its speaker turns', () => {
    const c = recognizeTranscript({ doc: citi.doc, pdfTitle: citi.pdf.info.title });
    expect(c).toMatchObject({ cue: 'pdf_title', gate: null });
    expect(c.transcript?.turns).toHaveLength(59);
    // "2025-04-15 BAC 1Q Earnings Call_ADA": no "transcript" in any title, the turns say it.
    const b = recognizeTranscript({ doc: bac.doc, pdfTitle: bac.pdf.info.title });
    expect(b).toMatchObject({ cue: 'turns', gate: null });
    expect(b.transcript?.participants).toHaveLength(14);
    expect(recognizeTranscript({ doc: bac.doc, pdfTitle: null, linkTitle: 'Earnings Call Transcript' }).cue).toBe('link_title');
    expect(recognizeTranscript({ doc: bac.doc, pdfTitle: null, kind: 'transcript' }).cue).toBe('kind');
  });

  it('keeps a transcript without a known date out, with the reason', () => {
    // The Citi PDF with its date removed from every page, and no PDF title to fall back on.
    const undated = buildDocumentText(citi.pdf.pages.map((p) => p.text.replaceAll('January 15, 2025', 'Date to follow')));
    expect(recognizeTranscript({ doc: undated, pdfTitle: null, kind: 'transcript' })).toEqual({ transcript: null, gate: 'the call\'s date is not known', cue: 'kind' });
    // The PDF title's date is the fallback.
    const dated = recognizeTranscript({ doc: undated, pdfTitle: '2025-01-15 Citi 4Q24 Earnings Call' });
    expect(dated.transcript?.call).toMatchObject({ date: '2025-01-15', date_source: 'pdf_title' });
  });

  it('keeps a transcript with body text outside every turn out, naming the first such line', () => {
    // Bank of America without the label of its first turn: Lee McEntire's remarks belong to no one.
    const unlabelled = buildDocumentText(bac.pdf.pages.map((p, i) => (i === 1 ? p.text.replace('Presentation\nLee McEntire\n', 'Presentation\n') : p.text)));
    const r = recognizeTranscript({ doc: unlabelled, pdfTitle: bac.pdf.info.title, kind: 'transcript' });
    expect(r.transcript).toBeNull();
    expect(r.gate).toMatch(/^12 body line\(s\) belong to no speaker turn, the first at character \d+: "Good morning\. Thank you\./);
  });

  it('says why a transcript link with no turns in its text is not served, and leaves the FRPH deck and reports alone', async () => {
    const deck = await extractPdf(new Uint8Array(readFileSync(join(defaultFixturesDir(), 'decks', 'FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf'))));
    const doc = buildDocumentText(deck.pages.map((p) => p.text));
    expect(recognizeTranscript({ doc, pdfTitle: deck.info.title, kind: 'transcript' })).toEqual({ transcript: null, gate: 'no speaker turns found', cue: 'kind' });
    for (const file of ['FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', 'FRPH-Annual_Meeting_-_2015_FINAL2.pdf', 'FRPH-FRP_2019_Annual_Report.pdf']) {
      const pdf = await extractPdf(new Uint8Array(readFileSync(join(defaultFixturesDir(), 'decks', file))));
      const text = buildDocumentText(pdf.pages.map((p) => p.text));
      expect({ file, ...recognizeTranscript({ doc: text, pdfTitle: pdf.info.title }) }).toEqual({ file, transcript: null, gate: null, cue: null });
    }
    const empty = buildDocumentText(['', '']);
    expect(recognizeTranscript({ doc: empty, pdfTitle: 'Q1 Earnings Call Transcript' })).toEqual({ transcript: null, gate: 'no text extracted', cue: 'pdf_title' });
  }, 120_000);

  it('reads "Transcript" in a title, letter-spaced too', () => {
    expect(titleSaysTranscript('T R A N S C R I P T')).toBe(true);
    expect(titleSaysTranscript('Fourth Quarter 2024 Earnings Transcript')).toBe(true);
    expect(titleSaysTranscript('Fourth Quarter 2024 Earnings Call')).toBe(false);
    expect(titleSaysTranscript(null)).toBe(false);
  });
});
