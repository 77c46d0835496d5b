import { z } from 'zod';
import { IR_SITE_SOURCES, IR_SITE_STATUSES } from '@app/contracts';
import type { CompanyCoverageRecord, CompanyRecord } from '@app/persistence';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { dateField, dateTimeField } from './shared.resource';

/** What the service holds for one company, as read now: the input of toCoverage. */
export interface CompanyCoverage {
  company: CompanyRecord;
  record: CompanyCoverageRecord;
  /** The executives roster as the executives endpoint serves it: one entry per person across sources. */
  executives: { current: number; total: number };
  generatedAt: Date;
}

const gapsSchema = z.array(gapSchema).describe('Known gaps of this dataset for the company; empty when none is known');

const day = (what: string) => dateField().nullable().describe(`${what}: YYYY-MM-DD, null when nothing is held`);

const INGESTED =
  'When the ingestor fetched the source of the most recently written row of this dataset for the company (ISO 8601, UTC): the rows\' observed_at. ' +
  'A row is rewritten only when its content changes, so a later crawl that found nothing new does not move this time: it is the last ingestion ' +
  'that brought something new, a lower bound of the last successful crawl. Null when nothing is held';

const lastIngested = dateTimeField().nullable().describe(INGESTED);

const formTallySchema = z.object({
  form: z.string().describe('Form type as EDGAR lists it (10-K, 8-K, 4, ...)'),
  count: z.number().int().describe('Filings of this form type'),
});

const docTypeTallySchema = z.object({
  doc_type: z.string().describe('The documents\' doc_type: press_release, slide_deck, transcript, report, other'),
  count: z.number().int().describe('Documents of this type'),
});

const filingsCoverageSchema = z
  .object({
    count: z.number().int().describe("EDGAR filings held for the company's issuer: the items GET /v1/companies/{symbol}/filings pages through"),
    amendments: z.number().int().describe('Of which amendments (form types ending in /A)'),
    first_date: day('Earliest filing date'),
    latest_date: day('Latest filing date'),
    latest_report_period: day('Latest period of report (the period end a periodic filing covers)'),
    forms: z.array(formTallySchema).describe('Every form type held, most frequent first (ties by form)'),
    last_ingested_at: lastIngested,
    gaps: gapsSchema,
  })
  .describe('EDGAR filings (submissions JSON backfill, daily index and current feed)');

const form4CoverageSchema = z
  .object({
    count: z
      .number()
      .int()
      .describe('Rows of Tables I and II the insider list shows by default (GET /v1/companies/{symbol}/insiders): rows a later 4/A restates are left out'),
    superseded: z.number().int().describe('Rows a later 4/A restates (listed only with include_superseded=true)'),
    filings: z.number().int().describe('Forms 4 and 4/A filed on the issuer that are held'),
    first_date: day("Earliest row date (the insider list's sort key: the transaction date; a holding: the period of report)"),
    latest_date: day('Latest row date (transaction date; a holding: the period of report)'),
    latest_filed_date: day('Latest filing date among the filings whose filing date is known (see form4_filed_date_unknown)'),
    last_ingested_at: lastIngested,
    gaps: gapsSchema,
  })
  .describe('Form 4 / 4/A insider transactions and holdings filed on the issuer');

const segmentsCoverageSchema = z
  .object({
    count: z.number().int().describe('Segment observations: the items GET /v1/companies/{symbol}/segments pages through'),
    derived_q4: z.number().int().describe('Of which fourth quarters derived from annual minus nine-month figures (tier derived_q4)'),
    filings: z.number().int().describe('Distinct 10-Q / 10-K filings the observations come from'),
    first_date: day('Earliest period end'),
    latest_date: day('Latest period end'),
    latest_period: z
      .object({
        end_date: dateField().describe('YYYY-MM-DD'),
        kind: z.string().describe('quarter, ytd or annual (a quarter is preferred when several end the same day)'),
        calendar: z.string().describe('Calendar label, e.g. 2025-Q2'),
        fiscal: z.string().nullable().describe("The issuer's fiscal label, e.g. FY2025-Q3; null when its fiscal year is unknown"),
      })
      .nullable()
      .describe('The newest period observed; null when nothing is held'),
    last_ingested_at: lastIngested,
    gaps: gapsSchema,
  })
  .describe('Segment revenue and operating income from the inline XBRL of 10-Q and 10-K filings');

const fundExposureCoverageSchema = z
  .object({
    count: z.number().int().describe('Funds with a current holding of the issuer\'s common equity: fund_count of GET /v1/companies/{symbol}/fund-exposure'),
    etfs: z.number().int().describe('Of which exchange-traded funds (fund_count with etfs_only=true)'),
    holdings: z.number().int().describe('Those holdings: the items the fund-exposure list pages through (default sort, weight)'),
    first_date: day("Earliest report period end (N-PORT repPdDate) of those holdings: each fund's latest complete report"),
    latest_date: day('Latest report period end (N-PORT repPdDate) of those holdings'),
    last_ingested_at: dateTimeField()
      .nullable()
      .describe(
        'When the newest of those holdings was extracted by the ingestor (ISO 8601, UTC): their provenance extracted_at, stamped right after the ' +
          'N-PORT filing was fetched (holdings keep no observed_at). Unchanged holdings are not rewritten, so it is a lower bound of the last ' +
          'successful crawl. Null when nothing is held',
      ),
    gaps: gapsSchema,
  })
  .describe('Holdings of the issuer reported by funds in their latest complete N-PORT filing (alpha, as the fund-exposure endpoint)');

const documentsCoverageSchema = z
  .object({
    count: z.number().int().describe("Investor-relations documents of the issuer: the items GET /v1/documents?symbols={symbol} pages through"),
    with_text: z.number().int().describe('Of which documents whose text has been extracted (pages available)'),
    pages: z.number().int().describe('Pages of those documents'),
    doc_types: z.array(docTypeTallySchema).describe('Documents per doc_type, most frequent first'),
    first_date: day("Earliest published_at (UTC day; published_at_source says whether it is the IR page's date, the PDF's or the first sighting)"),
    latest_date: day('Latest published_at (UTC day)'),
    last_ingested_at: dateTimeField()
      .nullable()
      .describe(`${INGESTED}. Here the newest of a document's link (IR page crawl) and text (PDF fetch) ingestions`),
    gaps: gapsSchema,
  })
  .describe("Documents linked from the issuer's IR pages (slide decks, press releases, reports) and their extracted text");

const transcriptsCoverageSchema = z
  .object({
    count: z.number().int().describe("First-party call transcripts of the issuer: the items GET /v1/transcripts?symbols={symbol} pages through"),
    first_date: day('Earliest call date'),
    latest_date: day('Latest call date'),
    last_ingested_at: dateTimeField().nullable().describe(`${INGESTED}. Here when the newest transcript was first projected`),
    gaps: gapsSchema,
  })
  .describe("Earnings-call transcripts the issuer published on its IR site that passed the serving gate (a look-alike that did not stays a document)");

const rosterCategorySchema = z.object({
  count: z
    .number()
    .int()
    .describe('Current entries, as GET /v1/companies/{symbol}/executives?category=<category> lists them (no limit applied); executives: one per person across sources'),
  total: z.number().int().describe('Entries including people no longer current (current_only=false)'),
  by_source: z
    .object({
      issuer_page: z.number().int().describe("Current entries from the issuer's IR pages"),
      sec: z.number().int().describe('Current entries from Forms 4 (reporting owners filed as officer or director; executives only)'),
    })
    .describe('Current entries per source before one person known to both is merged: for executives, count can be less than the sum'),
});

const rostersCoverageSchema = z
  .object({
    count: z.number().int().describe('Current entries of the three categories together'),
    executives: rosterCategorySchema.describe('Executives and directors'),
    ir: rosterCategorySchema.describe('Investor-relations contacts'),
    analysts: rosterCategorySchema.describe('Research analysts covering the company'),
    last_ingested_at: dateTimeField()
      .nullable()
      .describe(`${INGESTED}. Here the observed_at of the record (an IR page crawl or a Form 4) that last changed an entry`),
    gaps: gapsSchema,
  })
  .describe("People: executives, IR contacts and analysts from the issuer's IR pages, and officers and directors from Forms 4");

const irSiteSchema = z
  .object({
    status: z
      .enum(IR_SITE_STATUSES)
      .describe(
        'found: the IR landing page was read; no_website: SEC lists no website (nor the operator); robots_disallowed: robots.txt forbids the page needed; ' +
          'no_ir_page: the homepage links no IR page; fetch_failed: the page did not load',
      ),
    source: z
      .enum(IR_SITE_SOURCES)
      .nullable()
      .describe(
        "Where the site came from: the operator's IR registry, SEC's investorWebsite, the IR website the issuer's newest 10-K names (Item 1), " +
          "or SEC's website (its homepage searched for the IR link); null for no_website",
      ),
    landing_url: z.string().nullable().describe('The IR landing page crawled (or the one that failed); null when none was found'),
    detail: z.string().nullable().describe('Why, for every status but found'),
    checked_at: dateTimeField().describe('When the crawler decided this outcome (ISO 8601, UTC); an unchanged outcome is not re-recorded'),
  })
  .nullable()
  .describe("The issuer's IR site as the IR crawler found it, or why it holds no IR documents or contacts; null when the crawler has not decided yet");

export const coverageSchema = z.object({
  symbol: z.string().describe('<TICKER>:<MARKET>'),
  cik: z.string().describe("10-digit zero-padded SEC CIK: every dataset is held per issuer, so a company's listings share it"),
  name: z.string(),
  generated_at: dateTimeField().describe('When this summary was computed (ISO 8601, UTC); it reads the data as it stands, nothing is cached'),
  datasets: z.object({
    filings: filingsCoverageSchema,
    form4: form4CoverageSchema,
    segments: segmentsCoverageSchema,
    fund_exposure: fundExposureCoverageSchema,
    documents: documentsCoverageSchema,
    transcripts: transcriptsCoverageSchema,
    rosters: rostersCoverageSchema,
  }),
  ir_site: irSiteSchema,
  gaps: gapsSchema.describe('Gaps of the company as a whole (not_covered: no dataset holds anything for it)'),
});

export type CoverageBody = z.infer<typeof coverageSchema>;
export type RosterCategoryBody = z.infer<typeof rosterCategorySchema>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type Rosters = CompanyCoverageRecord['rosters'];

function rosterCounts(rosters: Rosters, category: string): { current: number; total: number; issuerPage: number; sec: number } {
  const groups = rosters.groups.filter((g) => g.category === category);
  const of = (source: string) => groups.filter((g) => g.sourceProvider === source).reduce((n, g) => n + g.current, 0);
  return {
    current: groups.reduce((n, g) => n + g.current, 0),
    total: groups.reduce((n, g) => n + g.total, 0),
    issuerPage: of('issuer_page'),
    sec: of('sec'),
  };
}

/** Whether anything from the issuer's own IR site is held: its description, a roster it lists, a document it links. */
function hasIssuerSiteData(r: CompanyCoverageRecord): boolean {
  return r.hasIssuerDescription || r.documents.count > 0 || r.rosters.groups.some((g) => g.sourceProvider === 'issuer_page' && g.total > 0);
}

/** Why nothing from the issuer's IR site is held: the crawler's outcome when there is one. */
function irSiteNotConfigured(site: CompanyCoverageRecord['irSite']): GapBody {
  const why = site ? `the IR site crawler's outcome is ${site.status}${site.detail ? `: ${site.detail}` : ''}` : "the issuer's IR site has not been found or crawled yet";
  return gap('ir_site_not_configured', `No IR roster or documents held: ${why} (see ir_site).`);
}

/** Read model -> the coverage response, with a gap for every dataset that is empty or partial. Pure. */
export function toCoverage(c: CompanyCoverage): CoverageBody {
  const { company, record: r } = c;
  const isFund = company.isFund || company.isEtf || company.secDetail?.is_fund === true;
  const issuerSite = hasIssuerSiteData(r);

  const filingsGaps: GapBody[] = [];
  if (r.filings.count === 0) {
    filingsGaps.push(
      gap('no_filings', 'No EDGAR filing of this issuer has been ingested (filings come from its SEC submissions JSON and the daily EDGAR index and current feed).'),
    );
  }

  const form4Gaps: GapBody[] = [];
  if (r.form4.filings === 0) {
    form4Gaps.push(
      gap('no_form4_filings', 'No Form 4 or 4/A filed on this issuer has been ingested: none has been filed, or the issuer is outside the Form 4 ingestion.'),
    );
  } else if (r.form4.undatedFilings > 0) {
    form4Gaps.push(
      gap(
        'form4_filed_date_unknown',
        `${r.form4.undatedFilings} of ${plural(r.form4.filings, 'filing')} held ${r.form4.undatedFilings === 1 ? 'was ingested without its EDGAR listing, so its' : 'were ingested without their EDGAR listing, so their'} ` +
          'filing date is unknown; latest_filed_date covers only the filings whose date is known.',
      ),
    );
  }

  const segmentsGaps: GapBody[] = [];
  if (r.segments.count === 0) {
    segmentsGaps.push(
      isFund
        ? gap('not_applicable_to_funds', 'Funds and ETFs report no operating segments.')
        : gap(
            'no_segments_reported',
            'No segment figures held: no 10-Q or 10-K inline XBRL of this issuer has been ingested, or its filings tag no revenue or operating income ' +
              'by business segment, product or service, or geography on their own.',
          ),
    );
  } else if (r.segments.annual === 0) {
    segmentsGaps.push(
      gap('no_annual_segments', 'Only quarterly reports (10-Q) are held: annual figures and derived fourth quarters (tier derived_q4) are unavailable.'),
    );
  }

  const fe = r.fundExposure;
  const exposureGaps: GapBody[] = [];
  if (fe.funds === 0) {
    if (!fe.anyFundHeld) {
      exposureGaps.push(gap('no_nport_filings', 'No N-PORT filing has been ingested by this service yet, so no fund holder can be shown.'));
    } else {
      const others =
        fe.otherHoldings > 0
          ? ` ${plural(fe.otherHoldings, 'current holding')} of its other securities (bonds, other asset categories) ${fe.otherHoldings === 1 ? 'is' : 'are'} held but not counted as exposure.`
          : '';
      exposureGaps.push(gap('no_nport_holders', `No N-PORT filer held by this service reports a current holding of this issuer's common equity.${others}`));
    }
  }

  const documentsGaps: GapBody[] = [];
  if (r.documents.count === 0) {
    documentsGaps.push(
      issuerSite
        ? gap('no_ir_documents', "The issuer's IR pages have been crawled, but no slide deck, press release or report was found linked from them.")
        : irSiteNotConfigured(r.irSite),
    );
  } else if (r.documents.withText < r.documents.count) {
    const pending = r.documents.count - r.documents.withText;
    documentsGaps.push(
      gap(
        'document_text_pending',
        `${pending} of the ${plural(r.documents.count, 'document')} ${pending === 1 ? 'is' : 'are'} known by ${pending === 1 ? 'its link' : 'their links'} only: ` +
          'the text has not been extracted yet (pages null, no pages to read).',
      ),
    );
  }

  const transcriptsGaps: GapBody[] = [];
  if (r.transcripts.count === 0) {
    const documents = r.documents.count === 0 ? 'no IR document is held' : `none of its ${plural(r.documents.count, 'IR document')} is a call transcript that passed the serving gate`;
    transcriptsGaps.push(gap('no_transcripts', `No first-party call transcript held: ${documents} (a look-alike that failed the gate stays a document, with the reason).`));
  }

  const exec = rosterCounts(r.rosters, 'executives');
  const ir = rosterCounts(r.rosters, 'ir');
  const analysts = rosterCounts(r.rosters, 'analysts');
  const rosterGaps: GapBody[] = [];
  if (!issuerSite) rosterGaps.push(irSiteNotConfigured(r.irSite));
  if (c.executives.current === 0) {
    const former = c.executives.total > 0 ? ` ${plural(c.executives.total, 'person', 'people')} held ${c.executives.total === 1 ? 'is' : 'are'} no longer current.` : '';
    rosterGaps.push(
      gap(
        'no_current_executives',
        `No current executive held: ${issuerSite ? "the issuer's IR pages, as crawled, list none" : "nothing from the issuer's IR pages is held"} ` +
          `and no Form 4 of the last 18 months shows an officer or director.${former}`,
      ),
    );
  }
  if (issuerSite && ir.current === 0) rosterGaps.push(gap('no_ir_contacts', "The issuer's IR pages, as crawled, list no current investor-relations contact."));
  if (issuerSite && analysts.current === 0) rosterGaps.push(gap('no_analysts', "The issuer's IR pages, as crawled, list no analyst covering the company."));
  const category = (counts: ReturnType<typeof rosterCounts>, merged?: { current: number; total: number }): RosterCategoryBody => ({
    count: merged?.current ?? counts.current,
    total: merged?.total ?? counts.total,
    by_source: { issuer_page: counts.issuerPage, sec: counts.sec },
  });

  const rosterTotal = exec.total + ir.total + analysts.total;
  const gaps: GapBody[] = [];
  if (r.filings.count + r.form4.filings + r.segments.count + fe.funds + r.documents.count + rosterTotal === 0 && !r.hasIssuerDescription) {
    gaps.push(gap('not_covered', 'This listing is in the reference data, but no dataset holds anything for its issuer yet.'));
  }

  return {
    symbol: company.symbol,
    cik: company.cik,
    name: company.name,
    generated_at: c.generatedAt.toISOString(),
    datasets: {
      filings: {
        count: r.filings.count,
        amendments: r.filings.amendments,
        first_date: r.filings.firstDate,
        latest_date: r.filings.latestDate,
        latest_report_period: r.filings.latestReportPeriod,
        forms: r.filings.forms,
        last_ingested_at: iso(r.filings.lastObservedAt),
        gaps: filingsGaps,
      },
      form4: {
        count: r.form4.rows,
        superseded: r.form4.supersededRows,
        filings: r.form4.filings,
        first_date: r.form4.firstDate,
        latest_date: r.form4.latestDate,
        latest_filed_date: r.form4.latestFiledDate,
        last_ingested_at: iso(r.form4.lastObservedAt),
        gaps: form4Gaps,
      },
      segments: {
        count: r.segments.count,
        derived_q4: r.segments.derivedQ4,
        filings: r.segments.filings,
        first_date: r.segments.firstDate,
        latest_date: r.segments.latestDate,
        latest_period: r.segments.latestPeriod
          ? { end_date: r.segments.latestPeriod.endDate, kind: r.segments.latestPeriod.kind, calendar: r.segments.latestPeriod.calendar, fiscal: r.segments.latestPeriod.fiscal }
          : null,
        last_ingested_at: iso(r.segments.lastObservedAt),
        gaps: segmentsGaps,
      },
      fund_exposure: {
        count: fe.funds,
        etfs: fe.etfs,
        holdings: fe.holdings,
        first_date: fe.firstDate,
        latest_date: fe.latestDate,
        last_ingested_at: iso(fe.lastExtractedAt),
        gaps: exposureGaps,
      },
      documents: {
        count: r.documents.count,
        with_text: r.documents.withText,
        pages: r.documents.pages,
        doc_types: r.documents.docTypes.map((t) => ({ doc_type: t.docType, count: t.count })),
        first_date: r.documents.firstDate,
        latest_date: r.documents.latestDate,
        last_ingested_at: iso(r.documents.lastObservedAt),
        gaps: documentsGaps,
      },
      transcripts: {
        count: r.transcripts.count,
        first_date: r.transcripts.firstDate,
        latest_date: r.transcripts.latestDate,
        last_ingested_at: iso(r.transcripts.lastObservedAt),
        gaps: transcriptsGaps,
      },
      rosters: {
        count: c.executives.current + ir.current + analysts.current,
        executives: category(exec, c.executives),
        ir: category(ir),
        analysts: category(analysts),
        last_ingested_at: iso(r.rosters.lastObservedAt),
        gaps: rosterGaps,
      },
    },
    ir_site: r.irSite
      ? { status: r.irSite.status, source: r.irSite.source, landing_url: r.irSite.landingUrl, detail: r.irSite.detail, checked_at: r.irSite.checkedAt.toISOString() }
      : null,
    gaps,
  };
}
