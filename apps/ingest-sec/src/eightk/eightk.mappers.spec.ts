import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS, validateRecord, type FilingData } from '@app/contracts';
import { classifyExhibit, exhibitPages, exhibitTitle, parseCompleteSubmission, type CompleteSubmission } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { exhibitDocumentRecordsOf } from './exhibit-document.mapper';
import { eightKFilingRecordOf, eightKItemsOf } from './eightk-filing.mapper';

/* The real 8-K complete submissions of ../shared/fixtures/8k (SOURCES.md states their items). */
const submission = (file: string): CompleteSubmission => parseCompleteSubmission(readFileSync(join(defaultFixturesDir(), '8k', file), 'utf8'));
const CTX = { runId: 'run_spec', origin: 'live' as const, extractedAt: '2026-11-28T12:00:00.000Z' };

describe('eightKItemsOf', () => {
  it('reads the items the main document states, with those the header lists', () => {
    expect(eightKItemsOf(submission('ADBE-0000796343-23-000044.txt'), '2023-03-15')).toEqual({ numbers: ['2.02', '9.01'], legacy: [], unmatched: [] });
    expect(eightKItemsOf(submission('ABVC-0001213900-25-032135.txt'), '2025-04-15').numbers).toEqual(['2.02', '4.02', '7.01', '9.01']);
    // 3M's header lists "Other Events" only; its document states 8.01 and 9.01.
    expect(eightKItemsOf(submission('MMM-0000066740-24-000023.txt'), '2024-03-08').numbers).toEqual(['8.01', '9.01']);
    expect(eightKItemsOf(submission('JWN-0000072333-23-000015.txt'), '2023-03-06').numbers).toEqual(['5.02', '9.01']);
  });

  it("maps a 2000 8-K's old item numbers (Item 5, Item 7) and says so", () => {
    expect(eightKItemsOf(submission('AAPL-0000912057-00-002128.txt'), '2000-01-24')).toMatchObject({
      numbers: ['8.01', '9.01'],
      legacy: [{ number: '8.01', legacy_number: '5' }, { number: '9.01', legacy_number: '7' }],
    });
  });
});

describe('eightKFilingRecordOf', () => {
  it('fills a daily-index record with the items, acceptance time and primary document of the submission', () => {
    const s = submission('ADBE-0000796343-23-000044.txt');
    const known = { accession: '0000796343-23-000044', cik: '0000796343', company_name: 'ADOBE INC.', form: '8-K', filed_date: '2023-03-15', items: null, source: 'daily_index' } as unknown as FilingData;
    const record = eightKFilingRecordOf(
      known,
      { cik: '0000796343', accession: '0000796343-23-000044', form: '8-K', filedDate: '2023-03-15' },
      s,
      eightKItemsOf(s, '2023-03-15'),
      { url: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt', bytes: new Uint8Array([1]), fetchedAt: '2026-11-28T12:00:00.000Z' },
      CTX,
    );
    expect(validateRecord(TOPICS.filings, record)).toMatchObject({ ok: true });
    expect(record.data).toMatchObject({
      items: ['2.02', '9.01'],
      accepted_at: '2023-03-15T20:06:36.000Z',
      report_period: '2023-03-15',
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbe-20230315.htm',
      source: 'submission_text',
    });
    expect(record.data.legacy_items).toBeUndefined();
  });
});

describe('exhibitDocumentRecordsOf', () => {
  it("makes ADBE's EX-99.1 a press release about earnings, its pages exact, its provenance the SEC document", () => {
    const s = submission('ADBE-0000796343-23-000044.txt');
    const doc = s.documents.find((d) => d.type === 'EX-99.1')!;
    const { pages, imagesOnly } = exhibitPages(doc.body, 'html');
    const classification = classifyExhibit({ type: doc.type, description: doc.description, filename: doc.filename, text: pages[0] ?? null })!;
    const url = `https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/${doc.filename}`;
    const records = exhibitDocumentRecordsOf(
      {
        cik: '0000796343',
        filing: { accession: '0000796343-23-000044', form: '8-K', filed_date: '2023-03-15', accepted_at: '2023-03-15T20:06:36.000Z', items: ['2.02', '9.01'], exhibit_type: doc.type, sequence: doc.sequence!, description: doc.description, file_name: doc.filename },
        url,
        submissionUrl: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt',
        format: 'html',
        body: doc.body,
        classification,
        pages,
        imagesOnly,
        title: exhibitTitle(pages),
        fetchedAt: '2026-11-28T12:00:00.000Z',
      },
      CTX,
    );
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(validateRecord(TOPICS.documentTexts, record!)).toMatchObject({ ok: true });
    expect(record!.data).toMatchObject({ doc_type: 'press_release', doc_group: 'press_release', subject: 'earnings', format: 'html', pdf: null, no_text: null, language: 'en' });
    expect(record!.data.title).toMatch(/^Adobe Reports Record Revenue in Q1 Fiscal 2023/);
    expect(record!.provenance).toMatchObject({ source_provider: 'sec', accession: '0000796343-23-000044', citation_url: url });
    // Every page is its slice of the document text, pages joined by the separator.
    const text = pages.join(record!.data.page_separator);
    expect(record!.data.text_length).toBe(text.length);
    for (const p of record!.data.pages) expect(text.slice(p.char_start, p.char_end)).toBe(p.text);
    expect(record!.data.pages[0]!.quote).toBe(pages[0]!.split('\n')[0]);
  });
});
