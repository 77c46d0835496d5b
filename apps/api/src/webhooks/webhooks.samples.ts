import type { DataSource } from 'typeorm';
import { DocumentsRepository, FilingsRepository, InsiderTransactionsRepository, TranscriptsRepository } from '@app/persistence';
import { toForm4Filing } from '@app/resources';
import { toDocumentDetail } from '../documents/documents.mapper';
import { toFiling } from '../filings/filings.mapper';
import { toTranscriptDetail } from '../transcripts/transcripts.mapper';
import type { TranscriptDetailBody } from '../transcripts/transcripts.schemas';
import type { WebhookTopic } from './webhooks.schemas';

/*
 * Built-in samples, used only while the read models hold nothing of that kind: real values from
 * the fixture records (the MSFT 10-K of 2025-07-30, Reid Hoffman's Form 4 of 2024-09-13, the FRP
 * Holdings investor presentation of September 2017, the Citigroup Q4 2024 earnings call), in the
 * shape the API serves.
 */
const FILING_SAMPLE = {
  accession: '0000950170-25-100235',
  cik: '0000789019',
  company_name: 'MICROSOFT CORP',
  form: '10-K',
  filed_date: '2025-07-30',
  accepted_at: '2025-07-30T20:11:40.000Z',
  report_period: '2025-06-30',
  primary_document_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017025100235/msft-20250630.htm',
  description: '10-K',
  items: [],
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
  issuer: { cik: '0000789019', name: 'MICROSOFT CORP', trading_symbol: 'MSFT' },
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

const DOCUMENT_SAMPLE = {
  id: 1,
  ticker: 'FRPH',
  title: 'FRP Holdings Inc. Investor Presentation September 2017',
  doc_type: 'slide_deck',
  doc_group: 'slide_deck',
  language: 'en',
  published_at: '2017-09-28T00:00:00.000Z',
  published_at_source: 'ir_page',
  pages: null,
  event_id: null,
  url: 'http://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf',
  kind: 'presentation',
  found_on: 'http://www.frpholdings.com/investor-relations.html',
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
 * The Citigroup Q4 2024 call as ingest-decks splits the fixture PDF (its example record; the source
 * page of the PDF is not recorded, hence the .example host), with its first two turns only: a
 * real event carries every turn.
 */
const TRANSCRIPT_SAMPLE = {
  "id": 1,
  "document_id": 1,
  "ticker": "C",
  "call": {
    "company": "Citi",
    "title": "Citi Fourth Quarter 2024 Earnings Call",
    "date": "2025-01-15",
    "date_source": "document"
  },
  "language": "en",
  "pages": 16,
  "participant_count": 13,
  "turn_count": 59,
  "url": "http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf",
  "provenance": {
    "src_id": "src_7689a370a6f03d07c50bb95f",
    "source_provider": "issuer_page",
    "source_url": "http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf",
    "citation_url": "http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf",
    "accession": null,
    "quote": "OPERATOR: Hello and welcome to Citi's Fourth Quarter 2024 Earnings Call. Today's call will be hosted by",
    "content_hash": "sha256:a97aef563212971586becdfba88b497fa50d84729872a297309cd8805715a293",
    "extracted_at": "2026-11-20T09:00:02.000Z"
  },
  "participants": [
    {
      "name": "Jennifer Landis",
      "role": "Head of Citi Investor Relations",
      "firm": null,
      "kind": "company",
      "listed": true,
      "quote": "Jennifer Landis, Head of Citi Investor Relations"
    },
    {
      "name": "Jane Fraser",
      "role": "Citi Chief Executive Officer",
      "firm": null,
      "kind": "company",
      "listed": true,
      "quote": "Jane Fraser, Citi Chief Executive Officer"
    },
    {
      "name": "Mark Mason",
      "role": "Citi Chief Financial Officer",
      "firm": null,
      "kind": "company",
      "listed": true,
      "quote": "Mark Mason, Citi Chief Financial Officer"
    },
    {
      "name": "Operator",
      "role": null,
      "firm": null,
      "kind": "operator",
      "listed": false,
      "quote": null
    },
    {
      "name": "Jim Mitchell",
      "role": null,
      "firm": "Seaport Global",
      "kind": "analyst",
      "listed": false,
      "quote": "Our first question will come from Jim Mitchell with Seaport Global."
    },
    {
      "name": "John McDonald",
      "role": null,
      "firm": "Truist Securities",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question comes from the line of John McDonald with Truist Securities."
    },
    {
      "name": "Mike Mayo",
      "role": null,
      "firm": "Wells Fargo",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question will come from Mike Mayo with Wells Fargo."
    },
    {
      "name": "Betsy Graseck",
      "role": null,
      "firm": "Morgan Stanley",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question will come from the line of Betsy Graseck with Morgan Stanley."
    },
    {
      "name": "Ebrahim Poonawala",
      "role": null,
      "firm": "Bank America",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question will come from the line of Ebrahim Poonawala with Bank America."
    },
    {
      "name": "Erika Najarian",
      "role": null,
      "firm": "UBS",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question comes from the line of Erika Najarian with UBS."
    },
    {
      "name": "Gerard Cassidy",
      "role": null,
      "firm": "RBC Capital Markets",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question will come from Gerard Cassidy with RBC Capital Markets."
    },
    {
      "name": "Matt O'Connor",
      "role": null,
      "firm": "Deutsche Bank",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question comes from the line of Matt O'Connor with Deutsche Bank."
    },
    {
      "name": "Saul Martinez",
      "role": null,
      "firm": "HSBC",
      "kind": "analyst",
      "listed": false,
      "quote": "Our next question comes from the line of Saul Martinez with HSBC."
    }
  ],
  "sections": {
    "presentation": 4,
    "qa": 55
  },
  "turns": [
    {
      "index": 0,
      "speaker": "Operator",
      "participant_index": 3,
      "label": "OPERATOR",
      "section": "presentation",
      "label_start": 235,
      "char_start": 245,
      "char_end": 700,
      "page_index": 0,
      "last_page_index": 0,
      "text": "Hello and welcome to Citi's Fourth Quarter 2024 Earnings Call. Today's call will be hosted by\nJenn Landis, Head of Citi Investor Relations. We ask that you please hold all questions until the completion\nof the formal remarks at which time you will be given instructions for the question-and-answer session.\nAlso, as a reminder, this conference is being recorded today. If you have any objections, please disconnect\nat this time.\nMs. Landis, you may begin.",
      "quote": "OPERATOR: Hello and welcome to Citi's Fourth Quarter 2024 Earnings Call. Today's call will be hosted by",
      "citation_url": "http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf#page=1"
    },
    {
      "index": 1,
      "speaker": "Jennifer Landis",
      "participant_index": 0,
      "label": "JENNIFER LANDIS",
      "section": "presentation",
      "label_start": 701,
      "char_start": 718,
      "char_end": 1407,
      "page_index": 0,
      "last_page_index": 0,
      "text": "Thank you, operator. Good morning and thank you all for joining our fourth quarter\n2024 earnings call. I am joined today by our Chief Executive Officer, Jane Fraser, and our Chief Financial\nOfficer, Mark Mason.\nI'd like to remind you that today's presentation, which is available for download on our website,\ncitigroup.com, may contain forward-looking statements which are based on management's current\nexpectations and are subject to uncertainty and changes in circumstances. Actual results may differ\nmaterially from these statements due to a variety of factors, including those described in our earnings\nmaterials as well as in our SEC filings.\nAnd with that, I'll turn it over to Jane.",
      "quote": "JENNIFER LANDIS: Thank you, operator. Good morning and thank you all for joining our fourth quarter",
      "citation_url": "http://ir.citigroup.example/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf#page=1"
    }
  ]
} satisfies TranscriptDetailBody;

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
        const [row] = await this.filings.list({ filter: {}, direction: 'desc', limit: 1 });
        return row ? toFiling(row) : FILING_SAMPLE;
      }
      case 'form4.filed': {
        const accession = await this.insiders.newestFilingAccession();
        const filing = accession ? await this.insiders.findFiling(accession) : null;
        return filing ? toForm4Filing(filing, await this.insiders.listByAccession(filing.accession)) : FORM4_SAMPLE;
      }
      case 'ir_document.created': {
        const [row] = await this.documents.list({ filter: {}, direction: 'desc', limit: 1 });
        return row ? toDocumentDetail(row) : DOCUMENT_SAMPLE;
      }
      case 'transcript.published': {
        const newest = await this.transcripts.newest();
        return newest ? toTranscriptDetail(newest) : TRANSCRIPT_SAMPLE;
      }
    }
  }
}
