import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOCUMENT_PAGE_SEPARATOR,
  DOCUMENT_TEXT_CHARS_PER_RECORD,
  contentHash,
  documentTextRecordV1,
  filingRecordV1,
  padCik,
  recordId,
  sourceId,
  stableStringify,
  type CompanyDescriptionData,
  type DocumentTextData,
  type DocumentTextRecordV1,
  type FilingRecordV1,
  type Form4Data,
  type IssuerDocumentData,
  type IssuerRosterData,
  type RecordEnvelope,
} from '@app/contracts';
import { buildDocumentText, classifyDocument, detectLanguage, extractPdf, layoutCaptioner, toDocumentParts } from '@app/decks';
import { archivesDocumentPath, isAmendmentForm, itemsOf, parseRecentFilings, parseSubmissions } from '@app/edgar';
import {
  createDataSource,
  projectCompanyDescription,
  projectDocumentText,
  projectFiling,
  projectForm4,
  projectIssuerDocument,
  projectIssuerRoster,
} from '@app/persistence';
import { loadCompanies, tickerMapRecords } from '../api-companies/scratch-db';

/*
 * The search bench's data, all from real files, through the projector's own projections:
 * - companies: every entry of the real ticker map (bench/api-companies does the same);
 * - filings: every filing of the three real submissions JSONs (MSFT, TSLA, MUR), as filing@1
 *   records shaped like ingest-sec's (validated against the contract);
 * - Form 4s, FRPH rosters, description, document links and the 2015 Annual Meeting deck's text:
 *   the example records the ingestors' mappers made from the fixtures (the API tests use them too);
 * - the two other FRPH PDFs, extracted with @app/decks into document-text@1 records shaped like
 *   ingest-decks' (validated against the contract).
 */

const SEC_WWW = 'https://www.sec.gov';
const OBSERVED_AT = '2025-08-02T12:00:00.000Z';

export interface SeedCounts {
  companies: number;
  filings: number;
  form4: number;
  rosterEntries: number;
  documents: number;
  pages: number;
}

export interface SeedPaths {
  /** The repository root (examples are read from the source tree). */
  root: string;
  /** A fixtures directory laid out like ../shared/fixtures (sample/fixtures in the repository). */
  fixtures: string;
}

interface IssuerPagesExamples {
  rosterExecutives: RecordEnvelope<IssuerRosterData>;
  rosterIr: RecordEnvelope<IssuerRosterData>;
  description: RecordEnvelope<CompanyDescriptionData>;
  documentSeptember2017: RecordEnvelope<IssuerDocumentData>;
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentQ4Release2016: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
}

/** filing@1 records of every filing in one submissions JSON, as ingest-sec's mapper shapes them. */
export function submissionsFilingRecords(path: string): FilingRecordV1[] {
  const bytes = readFileSync(path);
  const company = parseSubmissions(bytes);
  const hash = contentHash(bytes);
  const cik = padCik(company.cik);
  const url = `https://data.sec.gov/submissions/CIK${cik}.json`;
  const out: FilingRecordV1[] = [];
  for (const f of parseRecentFilings(bytes)) {
    if (!f.form || !f.filingDate || !/^\d{4}-\d{2}-\d{2}$/.test(f.filingDate)) continue;
    const data: FilingRecordV1['data'] = {
      accession: f.accessionNumber,
      cik,
      company_name: company.name,
      form: f.form,
      filed_date: f.filingDate,
      accepted_at: f.acceptanceDateTime && !Number.isNaN(Date.parse(f.acceptanceDateTime)) ? new Date(f.acceptanceDateTime).toISOString() : null,
      report_period: f.reportDate && /^\d{4}-\d{2}-\d{2}$/.test(f.reportDate) ? f.reportDate : null,
      primary_document_url: `${SEC_WWW}${archivesDocumentPath(cik, f.accessionNumber, f.primaryDocument || `${f.accessionNumber}-index.htm`)}`,
      primary_doc_description: f.primaryDocDescription,
      items: itemsOf(f.items),
      size: f.size !== null && Number.isInteger(f.size) && f.size >= 0 ? f.size : null,
      is_xbrl: f.isXBRL,
      is_inline_xbrl: f.isInlineXBRL,
      is_amendment: isAmendmentForm(f.form),
      amends_accession: null,
      act: f.act,
      file_number: f.fileNumber,
      film_number: f.filmNumber,
      source: 'submissions',
    };
    out.push(
      filingRecordV1.parse({
        schema: 'filing@1',
        key: data.accession,
        id: recordId(data.accession, contentHash(stableStringify(data))),
        observed_at: OBSERVED_AT,
        produced_by: 'bench',
        correlation_id: 'run_bench-api-search',
        provenance: {
          src_id: sourceId(url, hash),
          source_provider: 'sec',
          source_url: url,
          accession: data.accession,
          quote: JSON.stringify(data.accession),
          content_hash: hash,
          extracted_at: OBSERVED_AT,
        },
        data,
      }),
    );
  }
  return out;
}

/** document-text@1 records of one real PDF, as ingest-decks' mapper shapes them (layout captions, no link title). */
export async function pdfDocumentTextRecords(path: string, link: { url: string; cik: string; ticker: string }): Promise<DocumentTextRecordV1[]> {
  const bytes = new Uint8Array(readFileSync(path));
  const hash = contentHash(bytes);
  const pdf = await extractPdf(bytes);
  const document = buildDocumentText(pdf.pages.map((p) => p.text), DOCUMENT_PAGE_SEPARATOR);
  const pages = pdf.pages.map((page, i) => ({
    page_index: page.page_index,
    text: page.text,
    char_start: document.offsets[i]!.char_start,
    char_end: document.offsets[i]!.char_end,
    vision_caption: layoutCaptioner.caption(page),
    caption_source: layoutCaptioner.id,
    quote: page.text.length > 0 ? page.text.split('\n', 1)[0]! : null,
    width: page.width,
    height: page.height,
  }));
  const firstWithText = pages.find((p) => p.text.length > 0);
  const title = pdf.info.title ?? (pages.find((p) => p.vision_caption.length > 0)?.vision_caption || link.url);
  const kind = classifyDocument({ pages: pdf.pages, info: pdf.info, kind: null, title: null, firstPageCaption: firstWithText?.vision_caption ?? null });
  return toDocumentParts(pages, DOCUMENT_TEXT_CHARS_PER_RECORD).map((part) =>
    documentTextRecordV1.parse({
      schema: 'document-text@1',
      key: link.url,
      id: recordId(`${link.url}#part=${part.index}`, hash),
      observed_at: OBSERVED_AT,
      produced_by: 'bench',
      correlation_id: 'run_bench-api-search',
      provenance: {
        src_id: sourceId(link.url, hash),
        source_provider: 'issuer_page',
        source_url: link.url,
        citation_url: link.url,
        accession: null,
        quote: firstWithText?.quote ?? null,
        content_hash: hash,
        extracted_at: OBSERVED_AT,
      },
      data: {
        cik: link.cik,
        ticker: link.ticker,
        url: link.url,
        title,
        doc_type: kind.doc_type,
        doc_group: kind.doc_group,
        language: detectLanguage(document.text),
        page_count: pdf.pageCount,
        page_separator: DOCUMENT_PAGE_SEPARATOR,
        text_length: document.text.length,
        pdf: { bytes: bytes.length, ...pdf.info },
        part: { index: part.index, count: part.count },
        pages: part.pages,
      },
    }),
  );
}

/** Loads every read model search reads into the (migrated) database at `url`. */
export async function seedSearchData(url: string, paths: SeedPaths): Promise<SeedCounts> {
  const tickers = tickerMapRecords(join(paths.fixtures, 'tickers/company_tickers_exchange.json'), OBSERVED_AT);
  await loadCompanies(url, tickers);
  const examples = join(paths.root, 'libs/persistence/src/projections/examples');
  const issuer = JSON.parse(readFileSync(join(examples, 'issuer-pages.records.json'), 'utf8')) as IssuerPagesExamples;
  const form4 = JSON.parse(readFileSync(join(examples, 'form4.records.json'), 'utf8')) as Record<string, RecordEnvelope<Form4Data> | { schema?: undefined }>;

  const ds = createDataSource({ url, poolSize: 4, applicationName: 'bench-seed' });
  await ds.initialize();
  try {
    const submissions = readdirSync(join(paths.fixtures, 'submissions')).filter((f) => /^CIK\d{10}\.json$/.test(f)).sort();
    for (const file of submissions) for (const r of submissionsFilingRecords(join(paths.fixtures, 'submissions', file))) await projectFiling(ds, r);
    // In file order: the DKNG 4/As after the filings they amend. `notes` is not a record.
    for (const r of Object.values(form4)) if (r.schema === 'form4@1') await projectForm4(ds, r);
    await projectIssuerRoster(ds, issuer.rosterExecutives);
    await projectIssuerRoster(ds, issuer.rosterIr);
    await projectCompanyDescription(ds, issuer.description);
    for (const r of [issuer.documentSeptember2017, issuer.documentAnnualMeeting2015, issuer.documentQ4Release2016]) await projectIssuerDocument(ds, r);
    for (const part of issuer.documentTextAnnualMeeting2015) await projectDocumentText(ds, part);
    const frph = { cik: '0000844059', ticker: 'FRPH' };
    for (const [file, url] of [
      ['FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', 'https://www.frpholdings.com/assets/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf'],
      ['FRPH-FRP_2019_Annual_Report.pdf', 'https://www.frpholdings.com/assets/FRP_2019_Annual_Report.pdf'],
    ] as const) {
      for (const part of await pdfDocumentTextRecords(join(paths.fixtures, 'decks', file), { url, ...frph })) await projectDocumentText(ds, part);
    }
    // What autovacuum would do: GIN pending lists merged into the indexes, statistics for the planner.
    await ds.query('VACUUM ANALYZE');
    const [counts] = await ds.query<SeedCounts[]>(`SELECT
      (SELECT count(*)::int FROM companies) AS companies, (SELECT count(*)::int FROM filings) AS filings,
      (SELECT count(*)::int FROM form4_filings) AS form4, (SELECT count(*)::int FROM roster_entries) AS "rosterEntries",
      (SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM document_pages) AS pages`);
    return counts!;
  } finally {
    await ds.destroy();
  }
}
