// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import {
  companyDescriptionRecordV1,
  contentHash,
  documentTextRecordV1,
  issuerDocumentRecordV1,
  issuerRosterRecordV1,
  recordId,
  stableStringify,
  type CompanyDescriptionData,
  type DocumentTextData,
  type IssuerDocumentData,
  type IssuerRosterData,
  type RecordEnvelope,
} from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { catalogColumns, schemaDifferences } from '../schema-check';
import { TABLES } from '../tables';
import { CompaniesRepository } from '../companies/companies.repository';
import { DocumentsRepository } from '../documents/documents.repository';
import { RosterRepository, secRosterCurrentSince } from '../roster/roster.repository';
import type { BatchOutcome } from './batch-outcome';
import { projectCompanyDescriptions } from '../companies/company-description.projection';
import { projectDocumentTexts } from '../documents/document-text.projection';
import { projectIssuerDocuments } from '../documents/ir-document.projection';
import { projectIssuerRosters } from '../roster/ir-roster.projection';

/** Records shaped per the contract from the FRPH fixture pages and the FRPH Annual Meeting 2015 deck. */
interface IssuerPageRecords {
  rosterExecutives: RecordEnvelope<IssuerRosterData>;
  rosterIr: RecordEnvelope<IssuerRosterData>;
  description: RecordEnvelope<CompanyDescriptionData>;
  documentSeptember2017: RecordEnvelope<IssuerDocumentData>;
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentQ4Release2016: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
}

const records = JSON.parse(readFileSync(join(__dirname, 'examples/issuer-pages.records.json'), 'utf8')) as IssuerPageRecords;
const CIK = '0000844059';

/** The same record with other data, observed at another time: a new deterministic id. */
function variant<D>(e: RecordEnvelope<D>, data: D, observedAt: string): RecordEnvelope<D> {
  return { ...e, data, observed_at: observedAt, id: recordId(e.key, contentHash(stableStringify(data))) };
}

let db: TestDatabase;
let ds: DataSource;

type BatchProjection<D> = (m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<D>>) => Promise<BatchOutcome>;

/** Projects the records as one batch in one transaction, as the projector does. */
const inBatch = <D>(project: BatchProjection<D>, ...batch: Array<RecordEnvelope<D>>): Promise<BatchOutcome> =>
  ds.transaction((m) => project(m, batch));

/** What a batch of one record did. */
async function one<D>(project: BatchProjection<D>, envelope: RecordEnvelope<D>): Promise<'inserted' | 'updated' | 'unchanged'> {
  const o = await inBatch(project, envelope);
  expect(o.inserted.length + o.updated.length + o.unchanged).toBe(1);
  return o.inserted.length ? 'inserted' : o.updated.length ? 'updated' : 'unchanged';
}

const projectIssuerRoster = (e: RecordEnvelope<IssuerRosterData>) => one(projectIssuerRosters, e);
const projectCompanyDescription = (e: RecordEnvelope<CompanyDescriptionData>) => one(projectCompanyDescriptions, e);
const projectIssuerDocument = (e: RecordEnvelope<IssuerDocumentData>) => one(projectIssuerDocuments, e);
const projectDocumentText = (e: RecordEnvelope<DocumentTextData>) => one(projectDocumentTexts, e);

beforeAll(async () => {
  db = await createTestDatabase('issuer_pages_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

async function reset(): Promise<void> {
  await ds.query('TRUNCATE roster_entries, company_descriptions, document_pages, documents, ir_events, companies RESTART IDENTITY CASCADE');
}

describe('issuer pages read models', () => {
  it('table specs and migrations agree (what db:check asks)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences).toEqual([]);
  });

  it("projects the contract's own example records of these schemas (made by the ingestors from the fixtures) idempotently", async () => {
    await reset();
    const dir = join(__dirname, '../../../contracts/src/examples');
    const project = {
      'ir-roster@1': projectIssuerRosters,
      'company-description@1': projectCompanyDescriptions,
      'ir-document@1': projectIssuerDocuments,
      'document-text@1': projectDocumentTexts,
    } as Record<string, BatchProjection<never>>;
    const examples = readdirSync(dir)
      .filter((f) => Object.keys(project).some((schema) => f.startsWith(`${schema}.`)))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordEnvelope<never>);
    for (const e of examples) expect([e.schema, await one(project[e.schema]!, e)]).toEqual([e.schema, 'inserted']);
    for (const e of examples) expect([e.schema, await one(project[e.schema]!, e)]).toEqual([e.schema, 'unchanged']);
    // Each schema's examples again as one batch, twice: nothing to write.
    for (const schema of Object.keys(project)) {
      const batch = examples.filter((e) => e.schema === schema);
      expect(await inBatch(project[schema]!, ...batch, ...batch)).toEqual({ inserted: [], updated: [], unchanged: 2 * batch.length });
    }
    // And into an empty database as one batch per schema: each key inserted once.
    await reset();
    for (const schema of Object.keys(project)) {
      const batch = examples.filter((e) => e.schema === schema);
      expect(await inBatch(project[schema]!, ...batch, ...batch)).toEqual({ inserted: [...new Set(batch.map((e) => e.key))], updated: [], unchanged: 2 * batch.length - new Set(batch.map((e) => e.key)).size });
    }
  });

  it('the example records satisfy the contract', () => {
    issuerRosterRecordV1.parse(records.rosterExecutives);
    issuerRosterRecordV1.parse(records.rosterIr);
    companyDescriptionRecordV1.parse(records.description);
    for (const d of [records.documentSeptember2017, records.documentAnnualMeeting2015, records.documentQ4Release2016]) issuerDocumentRecordV1.parse(d);
    for (const t of records.documentTextAnnualMeeting2015) documentTextRecordV1.parse(t);
  });
});

describe('ir-roster@1', () => {
  beforeAll(reset);
  const list = async (currentOnly: boolean, category = 'executives') =>
    (await new RosterRepository(ds).listAll(CIK, category, secRosterCurrentSince(new Date()))).filter((r) => !currentOnly || r.isCurrent);

  it('projects a roster once: the same record twice changes nothing', async () => {
    expect(await projectIssuerRoster(records.rosterExecutives)).toBe('inserted');
    const before = await ds.query('SELECT * FROM roster_entries ORDER BY id');
    expect(await projectIssuerRoster(records.rosterExecutives)).toBe('unchanged');
    expect(await ds.query('SELECT * FROM roster_entries ORDER BY id')).toEqual(before);
    const rows = await list(true);
    expect(rows.map((r) => [r.rank, r.name, r.role])).toEqual([
      [1, 'John D. Baker II', 'Executive Chairman'],
      [2, 'Thompson S. Baker', 'Chief Executive Officer'],
      [3, 'John D. Milton Jr.', 'Executive Vice President, Treasurer, Chief Financial Officer and Secretary'],
      [4, 'David H. deVilliers Jr.', 'President'],
      [5, 'John D. Klopfenstein', 'Controller and Chief Accounting Officer'],
    ]);
    expect(rows[0]).toMatchObject({
      sourceProvider: 'issuer_page',
      isCurrent: true,
      sourceUrl: 'https://www.frpholdings.com/executive-team.html',
      quote: 'John D. Baker II Executive Chairman',
      contentHash: 'sha256:a45110794b38560e35233e9f13d93d4a5bee1f589f75b5dd7e00928ee2473236',
      accession: null,
    });
    expect(rows[0]!.srcId).toMatch(/^src_/);
  });

  it('a newer roster replaces the issuer_page roster; SEC entries and other categories stay; an older one never comes back', async () => {
    await projectIssuerRoster(records.rosterIr);
    await ds.query(
      `INSERT INTO roster_entries (cik, category, source_provider, person_key, name, role, affiliation, rank, is_current, src_id,
         source_url, accession, record_id, record_observed_at, first_seen_at, last_seen_at, last_filed_at)
       VALUES ($1, 'executives', 'sec', 'cik:0001000001', 'John D. Baker II', 'Director', 'FRP Holdings, Inc.', 1, true, 'src_form4',
         'https://www.sec.gov/Archives/edgar/data/844059/x.xml', '0000844059-25-000001', 'rec_form4', now(), now(), now(), current_date)`,
      [CIK],
    );
    const d = records.rosterExecutives.data;
    const entries = d.entries
      .filter((e) => e.name !== 'John D. Klopfenstein')
      .map((e) => (e.name === 'David H. deVilliers Jr.' ? { ...e, role: 'President and Chief Operating Officer' } : e));
    const newer = variant(records.rosterExecutives, { ...d, entries }, '2026-02-15T10:00:00.000Z');
    expect(await projectIssuerRoster(newer)).toBe('updated');
    expect(await projectIssuerRoster(newer)).toBe('unchanged');

    const current = await list(true);
    expect(current.filter((r) => r.sourceProvider === 'issuer_page').map((r) => r.name)).toEqual([
      'John D. Baker II', 'Thompson S. Baker', 'John D. Milton Jr.', 'David H. deVilliers Jr.',
    ]);
    expect(current.find((r) => r.name === 'David H. deVilliers Jr.')!.role).toBe('President and Chief Operating Officer');
    expect(current.filter((r) => r.sourceProvider === 'sec').map((r) => r.role)).toEqual(['Director']);
    const all = await list(false);
    expect(all.find((r) => r.name === 'John D. Klopfenstein')).toMatchObject({ isCurrent: false, quote: 'John D. Klopfenstein Controller and Chief Accounting Officer' });
    const baker = all.find((r) => r.name === 'John D. Baker II' && r.sourceProvider === 'issuer_page')!;
    expect(baker.firstSeenAt.toISOString()).toBe('2026-01-15T10:00:00.000Z');
    expect(baker.lastSeenAt.toISOString()).toBe('2026-02-15T10:00:00.000Z');

    // A replay of the first roster (older) changes nothing.
    expect(await projectIssuerRoster(records.rosterExecutives)).toBe('unchanged');
    expect((await list(false)).find((r) => r.name === 'John D. Klopfenstein')!.isCurrent).toBe(false);
    // An empty roster retires everyone of the key, and an older replay does not bring them back.
    const empty = variant(records.rosterExecutives, { ...d, entries: [] }, '2026-03-15T10:00:00.000Z');
    expect(await projectIssuerRoster(empty)).toBe('updated');
    expect(await projectIssuerRoster(newer)).toBe('unchanged');
    expect((await list(true)).map((r) => r.sourceProvider)).toEqual(['sec']);
    const ir = await list(true, 'ir');
    expect(ir.map((r) => [r.name, r.affiliation, r.phone])).toEqual([
      ['John Milton', 'FRP Holdings, Inc.', '(877) 704-1776'],
      ['David H. deVilliers', 'FRP Development Corp', '(410) 771-4100'],
    ]);
  });

  it('a batch of rosters, replays and retirements leaves what one by one leaves', async () => {
    const d = records.rosterExecutives.data;
    const newer = variant(records.rosterExecutives, { ...d, entries: d.entries.slice(1) }, '2026-02-15T10:00:00.000Z');
    const empty = variant(records.rosterExecutives, { ...d, entries: [] }, '2026-03-15T10:00:00.000Z');
    const batch = [records.rosterExecutives, records.rosterIr, newer, records.rosterExecutives, empty, newer];
    const entries = async () => (await ds.query<Array<Record<string, unknown>>>('SELECT * FROM roster_entries ORDER BY category, person_key')).map(({ id: _id, ...rest }) => rest);
    await reset();
    const oneByOne = [];
    for (const r of batch) oneByOne.push(await projectIssuerRoster(r));
    expect(oneByOne).toEqual(['inserted', 'inserted', 'updated', 'unchanged', 'updated', 'unchanged']);
    const expected = await entries();
    await reset();
    // Each key once, at its last write: the ir roster (2nd record), then executives (5th).
    expect(await inBatch(projectIssuerRosters, ...batch)).toEqual({ inserted: [records.rosterIr.key, records.rosterExecutives.key], updated: [], unchanged: 4 });
    expect(await entries()).toEqual(expected);
    expect(await inBatch(projectIssuerRosters, ...batch)).toEqual({ inserted: [], updated: [], unchanged: batch.length });
  });
});

describe('company-description@1', () => {
  beforeAll(reset);

  it('is kept by CIK apart from companies, idempotent and never regressed; the companies detail reads it', async () => {
    expect(await projectCompanyDescription(records.description)).toBe('inserted');
    expect(await projectCompanyDescription(records.description)).toBe('unchanged');
    const d = records.description.data;
    const newer = variant(records.description, { ...d, description: `${d.description} (updated)` }, '2026-02-15T10:00:00.000Z');
    expect(await projectCompanyDescription(newer)).toBe('updated');
    expect(await projectCompanyDescription(records.description)).toBe('unchanged');
    // The company arrives after its description: the detail still finds it.
    await ds.query(
      `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
       VALUES ('FRPH:US', 'FRPH', 'US', $1, 'FRP HOLDINGS, INC.', 844059, $2::jsonb, 'rec_frph', 'h', now())`,
      [CIK, JSON.stringify(records.description.provenance)],
    );
    const company = await new CompaniesRepository(ds).findBySymbol('FRPH:US');
    expect(company!.issuerDescription).toEqual({
      description: newer.data.description,
      srcId: expect.stringMatching(/^src_/) as string,
      sourceUrl: 'https://www.frpholdings.com/executive-team.html',
      quote: d.citation.quote,
      contentHash: d.citation.content_hash,
      extractedAt: '2026-01-15T10:00:02.000Z',
    });
    expect(company!.description).toBeNull();
  });

  it('a batch is reduced per CIK as one by one: the newest stands, a ticker a later record lacks is kept', async () => {
    await reset();
    const d = records.description.data;
    const newer = variant(records.description, { ...d, description: `${d.description} (updated)`, ticker: null }, '2026-02-15T10:00:00.000Z');
    expect(d.ticker).not.toBeNull();
    expect(await inBatch(projectCompanyDescriptions, records.description, newer, records.description)).toEqual({ inserted: [CIK], updated: [], unchanged: 2 });
    const row = async () => (await ds.query<Array<{ description: string; ticker: string | null; record_id: string }>>('SELECT description, ticker, record_id FROM company_descriptions'))[0];
    expect(await row()).toEqual({ description: newer.data.description, ticker: d.ticker, record_id: newer.id });
    expect(await inBatch(projectCompanyDescriptions, records.description, newer)).toEqual({ inserted: [], updated: [], unchanged: 2 });
    // One by one gives the same row.
    await reset();
    for (const r of [records.description, newer, records.description]) await projectCompanyDescription(r);
    expect(await row()).toEqual({ description: newer.data.description, ticker: d.ticker, record_id: newer.id });
  });
});

describe('ir-document@1 and document-text@1', () => {
  const [part0, part1] = records.documentTextAnnualMeeting2015 as [RecordEnvelope<DocumentTextData>, RecordEnvelope<DocumentTextData>];
  const link = records.documentAnnualMeeting2015;
  const url = link.data.url;

  /** Every column but the generated id and the wall-clock updated_at. */
  async function snapshot(): Promise<unknown> {
    const docs = await ds.query<Array<Record<string, unknown>>>('SELECT * FROM documents ORDER BY url');
    const pages = await ds.query<Array<Record<string, unknown>>>(
      'SELECT d.url, p.page_index, p.char_start, p.char_end, p.text, p.vision_caption, p.content_hash FROM document_pages p JOIN documents d ON d.id = p.document_id ORDER BY d.url, p.page_index',
    );
    const events = await ds.query<unknown[]>('SELECT event_key, title, event_date FROM ir_events ORDER BY event_key');
    return { docs: docs.map(({ id: _id, updated_at: _u, event_id: e, ...rest }) => ({ ...rest, has_event: e !== null })), pages, events };
  }

  it('projects the same state whichever topic arrives first, and replays change nothing', async () => {
    await reset();
    expect(await projectIssuerDocument(link)).toBe('inserted');
    expect(await projectDocumentText(part0)).toBe('updated');
    expect(await projectDocumentText(part1)).toBe('updated');
    const linkFirst = await snapshot();
    for (const r of [part1, part0]) expect(await projectDocumentText(r)).toBe('unchanged');
    expect(await projectIssuerDocument(link)).toBe('unchanged');
    expect(await snapshot()).toEqual(linkFirst);

    await reset();
    expect(await projectDocumentText(part0)).toBe('inserted');
    expect(await projectDocumentText(part1)).toBe('updated');
    const [textOnly] = await ds.query<Array<Record<string, unknown>>>('SELECT title, kind, doc_type, published_at_source, sort_at FROM documents');
    expect(textOnly).toMatchObject({ title: part0.data.title, kind: null, doc_type: 'slide_deck', published_at_source: 'pdf_metadata' });
    expect((textOnly!.sort_at as Date).toISOString()).toBe('2015-02-19T15:42:41.000Z');
    // The document's first link: inserted (the document's first sighting on a page), though its row was there.
    expect(await projectIssuerDocument(link)).toBe('inserted');
    expect(await snapshot()).toEqual(linkFirst);
  });

  it('stores the pages so that the joined text slices back to every page', async () => {
    const repo = new DocumentsRepository(ds);
    const [doc] = (await repo.list({}, { direction: 'desc', limit: 10 })).rows;
    expect(doc).toMatchObject({
      url,
      ticker: 'FRPH',
      title: 'Annual Meeting - 2015 Annual Shareholder Meeting',
      kind: 'presentation',
      docType: 'slide_deck',
      docGroup: 'slide_deck',
      language: 'en',
      pageCount: 36,
      publishedAt: null,
      publishedAtSource: 'pdf_metadata',
      foundOn: 'https://www.frpholdings.com/frppresent.html',
      textContentHash: 'sha256:cbb8e00fa0b3395e5481783f1e27f41322ab56234f17c713b0329bd1b3777575',
      textQuote: 'Annual Shareholder Meeting',
      pdfBytes: 4147418,
    });
    expect(doc!.eventId).not.toBeNull();
    const pages = await repo.listAllPages(doc!.id);
    expect(pages).toHaveLength(36);
    const text = pages.map((p) => p.text).join(doc!.pageSeparator!);
    expect(text).toHaveLength(doc!.textLength!);
    for (const p of pages) expect(text.slice(p.charStart, p.charEnd)).toBe(p.text);
    expect(pages[0]).toMatchObject({ pageIndex: 0, quote: 'Annual Shareholder Meeting', captionSource: 'layout@1', width: 792, height: 612 });
  });

  it('a new PDF version replaces every page; parts and replays of the old version never come back', async () => {
    const version2Hash = 'sha256:dfe8b72984ad400c0000000000000000000000000000000000000000000000aa';
    const pages = part0.data.pages.slice(0, 2);
    const textLength = pages[1]!.char_end;
    const v2data: DocumentTextData = { ...part0.data, page_count: 2, text_length: textLength, part: { index: 0, count: 1 }, pages };
    const v2 = { ...variant(part0, v2data, '2026-03-01T00:00:00.000Z'), provenance: { ...part0.provenance, content_hash: version2Hash } };
    expect(await projectDocumentText(v2)).toBe('updated');
    const stored = async () => ds.query<Array<{ page_index: number; content_hash: string }>>('SELECT page_index, content_hash FROM document_pages ORDER BY page_index');
    expect(await stored()).toEqual([
      { page_index: 0, content_hash: version2Hash },
      { page_index: 1, content_hash: version2Hash },
    ]);
    // A redelivered part 1 of the old version is dropped, and so is the old part 0 (older).
    expect(await projectDocumentText(part1)).toBe('unchanged');
    expect(await projectDocumentText(part0)).toBe('unchanged');
    expect(await projectDocumentText(v2)).toBe('unchanged');
    expect(await stored()).toHaveLength(2);
    const [doc] = await ds.query<Array<{ page_count: number; text_content_hash: string; text_observed_at: Date }>>('SELECT page_count, text_content_hash, text_observed_at FROM documents');
    expect(doc).toMatchObject({ page_count: 2, text_content_hash: version2Hash });
    expect(doc!.text_observed_at.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    // The link keeps owning the title while the text changes versions.
    expect((await ds.query<Array<{ title: string }>>('SELECT title FROM documents'))[0]!.title).toBe(link.data.title);
  });

  it('orders by the IR page date, else the PDF date, else first sight; the link kind gives the doc type until text arrives', async () => {
    await projectIssuerDocument(records.documentSeptember2017);
    await projectIssuerDocument(records.documentQ4Release2016);
    const repo = new DocumentsRepository(ds);
    const { rows } = await repo.list({}, { direction: 'desc', limit: 10 });
    expect(rows.map((r) => [r.title, r.docType, r.docGroup, r.publishedAtSource, r.sortAt.toISOString()])).toEqual([
      ['FRP Holdings Inc. Investor Presentation September 2017', 'slide_deck', 'slide_deck', 'ir_page', '2017-09-28T00:00:00.000Z'],
      [records.documentQ4Release2016.data.title, 'press_release', 'press_release', 'ir_page', '2016-11-22T00:00:00.000Z'],
      ['Annual Meeting - 2015 Annual Shareholder Meeting', 'slide_deck', 'slide_deck', 'pdf_metadata', '2015-02-19T15:42:41.000Z'],
    ]);
    const second = (await repo.list({ docTypes: ['press_release', 'slide_deck'] }, { direction: 'desc', limit: 10, after: [rows[0]!.dated, rows[0]!.sortKey, rows[0]!.id] })).rows;
    expect(second.map((r) => r.id)).toEqual([rows[1]!.id, rows[2]!.id]);
    expect((await repo.list({ symbols: ['FRPH:US'] }, { direction: 'asc', limit: 10 })).rows).toEqual([]);
  });

  it('batches of links and of text parts (with redeliveries and a new version) leave what one by one leaves', async () => {
    const v2 = {
      ...variant(part0, { ...part0.data, page_count: 1, text_length: part0.data.pages[0]!.char_end, part: { index: 0, count: 1 }, pages: part0.data.pages.slice(0, 1) }, '2026-03-01T00:00:00.000Z'),
      provenance: { ...part0.provenance, content_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000002' },
    };
    const links = [link, records.documentQ4Release2016, link];
    const texts = [part0, part1, part1, part0];
    await reset();
    for (const r of links) await projectIssuerDocument(r);
    for (const r of texts) await projectDocumentText(r);
    const v1 = await snapshot();
    for (const r of [v2, part1, part0]) await projectDocumentText(r);
    const v2State = await snapshot();

    await reset();
    expect(await inBatch(projectIssuerDocuments, ...links)).toEqual({ inserted: [url, records.documentQ4Release2016.key], updated: [], unchanged: 1 });
    expect(await inBatch(projectDocumentTexts, ...texts)).toEqual({ inserted: [], updated: [url], unchanged: 3 });
    expect(await snapshot()).toEqual(v1);
    expect(await inBatch(projectDocumentTexts, v2, part1, part0)).toEqual({ inserted: [], updated: [url], unchanged: 2 });
    expect(await snapshot()).toEqual(v2State);

    // Text first, then links, as single batches: the same as link first. The row was there, but the
    // link is new to it (the document's first sighting on a page): inserted.
    await reset();
    expect(await inBatch(projectDocumentTexts, ...texts)).toEqual({ inserted: [url], updated: [], unchanged: 3 });
    expect(await inBatch(projectIssuerDocuments, ...links)).toEqual({ inserted: [url, records.documentQ4Release2016.key], updated: [], unchanged: 1 });
    expect(await snapshot()).toEqual(v1);
  });
});
