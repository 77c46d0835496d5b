import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { classifyExhibit, type ExhibitKind } from './exhibit.classifier';
import { exhibitPages } from './exhibit-pages';
import { parseCompleteSubmission, type SubmissionDocument } from './submission.parser';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '8k', file), 'utf8');
/** Every file of the 8k fixtures that holds <DOCUMENT>s. */
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

/** What the worker will do: read the text of text documents, then classify. */
function classify(d: SubmissionDocument): ExhibitKind | null {
  const text = d.format === 'html' || d.format === 'text' ? exhibitPages(d.body, d.format).pages.join('\n') : null;
  return classifyExhibit({ type: d.type, description: d.description, filename: d.filename, text });
}

describe('classifyExhibit on every fixture document', () => {
  const all = FILES.flatMap((file) => parseCompleteSubmission(read(file)).documents.map((d) => ({ file, d })));

  it.each([
    ['ADBE-0000796343-23-000044.txt', 'EX-99.1', 'press_release'],
    ['ABVC-0001213900-25-032135.txt', 'EX-99.1', 'press_release'],
    ['MMM-0000066740-24-000023.txt', 'EX-99.1', 'press_release'],
    ['BKE-BuckleInc.8-K.EX99.1.html', 'EX-99.1', 'press_release'],
    ['AAPL-0000912057-00-002128.txt', 'EX-99.1', 'press_release'],
    ['NVDA-0001045810-26-000024.txt', 'EX-10.1', null],
    ['JWN-0000072333-23-000015.txt', 'EX-10.1', null],
    ['JWN-0000072333-23-000015.txt', 'EX-10.2', null],
    ['ACFN-0001493152-25-001317.nc', 'EX-10.1', null],
    ['ADBE-0000796343-23-000044.txt', 'GRAPHIC', null],
    ['ABVC-0001213900-25-032135.txt', 'GRAPHIC', null],
    ['JWN-0000072333-23-000015.txt', 'GRAPHIC', null],
    ['ADBE-0000796343-23-000044.txt', '8-K', null],
    ['AAPL-a8-kq1201712312016.htm', '8-K', null],
  ])('%s %s -> %s', (file, type, kind) => {
    const found = all.filter((x) => x.file === file && x.d.type === type);
    expect(found.length).toBeGreaterThan(0);
    for (const { d } of found) expect(classify(d)).toBe(kind);
  });

  it('count table: each document type of the fixtures and what the classifier made of it', () => {
    const table: Record<string, number> = {};
    for (const { d } of all) {
      const key = `${d.type.startsWith('EX-101.') ? 'EX-101.*' : d.type} -> ${classify(d) ?? 'null'}`;
      table[key] = (table[key] ?? 0) + 1;
    }
    expect(table).toEqual({
      '8-K -> null': 8,
      'EX-99.1 -> press_release': 5,
      'EX-10.1 -> null': 3,
      'EX-10.2 -> null': 1,
      'EX-101.* -> null': 20,
      'GRAPHIC -> null': 3,
      'XML -> null': 30,
      'EXCEL -> null': 5,
      'JSON -> null': 6,
      'ZIP -> null': 6,
    });
  });
});

describe('classifyExhibit rules (synthetic: the fixtures hold no deck, transcript, letter or report)', () => {
  const c = (type: string, description: string | null, filename: string | null, text: string | null = null) => classifyExhibit({ type, description, filename, text });
  it('serves EX-99 (and EX-13, EX-20) only', () => {
    for (const type of ['EX-10.1', 'EX-101.INS', 'EX-104', 'EX-3.1', 'EX-4.1', 'EX-23.1', 'EX-2.1', 'EX-16.1', 'GRAPHIC', 'ZIP', 'XML', 'EXCEL', 'JSON', '8-K', '8-K/A']) {
      expect(c(type, 'Press release', 'press.htm', 'Acme announces results')).toBeNull();
    }
    expect(c('EX-99', null, null)).toBe('other');
    expect(c('EX-13', 'Annual Report to Shareholders', 'ex13.htm')).toBe('report');
  });

  it('reads the description and the file name first', () => {
    expect(c('EX-99.2', 'Investor Presentation', 'ex99-2.htm')).toBe('slide_deck');
    expect(c('EX-99.2', 'EX-99.2', 'q4-2024earningsslides.pdf')).toBe('slide_deck');
    expect(c('EX-99.3', 'Transcript of earnings call', null)).toBe('transcript');
    expect(c('EX-99.1', 'Letter to Shareholders', null)).toBe('letter');
    expect(c('EX-99.1', 'Press Release dated May 1, 2024', null, 'Dear Shareholders,')).toBe('press_release');
    expect(c('EX-99.2', 'Financial Supplement', null)).toBe('report');
  });

  it('then the first lines of the text', () => {
    expect(c('EX-99.1', 'EX-99.1', 'ex991.htm', 'Exhibit 99.1\nAcme Reports Record Revenue\nSAN JOSE -- (BUSINESS WIRE) --')).toBe('press_release');
    expect(c('EX-99.1', null, null, 'Acme Q4 2024 Earnings Call Transcript\nOperator: Good afternoon')).toBe('transcript');
    expect(c('EX-99.1', null, null, 'Exhibit 99.1\nDear Fellow Shareholders,\nThis year ...')).toBe('letter');
    expect(c('EX-99.2', null, null, 'Investor Presentation\nMarch 2024')).toBe('slide_deck');
    // A release that mentions its conference call far down stays a press release.
    expect(c('EX-99.1', null, null, 'Acme Announces Results\nline\nline\nline\nAcme will host a conference call')).toBe('press_release');
    expect(c('EX-99.1', null, null, 'Consent of counsel')).toBe('other');
  });
});

describe('classifyExhibit file-name cues', () => {
  it('reads "pr" as a word of the file name only', () => {
    expect(classifyExhibit({ type: 'EX-99.1', description: null, filename: 'ex99-1_pr.htm', text: null })).toBe('press_release');
    expect(classifyExhibit({ type: 'EX-99.1', description: null, filename: 'ex99-1_proxy.htm', text: null })).toBe('other');
  });
});
