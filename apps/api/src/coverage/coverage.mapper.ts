import type { CompanyCoverageRecord } from '@app/persistence';
import type { CompanyCoverage } from './coverage.service';
import type { CoverageBody, GapBody, GapCode, RosterCategoryBody } from './coverage.schemas';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const gap = (code: GapCode, detail: string): GapBody => ({ code, detail });
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

const IR_SITE_NOT_CONFIGURED = gap(
  'ir_site_not_configured',
  "No IR roster or documents held: the issuer's IR site is not configured or not yet crawled (this service cannot tell which).",
);

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
        : IR_SITE_NOT_CONFIGURED,
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
  if (!issuerSite) rosterGaps.push(IR_SITE_NOT_CONFIGURED);
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
    gaps,
  };
}
