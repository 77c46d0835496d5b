// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { type DocumentTextData, type IssuerDocumentData, type RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { DocumentsRepository } from './documents.repository';
import { projectDocumentTexts } from './document-text.projection';
import { projectIssuerDocuments } from './ir-document.projection';

/*
 * One document from an IR link with its PDF and an 8-K exhibit, in either order. The FRPH 2015
 * annual-meeting deck's real link and text records; its exhibit is that deck's first page as if FRP
 * had filed it as EX-99.1 (no such filing is among the fixtures), dated by the link's date.
 */
const records = JSON.parse(readFileSync(join(__dirname, '../projections/examples/issuer-pages.records.json'), 'utf8')) as {
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
};
const link: RecordEnvelope<IssuerDocumentData> = { ...records.documentAnnualMeeting2015, data: { ...records.documentAnnualMeeting2015.data, published_on: '2015-02-19' } };
const pdfText = records.documentTextAnnualMeeting2015;
const EXHIBIT_URL = 'https://www.sec.gov/Archives/edgar/data/844059/000084405915000007/ex99-1.htm';
const [first] = pdfText;
const exhibit: RecordEnvelope<DocumentTextData> = {
  ...first!,
  key: EXHIBIT_URL,
  id: 'rec_exhibit_annual_meeting_2015',
  observed_at: '2026-01-01T00:00:00.000Z',
  provenance: { ...first!.provenance, source_provider: 'sec', source_url: EXHIBIT_URL, citation_url: EXHIBIT_URL, accession: '0000844059-15-000007', content_hash: `sha256:${'e'.repeat(64)}` },
  data: {
    ...first!.data,
    url: EXHIBIT_URL,
    title: link.data.title,
    format: 'html',
    pdf: null,
    page_count: 1,
    text_length: first!.data.pages[0]!.text.length,
    part: { index: 0, count: 1 },
    pages: [{ ...first!.data.pages[0]!, char_start: 0, char_end: first!.data.pages[0]!.text.length, width: null, height: null }],
    filing: { accession: '0000844059-15-000007', form: '8-K', filed_date: '2015-02-19', accepted_at: '2015-02-19T21:30:00.000Z', items: ['7.01', '9.01'], exhibit_type: 'EX-99.1', sequence: 2, description: 'Annual meeting presentation', file_name: 'ex99-1.htm' },
    transcript: null,
  },
};

let db: TestDatabase;
let ds: DataSource;

beforeEach(async () => {
  db = await createTestDatabase('document_sources');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterEach(async () => {
  await ds?.destroy();
  await db?.drop();
});

const linkBatch = () => ds.transaction((m) => projectIssuerDocuments(m, [link]));
const textBatch = (...parts: Array<RecordEnvelope<DocumentTextData>>) => ds.transaction((m) => projectDocumentTexts(m, parts));
const rows = async () => (await new DocumentsRepository(ds).list({}, { direction: 'desc', limit: 10 })).rows;

/** What either order must end with: one document, the exhibit's text (the filed version), dated by the filing. */
async function expectOneFiledDocument(): Promise<void> {
  const all = await rows();
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({
    linkUrl: link.data.url,
    filingUrl: EXHIBIT_URL,
    textUrl: EXHIBIT_URL,
    title: link.data.title,
    format: 'html',
    pageCount: 1,
    accession: '0000844059-15-000007',
    publishedAtSource: 'filing',
    subject: 'disclosure',
  });
  expect(all[0]!.sortAt.toISOString()).toBe('2015-02-19T21:30:00.000Z');
  const pages = await ds.query<Array<{ page_index: number }>>('SELECT page_index FROM document_pages WHERE document_id = $1', [all[0]!.id]);
  expect(pages).toEqual([{ page_index: 0 }]);
}

describe('one document from an IR link and its 8-K exhibit', () => {
  it('link and PDF first, then the exhibit: the exhibit is an alias, and its text replaces the IR copy', async () => {
    await linkBatch();
    await textBatch(...pdfText);
    expect((await rows())[0]).toMatchObject({ pageCount: 36, format: 'pdf' });
    expect(await textBatch(exhibit)).toMatchObject({ inserted: [], updated: [EXHIBIT_URL] });
    await expectOneFiledDocument();
    expect((await rows())[0]!.url).toBe(link.data.url);
    // The IR copy again (a replay) does not take the text back.
    expect(await textBatch(...pdfText)).toMatchObject({ inserted: [], updated: [], unchanged: 2 });
    await expectOneFiledDocument();
  });

  it('exhibit first, then the link and the PDF: the link is an alias, and the IR copy never replaces the filed text', async () => {
    await textBatch(exhibit);
    await linkBatch();
    await textBatch(...pdfText);
    await expectOneFiledDocument();
    expect((await rows())[0]!.url).toBe(EXHIBIT_URL);
  });
});
