import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord, type DocumentTextRecordV1 } from '@app/contracts';
import { DecksError, extractPdf, type ExtractedPdf } from '@app/decks';
import { defaultFixturesDir } from '@app/testing';
import { documentTextRecordsOf, type DeckLink } from './document-text.mapper';

const DECK = join(defaultFixturesDir(), 'decks', 'FRPH-Annual_Meeting_-_2015_FINAL2.pdf');
const EXAMPLE = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples', 'document-text@1.frph-2015-presentation.json');

const LINK: DeckLink = {
  url: 'http://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf',
  cik: '0000844059',
  ticker: 'FRPH',
  title: 'Annual Meeting - 2015 Annual Shareholder Meeting',
  kind: 'presentation',
};
const CTX = { runId: 'run_example_frph_2015', origin: 'live' as const, extractedAt: new Date('2026-11-20T09:00:02.000Z') };

describe('documentTextRecordsOf on the FRPH 2015 annual meeting deck', () => {
  let bytes: Uint8Array;
  let pdf: ExtractedPdf;
  let source: { bytes: number; contentHash: string; fetchedAt: Date };
  beforeAll(async () => {
    bytes = new Uint8Array(readFileSync(DECK));
    pdf = await extractPdf(bytes);
    source = { bytes: bytes.byteLength, contentHash: contentHash(bytes), fetchedAt: new Date('2026-11-20T09:00:00.000Z') };
  });

  it('makes one valid record for the whole deck, with the link title, provenance and every page', () => {
    const records = documentTextRecordsOf(LINK, source, pdf, CTX);
    expect(records).toHaveLength(1);
    const [record] = records as [DocumentTextRecordV1];
    expect(validateRecord(TOPICS.documentTexts, record)).toMatchObject({ ok: true });
    expect(record).toMatchObject({
      key: LINK.url,
      produced_by: 'ingest-decks',
      correlation_id: 'run_example_frph_2015',
      origin: 'live' as const,
      provenance: {
        source_provider: 'issuer_page',
        source_url: LINK.url,
        citation_url: LINK.url,
        accession: null,
        quote: 'Annual Shareholder Meeting',
        content_hash: 'sha256:cbb8e00fa0b3395e5481783f1e27f41322ab56234f17c713b0329bd1b3777575',
      },
      data: { title: LINK.title, doc_type: 'slide_deck', doc_group: 'slide_deck', language: 'en', page_count: 36, text_length: 25_753, part: { index: 0, count: 1 } },
    });
    expect(record.data.pages).toHaveLength(36);
    // Rebuilt from its pages, the document text holds every page at its offsets.
    const text = record.data.pages.map((p) => p.text).join(record.data.page_separator);
    expect(text).toHaveLength(record.data.text_length);
    for (const page of record.data.pages) expect(text.slice(page.char_start, page.char_end)).toBe(page.text);
    expect(record.data.pages[35]).toMatchObject({ quote: 'Annual Shareholders Meeting', vision_caption: 'FRP HOLDINGS, INC. — 200 W. Forsyth Street, 7th floor', caption_source: 'layout@1' });
    // Same bytes, same ids.
    expect(documentTextRecordsOf(LINK, source, pdf, { ...CTX, runId: 'run_other' })[0]!.id).toBe(record.id);
  });

  it('is the committed example record when parts are cut at 3,000 characters (part 0 of 12: pages 0-1)', () => {
    const records = documentTextRecordsOf(LINK, source, pdf, { ...CTX, maxCharsPerRecord: 3_000 });
    expect(records.map((r) => r.data.pages.length)).toEqual([2, 1, 1, 1, 1, 10, 13, 1, 1, 1, 1, 3]);
    expect(new Set(records.map((r) => r.id)).size).toBe(12);
    expect(records[0]).toEqual(JSON.parse(readFileSync(EXAMPLE, 'utf8')));
  });

  it('takes the PDF Info title, then the first caption, then the file name when the link has no title', () => {
    expect(documentTextRecordsOf({ ...LINK, title: null }, source, pdf, CTX)[0]!.data.title).toBe('Microsoft PowerPoint - Annual Meeting - 2015 FINAL2');
    const untitled = { ...pdf, info: { ...pdf.info, title: null } };
    expect(documentTextRecordsOf({ ...LINK, title: null }, source, untitled, CTX)[0]!.data.title).toBe('FRP Holdings, Inc. — A Real Estate Company');
    const blank = { ...untitled, pages: untitled.pages.map((p) => ({ ...p, lines: [], text: '' })) };
    const [record] = documentTextRecordsOf({ ...LINK, title: null }, source, blank, CTX);
    expect(record!.data).toMatchObject({ title: 'Annual_Meeting_-_2015_FINAL2.pdf', language: null, text_length: 35 * 3 });
    expect(record!.provenance.quote).toBeNull();
    expect(record!.data.pages[0]).toMatchObject({ quote: null, vision_caption: '' });
  });

  it('throws page_too_large when one page does not fit a record', () => {
    expect(() => documentTextRecordsOf(LINK, source, pdf, { ...CTX, maxCharsPerRecord: 2_000 })).toThrow(DecksError);
  });
});

const TRANSCRIPT = join(defaultFixturesDir(), 'transcripts', 'C-citi-4Q2024-earnings-call-transcript.pdf');
const TRANSCRIPT_EXAMPLE = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples', 'document-text@1.citi-4q2024-transcript.json');
// The sample's IR host serves the fixture under this path (sample/SOURCES.md): Citigroup, CIK 831001.
const TRANSCRIPT_LINK: DeckLink = {
  url: 'http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf',
  cik: '0000831001',
  ticker: 'C',
  title: null,
  kind: null,
};

describe('documentTextRecordsOf on the Citigroup Q4 2024 earnings call transcript', () => {
  let pdf: ExtractedPdf;
  let source: { bytes: number; contentHash: string; fetchedAt: Date };
  beforeAll(async () => {
    const bytes = new Uint8Array(readFileSync(TRANSCRIPT));
    pdf = await extractPdf(bytes);
    source = { bytes: bytes.byteLength, contentHash: contentHash(bytes), fetchedAt: new Date('2026-11-20T09:00:00.000Z') };
  }, 60_000);

  it('types it transcript and carries the split transcript: the committed example record', () => {
    const records = documentTextRecordsOf(TRANSCRIPT_LINK, source, pdf, { ...CTX, runId: 'run_example_citi_4q2024' });
    expect(records).toHaveLength(1);
    const [record] = records as [DocumentTextRecordV1];
    expect(validateRecord(TOPICS.documentTexts, record)).toMatchObject({ ok: true });
    expect(record.data).toMatchObject({ title: 'Fourth Quarter 2024 Earnings Transcript', doc_type: 'transcript', doc_group: 'transcript', page_count: 16, transcript_gate: null });
    expect(record.data.transcript?.call).toEqual({ company: 'Citi', title: 'Citi Fourth Quarter 2024 Earnings Call', date: '2025-01-15', date_source: 'document' });
    expect(record.data.transcript?.turns).toHaveLength(59);
    expect(record).toEqual(JSON.parse(readFileSync(TRANSCRIPT_EXAMPLE, 'utf8')));
  });

  it('puts the transcript on the last part only: its offsets need every page before it', () => {
    const records = documentTextRecordsOf(TRANSCRIPT_LINK, source, pdf, { ...CTX, maxCharsPerRecord: 30_000 });
    expect(records.length).toBeGreaterThan(1);
    expect(records.map((r) => r.data.transcript === null)).toEqual([...records.slice(1).map(() => true), false]);
    expect(records.every((r) => r.data.doc_type === 'transcript')).toBe(true);
  });

  it('keeps the type a link gives a transcript that fails the gate, with the reason', () => {
    const undated = { ...pdf, info: { ...pdf.info, title: null }, pages: pdf.pages.map((p) => ({ ...p, text: p.text.replaceAll('January 15, 2025', 'Date to follow') })) };
    const [record] = documentTextRecordsOf({ ...TRANSCRIPT_LINK, title: 'Q4 2024 Earnings Call Transcript' }, source, undated, CTX);
    expect(record!.data).toMatchObject({ doc_type: 'slide_deck', transcript: null, transcript_gate: 'the call\'s date is not known' });
  });
});
