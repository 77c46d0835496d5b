import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  contentHash,
  padCik,
  type CompanyDescriptionData,
  type DocumentTextData,
  type DocumentTextRecordV1,
  type FilingRecordV1,
  type Form4Data,
  type IssuerDocumentData,
  type IssuerRosterData,
  type RecordEnvelope,
} from '@app/contracts';
import { extractPdf } from '@app/decks';
import { parseRecentFilings, parseSubmissions } from '@app/edgar';
import {
  createDataSource,
  projectRecords,
} from '@app/persistence';
// The bench seeds records exactly as the ingestors map them: their mappers are pure functions.
// eslint-disable-next-line no-restricted-imports
import { filingRecordFromSubmissions } from '../../apps/ingest-sec/src/filings/filing.mapper';
// eslint-disable-next-line no-restricted-imports
import { documentTextRecordsOf } from '../../apps/ingest-decks/src/document-text.mapper';
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

const OBSERVED_AT = '2025-08-02T12:00:00.000Z';
const OBSERVED_AT_DATE = new Date(OBSERVED_AT);

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

/** filing@1 records of every filing in one submissions JSON, by ingest-sec's own mapper. */
export function submissionsFilingRecords(path: string): FilingRecordV1[] {
  const bytes = readFileSync(path);
  const company = parseSubmissions(bytes);
  const source = { url: `https://data.sec.gov/submissions/CIK${padCik(company.cik)}.json`, contentHash: contentHash(bytes), fetchedAt: OBSERVED_AT };
  const ctx = { runId: 'bench-api-search', origin: 'live' as const, extractedAt: OBSERVED_AT };
  return parseRecentFilings(bytes).flatMap((f) => filingRecordFromSubmissions(company, f, source, ctx) ?? []);
}

/** document-text@1 records of one real PDF, by ingest-decks' own mapper (layout captions, no link title). */
export async function pdfDocumentTextRecords(path: string, link: { url: string; cik: string; ticker: string }): Promise<DocumentTextRecordV1[]> {
  const bytes = new Uint8Array(readFileSync(path));
  const pdf = await extractPdf(bytes);
  return documentTextRecordsOf(
    { ...link, title: null, kind: null },
    { bytes: bytes.length, contentHash: contentHash(bytes), fetchedAt: OBSERVED_AT_DATE },
    pdf,
    { runId: 'bench-api-search', origin: 'live' as const, extractedAt: OBSERVED_AT_DATE },
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
    for (const file of submissions) for (const r of submissionsFilingRecords(join(paths.fixtures, 'submissions', file))) await projectRecords(ds, [r]);
    // In file order: the DKNG 4/As after the filings they amend. `notes` is not a record.
    for (const r of Object.values(form4)) if (r.schema === 'form4@1') await projectRecords(ds, [r]);
    await projectRecords(ds, [issuer.rosterExecutives]);
    await projectRecords(ds, [issuer.rosterIr]);
    await projectRecords(ds, [issuer.description]);
    for (const r of [issuer.documentSeptember2017, issuer.documentAnnualMeeting2015, issuer.documentQ4Release2016]) await projectRecords(ds, [r]);
    for (const part of issuer.documentTextAnnualMeeting2015) await projectRecords(ds, [part]);
    const frph = { cik: '0000844059', ticker: 'FRPH' };
    for (const [file, url] of [
      ['FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', 'https://www.frpholdings.com/assets/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf'],
      ['FRPH-FRP_2019_Annual_Report.pdf', 'https://www.frpholdings.com/assets/FRP_2019_Annual_Report.pdf'],
    ] as const) {
      for (const part of await pdfDocumentTextRecords(join(paths.fixtures, 'decks', file), { url, ...frph })) await projectRecords(ds, [part]);
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
