import type { DataSource } from 'typeorm';
import { documentTextRecordV1, EXAMPLE_RECORDS } from '@app/contracts';
import { DocumentsRepository, FilingsRepository, InsiderTransactionsRepository, TranscriptsRepository } from '@app/persistence';
import {
  toDocumentDetail,
  toFiling,
  toForm4Filing,
  toTranscriptDetail,
  type DocumentDetailBody,
  type FilingBody,
  type ThirteenFFilingBody,
  type TranscriptDetailBody,
  type WebhookTopic,
} from '@app/resources';

/*
 * Built-in samples, used only while the read models hold nothing of that kind: real values from
 * the fixture records (the MSFT 10-K of 2025-07-30, Reid Hoffman's Form 4 of 2024-09-13, the FRP
 * Holdings investor presentation of September 2017, the Citigroup Q4 2024 earnings call), in the
 * shape the API serves.
 */
const FILING_SAMPLE: FilingBody = {
  accession: '0000950170-25-100235',
  cik: '0000789019',
  company_name: 'MICROSOFT CORP',
  symbol: 'MSFT:US',
  form: '10-K',
  filed_date: '2025-07-30',
  accepted_at: '2025-07-30T20:11:40.000Z',
  first_seen_at: '2025-08-02T12:00:00.500Z',
  report_period: '2025-06-30',
  primary_document_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017025100235/msft-20250630.htm',
  description: '10-K',
  items: [],
  item_details: [],
  size: 34889671,
  is_amendment: false,
  amends_accession: null,
  provenance: {
    src_id: 'src_555dac7cfcd951514137dbf5',
    source_provider: 'sec',
    source_url: 'https://data.sec.gov/submissions/CIK0000789019.json',
    accession: '0000950170-25-100235',
    quote: '"0000950170-25-100235"',
    content_hash: 'sha256:5b1ca66d91d8341903dce7c2e00456a4b00155a68e5c0c51825b89c6ff2cdf5c',
    extracted_at: '2025-08-02T12:00:01.000Z',
  },
};

const FORM4_SAMPLE = {
  accession: '0001062993-24-016587',
  form: '4',
  is_amendment: false,
  filed_date: '2024-09-13',
  period_of_report: '2024-09-12',
  issuer: { cik: '0000789019', symbol: 'MSFT:US', name: 'MICROSOFT CORP', trading_symbol: 'MSFT' },
  owners: [
    { cik: '0001519339', name: 'Hoffman Reid', is_director: true, is_officer: false, officer_title: null, is_ten_percent_owner: false, is_other: false, other_text: null },
  ],
  transactions: [],
  provenance: {
    src_id: 'src_d4cb6fc578c96f18868933a1',
    source_provider: 'sec',
    source_url: 'https://www.sec.gov/Archives/edgar/data/789019/000106299324016587/form4.xml',
    accession: '0001062993-24-016587',
    quote: null,
    content_hash: 'sha256:9be7a35165b5d16291220fc9fb3ee342619ce214b71b4478e36c7ab417cada50',
    extracted_at: '2025-08-02T12:00:01.000Z',
  },
};

const DOCUMENT_SAMPLE: DocumentDetailBody = {
  id: 1,
  symbol: 'FRPH:US',
  ticker: 'FRPH',
  title: 'FRP Holdings Inc. Investor Presentation September 2017',
  doc_type: 'slide_deck',
  doc_group: 'other',
  report_type: null,
  format: null,
  language: 'en',
  published_at: '2017-09-28T00:00:00.000Z',
  published_at_source: 'ir_page',
  pages: null,
  event_id: null,
  url: 'http://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf',
  kind: 'presentation',
  found_on: 'http://www.frpholdings.com/investor-relations.html',
  accession: null,
  items: null,
  exhibit: null,
  no_text: null,
  sources: [{ provider: 'issuer_page', url: 'http://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf', accession: null }],
  provenance: {
    src_id: 'src_427cc975fd349972d78d6fd6',
    source_provider: 'issuer_page',
    source_url: 'http://www.frpholdings.com/investor-relations.html',
    citation_url: 'http://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf',
    accession: null,
    quote: '09/28/2017-FRP Holdings Inc. Investor Presentation September 2017',
    content_hash: 'sha256:3b5ca14766610025bd4b4999949ee62c4d00696387eb14d49ca464918f263a63',
    extracted_at: '2026-02-20T10:00:00.000Z',
  },
  page_count: null,
  transcript_gate: null,
};

/**
 * The Citigroup Q4 2024 call as ingest-decks splits the fixture PDF: its committed example record
 * (one part; the source page of the PDF is not recorded, hence the .example host), read into the
 * row the projection writes and mapped as the API serves it, every turn included, as in a real event.
 */
function transcriptSample(): TranscriptDetailBody {
  const record = documentTextRecordV1.parse(EXAMPLE_RECORDS.citiTranscript);
  const d = record.data;
  const t = d.transcript!;
  return toTranscriptDetail({
    id: 1,
    documentId: 1,
    url: d.url,
    cik: d.cik,
    ticker: d.ticker,
    symbol: d.ticker ? `${d.ticker}:US` : null,
    company: t.call.company,
    title: t.call.title,
    callDate: t.call.date,
    dateSource: t.call.date_source,
    participants: t.participants,
    turns: t.turns,
    turnCount: t.turns.length,
    frontMatter: t.front_matter,
    backMatter: t.back_matter,
    contentHash: record.provenance.content_hash!,
    srcId: record.provenance.src_id,
    sourceUrl: record.provenance.source_url ?? d.url,
    quote: t.turns[0]?.quote ?? null,
    extractedAt: record.provenance.extracted_at ? new Date(record.provenance.extracted_at) : null,
    firstSeenAt: new Date(record.observed_at),
    language: d.language,
    pageCount: d.page_count,
    documentText: d.pages.map((page) => page.text).join(d.page_separator),
  });
}

const TRANSCRIPT_SAMPLE = transcriptSample();

/** ACTIAM N.V.'s 13F-HR for 2020Q4 (the 13f-holdings@1 example record), as a `13f.filed` event carries it. */
const THIRTEENF_SAMPLE: ThirteenFFilingBody = {
  accession: '0001619124-21-000002',
  form: '13F-HR',
  manager: { cik: '0001619124', name: 'ACTIAM N.V.' },
  quarter: '2020Q4',
  period: '2020-12-31',
  report_type: 'holdings',
  amendment: null,
  holdings_count: 5,
  value_usd_total: 732158000,
  value_unit: 'thousands',
  unit_flag: null,
  filed_date: '2021-02-12',
  superseded_by: null,
  provenance: {
    src_id: 'src_eb897d4bf9f52c86f21593a2',
    source_provider: 'sec',
    source_url: 'https://www.sec.gov/Archives/edgar/data/1619124/000161912421000002/0001619124-21-000002.txt',
    accession: '0001619124-21-000002',
    quote: '<reportType>13F HOLDINGS REPORT</reportType>',
    content_hash: 'sha256:2e62ca1bb292890f6e130cf16b7fe39dbe22eb735826db3f5e1f2103be828345',
    extracted_at: '2025-08-02T12:00:01.000Z',
  },
};

/** The built-in sample of each topic: what a test event carries while its read model is empty. */
export const BUILT_IN_SAMPLES: Record<WebhookTopic, unknown> = {
  'filing.created': FILING_SAMPLE,
  'form4.filed': FORM4_SAMPLE,
  'ir_document.created': DOCUMENT_SAMPLE,
  'transcript.published': TRANSCRIPT_SAMPLE,
  '13f.filed': THIRTEENF_SAMPLE,
};

/**
 * Realistic `data` for a test event of a topic: the newest row of the matching read model,
 * mapped exactly as the API serves it (what a real event carries); a built-in sample of fixture
 * values while the read model is empty.
 */
export class WebhookSamples {
  private readonly filings: FilingsRepository;
  private readonly documents: DocumentsRepository;
  private readonly insiders: InsiderTransactionsRepository;
  private readonly transcripts: TranscriptsRepository;

  constructor(dataSource: DataSource) {
    this.filings = new FilingsRepository(dataSource);
    this.documents = new DocumentsRepository(dataSource);
    this.insiders = new InsiderTransactionsRepository(dataSource);
    this.transcripts = new TranscriptsRepository(dataSource);
  }

  async sample(topic: WebhookTopic): Promise<unknown> {
    switch (topic) {
      case 'filing.created': {
        const [row] = (await this.filings.list({}, { direction: 'desc', limit: 1 })).rows;
        return row ? toFiling(row) : FILING_SAMPLE;
      }
      case 'form4.filed': {
        const accession = await this.insiders.newestFilingAccession();
        const filing = accession ? await this.insiders.findFiling(accession) : null;
        return filing ? toForm4Filing(filing, await this.insiders.listByAccession(filing.accession)) : FORM4_SAMPLE;
      }
      case 'ir_document.created': {
        const [row] = (await this.documents.list({}, { direction: 'desc', limit: 1 })).rows;
        return row ? toDocumentDetail(row) : DOCUMENT_SAMPLE;
      }
      case 'transcript.published': {
        const newest = await this.transcripts.newest();
        return newest ? toTranscriptDetail(newest) : TRANSCRIPT_SAMPLE;
      }
      case '13f.filed':
        // The institutional read side can serve the newest filing here once its repository has a read for it.
        return THIRTEENF_SAMPLE;
    }
  }
}
