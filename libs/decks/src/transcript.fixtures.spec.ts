import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { buildDocumentText, type DocumentText } from './document-text.builder';
import { extractPdf, type ExtractedPdf } from './pdf-text.extractor';
import { recognizeTranscript } from './transcript.recognizer';
import { splitTranscript, transcriptGate, type TranscriptSplit } from './transcript.splitter';

/*
 * Four more issuers' transcripts (../shared/fixtures/transcripts, see SOURCES.md), each in a layout
 * the splitter was not built on. Expected values were read from each PDF's text (extractPdf) by
 * hand and counted with grep over that text, not taken from the splitter's output:
 *   - JPMorgan 4Q24: no participants list; "Name" over "Title, Firm" and a "Q"/"A" line, dotted
 *     rules between turns, "Operator: text" inline; MANAGEMENT DISCUSSION / QUESTION AND ANSWER
 *     SECTION headings; a letter-spaced cover ("4 Q 2 4 F I N A N C I A L R E S U L T S").
 *   - UBS 4Q24: "Speeches by Name, Title, and Name, Title" as the list; executives labelled by
 *     their name alone on a line, analysts "Name, Firm"; no operator; "4 February 2025".
 *   - Barclays Q1 2025: Q&A only, no list, no operator; "Name, Firm" or "Name, Title" the first
 *     time, the name alone after; "30 April 2025"; an "Important Notice" after the last turn.
 *   - BNP Paribas 1Q25: a cover listing "Name (Title)"; "Name" over a title line in the
 *     presentation, "Name (Firm): text" and "Name: text" in Q&A; a disclaimer page with no heading.
 */
const DIR = join(defaultFixturesDir(), 'transcripts');

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

/** Turns per speaker, in order of first turn: [name, presentation turns, Q&A turns]. */
function turnsPerSpeaker({ split }: Loaded): Array<[string, number, number]> {
  const counts = new Map<string, [string, number, number]>();
  for (const t of split.turns) {
    const row = counts.get(t.speaker) ?? [t.speaker, 0, 0];
    row[t.section === 'presentation' ? 1 : 2] += 1;
    counts.set(t.speaker, row);
  }
  return [...counts.values()];
}

/** Every turn starts at its label and holds what was said, trimmed; turns are in order; nothing of the body sits outside them. */
function expectWellPlacedTurns(loaded: Loaded): void {
  const { doc, split, pdf } = loaded;
  for (const t of split.turns) {
    expect(doc.text.slice(t.label_start).startsWith(t.label)).toBe(true);
    expect(doc.text.slice(t.label_start).startsWith(t.quote)).toBe(true);
    expect(said(loaded, t).length).toBeGreaterThan(0);
    expect(said(loaded, t)).toBe(said(loaded, t).trim());
    expect(doc.offsets[t.page_index]!.char_start).toBeLessThanOrEqual(t.label_start);
    expect(doc.offsets[t.last_page_index]!.char_end).toBeGreaterThanOrEqual(t.char_end);
    expect(t.last_page_index).toBeLessThan(pdf.pageCount);
    expect(split.participants[t.participant_index]!.name).toBe(t.speaker);
  }
  split.turns.slice(1).forEach((t, i) => expect(t.label_start).toBeGreaterThanOrEqual(split.turns[i]!.char_end));
  // Between turns: blanks, running headers, rules and section headings only.
  const placed = [...split.furniture, ...split.headings, ...split.rules];
  const ends = [...split.turns.slice(1).map((t) => t.label_start), split.back_matter?.char_start ?? doc.text.length];
  split.turns.forEach((turn, i) => {
    let gap = doc.text.slice(turn.char_end, ends[i]);
    for (const span of placed) if (span.char_start >= turn.char_end && span.char_end <= ends[i]!) gap = gap.replace(doc.text.slice(span.char_start, span.char_end), '');
    expect({ turn: i, gap: gap.replace(/\s+/g, '') }).toEqual({ turn: i, gap: '' });
  });
  expect(split.unplaced).toEqual([]);
  expect(transcriptGate(doc, split)).toBeNull();
}

describe('JPMorgan Chase, 4Q24 earnings call (name over title line, Q/A markers, dotted rules)', () => {
  let jpm: Loaded;
  beforeAll(async () => {
    jpm = await load('JPM-4Q2024-earnings-call-transcript.pdf');
  }, 60_000);

  it('reads the call from the cover: the date printed there, the company from its executives\' title lines', () => {
    expect(jpm.pdf.pageCount).toBe(16);
    expect(jpm.split.call).toEqual({ company: 'JPMorganChase', title: 'EARNINGS CALL TRANSCRIPT', date: '2025-01-15', date_source: 'document' });
  });

  it('finds the operator, two executives and eight analysts, with the title and firm printed under each name', () => {
    const p = jpm.split.participants;
    expect(p.map((x) => [x.name, x.role, x.firm, x.kind, x.listed])).toEqual([
      ['Operator', null, null, 'operator', false],
      ['Jeremy Barnum', 'Chief Financial Officer', 'JPMorganChase', 'company', false],
      ['Jamie Dimon', 'Chairman & Chief Executive Officer', 'JPMorganChase', 'company', false],
      ['John McDonald', 'Analyst', 'Truist Securities, Inc.', 'analyst', false],
      ['Mike Mayo', 'Analyst', 'Wells Fargo Securities LLC', 'analyst', false],
      ['Jim Mitchell', 'Analyst', 'Seaport Global Securities LLC', 'analyst', false],
      ['Erika Najarian', 'Analyst', 'UBS Securities LLC', 'analyst', false],
      ["Matt O'Connor", 'Analyst', 'Deutsche Bank Securities, Inc.', 'analyst', false],
      ['Betsy L. Graseck', 'Analyst', 'Morgan Stanley & Co. LLC', 'analyst', false],
      ['Ebrahim H. Poonawala', 'Analyst', 'BofA Securities, Inc.', 'analyst', false],
      ['Gerard Cassidy', 'Analyst', 'RBC Capital Markets LLC', 'analyst', false],
    ]);
    expect(p[1]!.quote).toBe('Jeremy Barnum\nChief Financial Officer, JPMorganChase');
  });

  it('splits 82 turns: 4 under MANAGEMENT DISCUSSION SECTION, 78 under QUESTION AND ANSWER SECTION', () => {
    expect(jpm.split.headings.map((h) => jpm.doc.text.slice(h.char_start, h.char_end))).toEqual(['MANAGEMENT DISCUSSION SECTION', 'QUESTION AND ANSWER SECTION']);
    expect(turnsPerSpeaker(jpm)).toEqual([
      ['Operator', 1, 11],
      ['Jeremy Barnum', 2, 26],
      ['Jamie Dimon', 1, 14],
      ['John McDonald', 0, 5],
      ['Mike Mayo', 0, 4],
      ['Jim Mitchell', 0, 3],
      ['Erika Najarian', 0, 2],
      ["Matt O'Connor", 0, 3],
      ['Betsy L. Graseck', 0, 3],
      ['Ebrahim H. Poonawala', 0, 3],
      ['Gerard Cassidy', 0, 4],
    ]);
    const turns = jpm.split.turns;
    expect(turns).toHaveLength(82);
    expect(turns[4]).toMatchObject({ speaker: 'Operator', section: 'qa', page_index: 3 });
    expect(said(jpm, turns[4]!)).toBe('Thank you. Please stand by. Our first question comes from John McDonald with Truist Securities. You may proceed.');
    // The answer's label takes three lines: name, title and firm, "A".
    expect(turns[6]).toMatchObject({ speaker: 'Jeremy Barnum', label: 'Jeremy Barnum', section: 'qa' });
    expect(jpm.doc.text.slice(turns[6]!.label_start, turns[6]!.char_start)).toBe('Jeremy Barnum\nChief Financial Officer, JPMorganChase\nA\n');
  });

  it('has the operator first and last, and the disclaimer as back matter', () => {
    const turns = jpm.split.turns;
    expect(turns[0]).toMatchObject({ speaker: 'Operator', label: 'Operator', section: 'presentation', page_index: 1 });
    expect(said(jpm, turns[0]!)).toMatch(/^Good morning, ladies and gentlemen\. Welcome to JPMorganChase's Fourth Quarter 2024 Earnings Call\./);
    expect(turns[81]).toMatchObject({ speaker: 'Operator', section: 'qa', page_index: 15 });
    expect(said(jpm, turns[81]!)).toBe("Thank you all for participating in today's conference. You may disconnect at this time, and have a great rest of your day");
    expect(jpm.doc.text.slice(jpm.split.back_matter!.char_start)).toMatch(/^Disclaimer\nThis document contains forward-looking statements/);
  });

  it('places every body line and passes the gate', () => {
    expectWellPlacedTurns(jpm);
    expect(recognizeTranscript({ doc: jpm.doc, pdfTitle: jpm.pdf.info.title })).toMatchObject({ cue: 'pdf_title', gate: null });
  });
});

describe('UBS, fourth quarter 2024 results (run-in speakers list, bare names, "Name, Firm" analysts)', () => {
  let ubs: Loaded;
  beforeAll(async () => {
    ubs = await load('UBS-4Q2024-earnings-call-transcript.pdf');
  }, 60_000);

  it('reads the call from the cover: a day-month-year date, no company named on it', () => {
    expect(ubs.pdf.pageCount).toBe(35);
    expect(ubs.split.call).toEqual({ company: null, title: 'Fourth quarter 2024 results', date: '2025-02-04', date_source: 'document' });
  });

  it('lists the two speakers of "Speeches by ..." and finds ten analysts by their labels', () => {
    const p = ubs.split.participants;
    const list = 'Speeches by Sergio P. Ermotti, Group Chief Executive Officer, and Todd Tuckner,\nGroup Chief Financial Officer';
    expect(p.slice(0, 2)).toEqual([
      { name: 'Sergio P. Ermotti', role: 'Group Chief Executive Officer', firm: null, kind: 'company', listed: true, quote: list },
      { name: 'Todd Tuckner', role: 'Group Chief Financial Officer', firm: null, kind: 'company', listed: true, quote: list },
    ]);
    expect(p.slice(2).map((x) => [x.name, x.firm, x.kind, x.listed])).toEqual([
      ['Chris Hallam', 'Goldman Sachs', 'analyst', false],
      ['Anke Reingen', 'RBC', 'analyst', false],
      ['Jeremy Sigee', 'BNP Paribas', 'analyst', false],
      ['Kian Abouhossein', 'JPMorgan', 'analyst', false],
      ['Giulia Miotto', 'Morgan Stanley', 'analyst', false],
      ['Stefan Stalmann', 'Autonomous Research', 'analyst', false],
      ['Andrew Coombs', 'Citi', 'analyst', false],
      ['Amit Goel', 'Mediobanca', 'analyst', false],
      ['Antonio Reale', 'Bank of America', 'analyst', false],
      ['Piers Brown', 'HSBC', 'analyst', false],
    ]);
  });

  it('splits 60 turns: 4 speeches, then 56 after "Analyst Q&A (CEO and CFO)"', () => {
    expect(ubs.split.headings.map((h) => ubs.doc.text.slice(h.char_start, h.char_end))).toEqual(['Analyst Q&A (CEO and CFO)']);
    expect(turnsPerSpeaker(ubs)).toEqual([
      ['Sergio P. Ermotti', 2, 8],
      ['Todd Tuckner', 2, 18],
      ['Chris Hallam', 0, 2],
      ['Anke Reingen', 0, 2],
      ['Jeremy Sigee', 0, 2],
      ['Kian Abouhossein', 0, 5],
      ['Giulia Miotto', 0, 4],
      ['Stefan Stalmann', 0, 5],
      ['Andrew Coombs', 0, 1],
      ['Amit Goel', 0, 3],
      ['Antonio Reale', 0, 2],
      ['Piers Brown', 0, 4],
    ]);
    const firstQuestion = ubs.split.turns[4]!;
    expect(firstQuestion).toMatchObject({ speaker: 'Chris Hallam', label: 'Chris Hallam, Goldman Sachs', section: 'qa', page_index: 22 });
    expect(said(ubs, firstQuestion)).toMatch(/^Yeah\. Good morning, everybody\. So on integration/);
  });

  it('has Sergio Ermotti first and last, and the cautionary statement as back matter', () => {
    const turns = ubs.split.turns;
    expect(turns[0]).toMatchObject({ speaker: 'Sergio P. Ermotti', label: 'Sergio P. Ermotti', section: 'presentation', page_index: 0 });
    expect(said(ubs, turns[0]!)).toMatch(/^Slide 3 – Key messages\nThank you, Sarah and good morning, everyone\./);
    expect(said(ubs, turns[0]!)).toMatch(/Now, I hand over to Todd who will cover the fourth-quarter results\.$/);
    expect(turns[59]).toMatchObject({ speaker: 'Sergio P. Ermotti', section: 'qa', page_index: 33 });
    expect(said(ubs, turns[59]!)).toMatch(/^Okay\. So there are no more questions\..*Thank you\.$/s);
    expect(ubs.doc.text.slice(ubs.split.back_matter!.char_start)).toMatch(/^Cautionary statement regarding forward-looking statements \| /);
  });

  it('places every body line and passes the gate', () => {
    expectWellPlacedTurns(ubs);
    // No "transcript" in the PDF's title (there is none) or on its first lines: the turns say it.
    expect(recognizeTranscript({ doc: ubs.doc, pdfTitle: ubs.pdf.info.title })).toMatchObject({ cue: 'turns', gate: null });
  });
});

describe('Barclays, Q1 2025 results call Q&A (no list, no operator, "Name, Firm" then the name alone)', () => {
  let barc: Loaded;
  beforeAll(async () => {
    barc = await load('BARC-1Q2025-results-call-transcript.pdf');
  }, 60_000);

  it('reads the call from the cover', () => {
    expect(barc.pdf.pageCount).toBe(21);
    expect(barc.split.call).toEqual({ company: 'Barclays PLC', title: 'Barclays PLC Q125 Results', date: '2025-04-30', date_source: 'document' });
  });

  it('finds the two executives by their titles and eleven analysts by their firms (one printed without)', () => {
    expect(barc.split.participants.map((x) => [x.name, x.role, x.firm, x.kind, x.listed])).toEqual([
      ['Guy Stebbings', null, 'BNP Paribas Exane', 'analyst', false],
      ['Anna Cross', 'Group Finance Director', null, 'company', false],
      ['C.S. Venkatakrishnan', 'Group Chief Executive', null, 'company', false],
      ['Ben Toms', null, 'RBC', 'analyst', false],
      ['Chris Cant', null, 'Autonomous', 'analyst', false],
      ['Amit Goel', null, 'Mediobanca', 'analyst', false],
      // Only ever labelled "Alvaro Serrano": an analyst because he speaks first in Q&A, unintroduced.
      ['Alvaro Serrano', null, null, 'analyst', false],
      ['Chris Hallam', null, 'Goldman Sachs', 'analyst', false],
      ['Perlie Mong', null, 'Bank of America', 'analyst', false],
      ['Andy Coombs', null, 'Citigroup', 'analyst', false],
      ['Ed Firth', null, 'KBW', 'analyst', false],
      // "Jefferies" as the text layer prints it, the ff ligature lost.
      ['Jonathan Pierce', null, 'Jeferies', 'analyst', false],
      ['Robin Down', null, 'HSBC', 'analyst', false],
    ]);
  });

  it('splits 44 turns, all Q&A (the first is an analyst\'s question)', () => {
    expect(barc.split.headings).toEqual([]);
    expect(turnsPerSpeaker(barc)).toEqual([
      ['Guy Stebbings', 0, 1],
      ['Anna Cross', 0, 20],
      ['C.S. Venkatakrishnan', 0, 8],
      ['Ben Toms', 0, 2],
      ['Chris Cant', 0, 1],
      ['Amit Goel', 0, 1],
      ['Alvaro Serrano', 0, 2],
      ['Chris Hallam', 0, 1],
      ['Perlie Mong', 0, 1],
      ['Andy Coombs', 0, 1],
      ['Ed Firth', 0, 3],
      ['Jonathan Pierce', 0, 2],
      ['Robin Down', 0, 1],
    ]);
    const anna = barc.split.turns.filter((t) => t.speaker === 'Anna Cross').map((t) => t.label);
    expect(anna[0]).toBe('Anna Cross, Group Finance Director');
    expect(new Set(anna.slice(1))).toEqual(new Set(['Anna Cross']));
  });

  it('has Guy Stebbings first, Anna Cross last, and the Important Notice as back matter', () => {
    const turns = barc.split.turns;
    expect(turns[0]).toMatchObject({ speaker: 'Guy Stebbings', section: 'qa', page_index: 0 });
    expect(said(barc, turns[0]!)).toMatch(/^Hi, good morning, everyone\. Thanks for taking the questions/);
    expect(turns[43]).toMatchObject({ speaker: 'Anna Cross', section: 'qa', page_index: 16 });
    expect(said(barc, turns[43]!)).toBe('Thank you.');
    expect(barc.doc.text.slice(barc.split.back_matter!.char_start)).toMatch(/^Important Notice\nThe terms Barclays or Group refer to Barclays PLC/);
  });

  it('places every body line and passes the gate', () => {
    expectWellPlacedTurns(barc);
    expect(recognizeTranscript({ doc: barc.doc, pdfTitle: barc.pdf.info.title })).toMatchObject({ cue: 'pdf_title', gate: null });
  });
});

describe('BNP Paribas, first quarter 2025 results (cover list, "Name (Firm): text", disclaimer page without heading)', () => {
  let bnp: Loaded;
  beforeAll(async () => {
    bnp = await load('BNP-1Q2025-results-call-transcript.pdf');
  }, 60_000);

  it('reads the call: the title from the running header, the date from the cover', () => {
    expect(bnp.pdf.pageCount).toBe(21);
    expect(bnp.split.call).toEqual({ company: 'BNP Paribas', title: 'BNP Paribas: First Quarter 2025 results', date: '2025-04-24', date_source: 'document' });
  });

  it('lists the two executives of the cover, then the analysts and the operator as they speak', () => {
    const p = bnp.split.participants;
    expect(p.slice(0, 2)).toEqual([
      { name: 'Jean-Laurent Bonnafé', role: 'Group CEO', firm: null, kind: 'company', listed: true, quote: 'Jean-Laurent Bonnafé (Group CEO)' },
      { name: 'Lars Machenil', role: 'Group CFO', firm: null, kind: 'company', listed: true, quote: 'Lars Machenil (Group CFO)' },
    ]);
    expect(p.slice(2).map((x) => [x.name, x.firm, x.kind, x.listed])).toEqual([
      ['Tarik El Mejjad', 'Bank of America', 'analyst', false],
      ['Operator', null, 'operator', false],
      ['Delphine Lee', 'JP Morgan', 'analyst', false],
      ['Giulia Miotto', 'Morgan Stanley', 'analyst', false],
      ['Jacques-Henri Gaulard', 'Kepler Cheuvreux', 'analyst', false],
      ['Joseph Dickerson', 'Jefferies', 'analyst', false],
      ['Flora Bocahut', 'Barclays', 'analyst', false],
      ['Andrew Coombs', 'Citi', 'analyst', false],
      ['Stefan Stalmann', 'Autonomous Research', 'analyst', false],
      ['Sharath Kumar', 'Deutsche Bank', 'analyst', false],
      ['Anke Reingen', 'RBC', 'analyst', false],
      ['Chris Hallam', 'Goldman Sachs', 'analyst', false],
      ['Kiri Vijayarajah', 'HSBC', 'analyst', false],
      // The operator says "Matt Clark, Mediobanca"; his label says "Matthew Clark (Mediobanca)".
      ['Matthew Clark', 'Mediobanca', 'analyst', false],
      ['Pierre Chédeville', 'CM-CIC Market Solutions', 'analyst', false],
    ]);
  });

  it('splits 68 turns: the two speeches, then 66 after QUESTIONS AND ANSWERS', () => {
    expect(bnp.split.headings.map((h) => bnp.doc.text.slice(h.char_start, h.char_end))).toEqual(['QUESTIONS AND ANSWERS']);
    expect(turnsPerSpeaker(bnp)).toEqual([
      ['Jean-Laurent Bonnafé', 1, 7],
      ['Lars Machenil', 1, 16],
      ['Tarik El Mejjad', 0, 3],
      ['Operator', 0, 13],
      ['Delphine Lee', 0, 2],
      ['Giulia Miotto', 0, 2],
      ['Jacques-Henri Gaulard', 0, 2],
      ['Joseph Dickerson', 0, 2],
      ['Flora Bocahut', 0, 2],
      ['Andrew Coombs', 0, 2],
      ['Stefan Stalmann', 0, 2],
      ['Sharath Kumar', 0, 2],
      ['Anke Reingen', 0, 2],
      ['Chris Hallam', 0, 2],
      ['Kiri Vijayarajah', 0, 2],
      ['Matthew Clark', 0, 4],
      ['Pierre Chédeville', 0, 1],
    ]);
    const turns = bnp.split.turns;
    expect(turns[1]).toMatchObject({ speaker: 'Lars Machenil', label: 'Lars Machenil', section: 'presentation', page_index: 3 });
    expect(bnp.doc.text.slice(turns[1]!.label_start, turns[1]!.char_start)).toBe('Lars Machenil\nGroup Chief Financial Officer\n');
    expect(turns[2]).toMatchObject({ speaker: 'Tarik El Mejjad', label: 'Tarik El Mejjad (Bank of America)', section: 'qa', page_index: 8 });
    // The stray "." under the heading is a rule, not text of the first question.
    expect(said(bnp, turns[2]!)).toMatch(/^Hi\. Good afternoon, everyone\. Two questions from my side, please\./);
  });

  it('has Jean-Laurent Bonnafé first and last; the unheaded disclaimer page is back matter', () => {
    const turns = bnp.split.turns;
    expect(turns[0]).toMatchObject({ speaker: 'Jean-Laurent Bonnafé', label: 'Jean-Laurent Bonnafé', section: 'presentation', page_index: 1 });
    expect(said(bnp, turns[0]!)).toMatch(/^Good afternoon, ladies and gentlemen\./);
    expect(turns[67]).toMatchObject({ speaker: 'Jean-Laurent Bonnafé', section: 'qa', page_index: 19, last_page_index: 19 });
    expect(said(bnp, turns[67]!)).toMatch(/^Thank you very much for your attention,.*Thank you so much\.$/s);
    expect(bnp.split.back_matter!.char_start).toBe(bnp.doc.text.indexOf('The figures included in this document are unaudited.'));
  });

  it('places every body line and passes the gate', () => {
    expectWellPlacedTurns(bnp);
    expect(recognizeTranscript({ doc: bnp.doc, pdfTitle: bnp.pdf.info.title })).toMatchObject({ cue: 'pdf_title', gate: null });
  });
});

describe('a call the splitter cannot place stays a document, with the reason', () => {
  let jpm: Loaded;
  let barc: Loaded;
  beforeAll(async () => {
    [jpm, barc] = await Promise.all([load('JPM-4Q2024-earnings-call-transcript.pdf'), load('BARC-1Q2025-results-call-transcript.pdf')]);
  }, 60_000);

  it('refuses JPMorgan when an analyst\'s label is not one: the text after a dotted rule belongs to no turn', () => {
    const pages = jpm.pdf.pages.map((p) => p.text.replace('Gerard Cassidy\nAnalyst, RBC Capital Markets LLC\nQ\nHi, Jeremy.', 'Gerard Cassidy asked\nHi, Jeremy.'));
    const r = recognizeTranscript({ doc: buildDocumentText(pages), pdfTitle: jpm.pdf.info.title });
    expect(r).toMatchObject({ transcript: null, cue: 'pdf_title' });
    expect(r.gate).toMatch(/^2 body line\(s\) belong to no speaker turn, the first at character \d+: "Gerard Cassidy asked"$/);
  });

  it('refuses JPMorgan without its title lines: names alone are no labels without a list or a decorated label', () => {
    const pages = jpm.pdf.pages.map((p) => p.text.replace(/^(?:Analyst, .*|.*Officer, JPMorganChase|[QA])\n/gm, ''));
    const r = recognizeTranscript({ doc: buildDocumentText(pages), pdfTitle: jpm.pdf.info.title });
    // Only "Operator:" is left as a label: everything after the first turn would be the operator's.
    expect(r).toEqual({ transcript: null, gate: 'no participants list and fewer than two distinct speakers', cue: 'pdf_title' });
  });

  it('refuses Barclays without a date anywhere', () => {
    const pages = barc.pdf.pages.map((p) => p.text.replace('30 April 2025', 'Date to follow'));
    expect(recognizeTranscript({ doc: buildDocumentText(pages), pdfTitle: null, kind: 'transcript' })).toEqual({ transcript: null, gate: 'the call\'s date is not known', cue: 'kind' });
  });
});

describe('label, list, heading and date shapes of other issuers', () => {
  const split = (...pages: string[]): { doc: DocumentText; split: TranscriptSplit } => {
    const doc = buildDocumentText(pages);
    return { doc, split: splitTranscript(doc) };
  };

  it('reads "Speakers:" run-in lists, letter-spaced headings, "NAME, ROLE/FIRM:" labels and a "30th January 2025" date', () => {
    const { doc, split: s } = split(
      [
        'Acme Corp Q4 2024 Results Call',
        '30th January 2025, 9.00am GMT',
        'Speakers: Jane Roe, Chief Executive Officer, and John Doe, Chief Financial Officer',
        'P R E S E N T A T I O N',
        'JANE ROE, CEO: Good morning. Results were good.',
        'JOHN DOE, CFO: Thank you, Jane. Costs fell.',
        'Q U E S T I O N S  A N D  A N S W E R S',
        'OPERATOR: Our first question is from Ann Lee with Big Bank.',
        'ANN LEE, BIG BANK: What about costs?',
        'JOHN DOE, CFO: They fell.',
      ].join('\n'),
    );
    expect(s.call).toEqual({ company: 'Acme Corp', title: 'Acme Corp Q4 2024 Results Call', date: '2025-01-30', date_source: 'document' });
    expect(s.participants.map((p) => [p.name, p.role, p.firm, p.kind, p.listed])).toEqual([
      ['Jane Roe', 'Chief Executive Officer', null, 'company', true],
      ['John Doe', 'Chief Financial Officer', null, 'company', true],
      ['Operator', null, null, 'operator', false],
      // As the label prints it; the operator's "Big Bank" is the fallback for a label without a firm.
      ['Ann Lee', null, 'BIG BANK', 'analyst', false],
    ]);
    expect(s.turns.map((t) => [t.label, t.section])).toEqual([
      ['JANE ROE, CEO', 'presentation'],
      ['JOHN DOE, CFO', 'presentation'],
      ['OPERATOR', 'qa'],
      ['ANN LEE, BIG BANK', 'qa'],
      ['JOHN DOE, CFO', 'qa'],
    ]);
    expect(transcriptGate(doc, s)).toBeNull();
  });

  it('takes a capitals name alone on its line as a label only when the list names it', () => {
    const page = ['Acme Corp First Quarter 2025 Earnings Call', '29 April 2025, 7.45am BST', 'Participants', 'Jane Roe, Chief Executive Officer', 'Ann Lee – Big Bank', 'Presentation', 'JANE ROE', 'Good morning.', 'COST OF RISK', 'Fell.', 'ANN LEE', 'A question.'];
    const { doc, split: s } = split(page.join('\n'));
    expect(s.call.date).toBe('2025-04-29');
    expect(s.turns.map((t) => [t.speaker, doc.text.slice(t.char_start, t.char_end)])).toEqual([
      ['Jane Roe', 'Good morning.\nCOST OF RISK\nFell.'],
      ['Ann Lee', 'A question.'],
    ]);
  });
});
