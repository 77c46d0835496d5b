import { poolOf } from './pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { EXPOSURE_ASSET_CATEGORIES } from '../funds/funds.table';
import type { IrSiteRecord } from '../ir-sites/ir-sites.table';

/** What one issuer's rows of each read model add up to (read model, camelCase; not an API shape). */
export interface CompanyCoverageRecord {
  filings: {
    count: number;
    amendments: number;
    /** YYYY-MM-DD (filed_date), null when none. */
    firstDate: string | null;
    latestDate: string | null;
    /** YYYY-MM-DD, the latest report_period. */
    latestReportPeriod: string | null;
    /** Every form type held, most frequent first. */
    forms: Array<{ form: string; count: number }>;
    lastObservedAt: Date | null;
  };
  form4: {
    /** form4_filings rows (Forms 4 and 4/A). */
    filings: number;
    /** Filings with no known filing date (ingested without their EDGAR listing). */
    undatedFilings: number;
    latestFiledDate: string | null;
    /** insider_transactions rows no later 4/A restates (what the insider list shows by default). */
    rows: number;
    supersededRows: number;
    /** YYYY-MM-DD, sort_date of the standing rows (transaction date; a holding: period of report). */
    firstDate: string | null;
    latestDate: string | null;
    lastObservedAt: Date | null;
  };
  segments: {
    count: number;
    derivedQ4: number;
    /** Observations from annual reports (10-K, 10-K/A). */
    annual: number;
    /** Distinct filings (accessions) the observations come from. */
    filings: number;
    /** YYYY-MM-DD (period_end). */
    firstDate: string | null;
    latestDate: string | null;
    /** The newest observation's period (a quarter before a year to date or a year ending the same day). */
    latestPeriod: { endDate: string; kind: string; calendar: string; fiscal: string | null } | null;
    lastObservedAt: Date | null;
  };
  fundExposure: {
    /** Funds with a current common-equity holding of the issuer (the exposure list's fund_count). */
    funds: number;
    etfs: number;
    /** Those holdings (the exposure list's rows, sorted by weight). */
    holdings: number;
    /** Current holdings matched to the issuer that are not exposure (bonds, other asset categories, no weight). */
    otherHoldings: number;
    /** YYYY-MM-DD (report_date, the N-PORT repPdDate) of the exposure holdings. */
    firstDate: string | null;
    latestDate: string | null;
    /** Newest provenance extracted_at of the exposure holdings (fund_holdings keeps no observed_at). */
    lastExtractedAt: Date | null;
    /** Whether any N-PORT filing at all is held (funds is not empty). */
    anyFundHeld: boolean;
  };
  documents: {
    count: number;
    /** Documents whose text (pages) has been extracted. */
    withText: number;
    pages: number;
    docTypes: Array<{ docType: string; count: number }>;
    /** YYYY-MM-DD (UTC) of sort_at, the published_at the documents list serves and sorts on. */
    firstDate: string | null;
    latestDate: string | null;
    /** Newest of the link and text records' observed_at. */
    lastObservedAt: Date | null;
  };
  transcripts: {
    /** First-party call transcripts that passed the serving gate (transcripts rows). */
    count: number;
    /** YYYY-MM-DD (call_date). */
    firstDate: string | null;
    latestDate: string | null;
    /** Newest first_seen_at of those transcripts: when the newest was first projected. */
    lastObservedAt: Date | null;
  };
  rosters: {
    /** One group per (category, source) that has entries. */
    groups: Array<{ category: string; sourceProvider: string; current: number; total: number }>;
    lastObservedAt: Date | null;
  };
  /** Whether the issuer's own description (from its IR pages) is held. */
  hasIssuerDescription: boolean;
  /** Where the issuer's IR site is, or why none was crawled; null until the IR crawler has decided. */
  irSite: IrSiteRecord | null;
}

interface CoverageRow {
  filings_count: number;
  filings_amendments: number;
  filings_first: string | null;
  filings_latest: string | null;
  filings_latest_report_period: string | null;
  filings_observed: Date | null;
  filings_forms: Array<{ form: string; count: number }>;
  form4_filings: number;
  form4_undated: number;
  form4_latest_filed: string | null;
  form4_observed: Date | null;
  form4_rows: number;
  form4_superseded: number;
  form4_first: string | null;
  form4_latest: string | null;
  segments_count: number;
  segments_derived: number;
  segments_annual: number;
  segments_filings: number;
  segments_first: string | null;
  segments_latest: string | null;
  segments_observed: Date | null;
  segments_latest_end: string | null;
  segments_latest_kind: string | null;
  segments_latest_calendar: string | null;
  segments_latest_fiscal: string | null;
  exposure_funds: number;
  exposure_etfs: number;
  exposure_holdings: number;
  exposure_other: number;
  exposure_first: string | null;
  exposure_latest: string | null;
  exposure_extracted: Date | null;
  any_fund: boolean;
  documents_count: number;
  documents_with_text: number;
  documents_pages: number;
  documents_first: string | null;
  documents_latest: string | null;
  documents_observed: Date | null;
  documents_types: Array<{ docType: string; count: number }>;
  transcripts_count: number;
  transcripts_first: string | null;
  transcripts_latest: string | null;
  transcripts_observed: Date | null;
  roster_groups: Array<{ category: string; sourceProvider: string; current: number; total: number }>;
  roster_observed: Date | null;
  has_description: boolean;
  ir_site_status: IrSiteRecord['status'] | null;
  ir_site_source: IrSiteRecord['source'];
  ir_site_landing_url: string | null;
  ir_site_detail: string | null;
  ir_site_checked_at: Date | null;
}

const DAY = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`;

/*
 * One statement, one round trip: a single-row aggregate per read model, each restricted by the
 * issuer's CIK on the leading column of an index (filings_cik_filed_date_accession_idx,
 * form4_filings_family_idx, insider_transactions_keyset_idx, segment_observations_keyset_idx,
 * fund_holdings_exposure_weight_idx, documents_cik_sort_idx, transcripts_cik_sort_idx, roster_entries_list_idx; ir_sites by its key).
 * $1 cik, $2 the day since which an SEC roster entry is current, $3 the exposure asset categories.
 * The filters are those of each dataset's list endpoint, so the counts are what those lists page through.
 */
const COVERAGE_SQL = `
  SELECT fi.*, ff.*, f4.*, it.*, se.*, sl.*, fe.*, af.*, dc.*, dt.*, tr.*, ro.*, rl.*, cd.*, irs.*
  FROM
    (SELECT count(*)::int AS filings_count, count(*) FILTER (WHERE is_amendment)::int AS filings_amendments,
            ${DAY('min(filed_date)')} AS filings_first, ${DAY('max(filed_date)')} AS filings_latest,
            ${DAY('max(report_period)')} AS filings_latest_report_period, max(observed_at) AS filings_observed
       FROM filings WHERE cik = $1) fi
    CROSS JOIN
    (SELECT coalesce(jsonb_agg(jsonb_build_object('form', form, 'count', n) ORDER BY n DESC, form), '[]'::jsonb) AS filings_forms
       FROM (SELECT form, count(*)::int AS n FROM filings WHERE cik = $1 GROUP BY form) x) ff
    CROSS JOIN
    (SELECT count(*)::int AS form4_filings, count(*) FILTER (WHERE filed_date IS NULL)::int AS form4_undated,
            ${DAY('max(filed_date)')} AS form4_latest_filed, max(observed_at) AS form4_observed
       FROM form4_filings WHERE cik = $1) f4
    CROSS JOIN
    (SELECT count(*) FILTER (WHERE superseded_by IS NULL)::int AS form4_rows,
            count(*) FILTER (WHERE superseded_by IS NOT NULL)::int AS form4_superseded,
            ${DAY('min(sort_date) FILTER (WHERE superseded_by IS NULL)')} AS form4_first,
            ${DAY('max(sort_date) FILTER (WHERE superseded_by IS NULL)')} AS form4_latest
       FROM insider_transactions WHERE cik = $1) it
    CROSS JOIN
    (SELECT count(*)::int AS segments_count, count(*) FILTER (WHERE tier = 'derived_q4')::int AS segments_derived,
            count(*) FILTER (WHERE form LIKE '10-K%')::int AS segments_annual, count(DISTINCT accession)::int AS segments_filings,
            ${DAY('min(period_end)')} AS segments_first, ${DAY('max(period_end)')} AS segments_latest, max(observed_at) AS segments_observed
       FROM segment_observations WHERE cik = $1) se
    LEFT JOIN LATERAL
    (SELECT ${DAY('period_end')} AS segments_latest_end, period_kind AS segments_latest_kind,
            period_calendar AS segments_latest_calendar, period_fiscal AS segments_latest_fiscal
       FROM segment_observations WHERE cik = $1
      ORDER BY period_end DESC, (period_kind = 'quarter') DESC, (tier = 'verified') DESC, record_key
      LIMIT 1) sl ON true
    CROSS JOIN
    (SELECT count(DISTINCT fund_key) FILTER (WHERE exposure)::int AS exposure_funds,
            count(DISTINCT fund_key) FILTER (WHERE exposure AND is_etf)::int AS exposure_etfs,
            count(*) FILTER (WHERE exposure)::int AS exposure_holdings,
            count(*) FILTER (WHERE NOT exposure)::int AS exposure_other,
            ${DAY('min(report_date) FILTER (WHERE exposure)')} AS exposure_first,
            ${DAY('max(report_date) FILTER (WHERE exposure)')} AS exposure_latest,
            max(extracted_at) FILTER (WHERE exposure) AS exposure_extracted
       FROM (SELECT h.fund_key, f.is_etf, h.report_date, (h.provenance->>'extracted_at')::timestamptz AS extracted_at,
                    coalesce(h.asset_cat = ANY($3::text[]) AND h.pct_val IS NOT NULL, false) AS exposure
               FROM fund_holdings h JOIN funds f ON f.fund_key = h.fund_key
              WHERE h.match_cik = $1 AND h.is_current) x) fe
    CROSS JOIN
    (SELECT EXISTS (SELECT 1 FROM funds) AS any_fund) af
    CROSS JOIN
    (SELECT count(*)::int AS documents_count, count(*) FILTER (WHERE text_content_hash IS NOT NULL)::int AS documents_with_text,
            coalesce(sum(page_count), 0)::int AS documents_pages,
            ${DAY(`min(sort_at) AT TIME ZONE 'UTC'`)} AS documents_first, ${DAY(`max(sort_at) AT TIME ZONE 'UTC'`)} AS documents_latest,
            greatest(max(link_observed_at), max(text_observed_at)) AS documents_observed
       FROM documents WHERE cik = $1) dc
    CROSS JOIN
    (SELECT coalesce(jsonb_agg(jsonb_build_object('docType', doc_group, 'count', n) ORDER BY n DESC, doc_group), '[]'::jsonb) AS documents_types
       FROM (SELECT doc_group, count(*)::int AS n FROM documents WHERE cik = $1 GROUP BY doc_group) x) dt
    CROSS JOIN
    (SELECT count(*)::int AS transcripts_count, ${DAY('min(call_date)')} AS transcripts_first, ${DAY('max(call_date)')} AS transcripts_latest,
            max(first_seen_at) AS transcripts_observed
       FROM transcripts WHERE cik = $1) tr
    CROSS JOIN
    (SELECT coalesce(jsonb_agg(jsonb_build_object('category', category, 'sourceProvider', source_provider, 'current', cur, 'total', n)
                               ORDER BY category, source_provider), '[]'::jsonb) AS roster_groups
       FROM (SELECT category, source_provider, count(*)::int AS n,
                    -- current as the roster list decides it: an SEC entry also needs a recent Form 4 (roster.repository IS_CURRENT)
                    count(*) FILTER (WHERE is_current AND (source_provider <> 'sec' OR coalesce(last_filed_at >= $2::date, false)))::int AS cur
               FROM roster_entries WHERE cik = $1 GROUP BY category, source_provider) x) ro
    CROSS JOIN
    (SELECT max(record_observed_at) AS roster_observed FROM roster_entries WHERE cik = $1) rl
    CROSS JOIN
    (SELECT EXISTS (SELECT 1 FROM company_descriptions WHERE cik = $1) AS has_description) cd
    LEFT JOIN LATERAL
    (SELECT status AS ir_site_status, source AS ir_site_source, landing_url AS ir_site_landing_url, detail AS ir_site_detail,
            checked_at AS ir_site_checked_at
       FROM ir_sites WHERE cik = $1) irs ON true`;

/** Coverage of one issuer: counts, date ranges and ingestion times of every read model, in one statement. */
export class CoverageRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  /** `currentSince`: YYYY-MM-DD, an SEC roster entry is current only if filed as officer or director on or after it. */
  async forIssuer(cik: string, currentSince: string): Promise<CompanyCoverageRecord> {
    const result = await this.pool.query<CoverageRow>({ name: 'coverage_by_cik', text: COVERAGE_SQL, values: [cik, currentSince, EXPOSURE_ASSET_CATEGORIES] });
    const r = result.rows[0]!;
    return {
      filings: {
        count: r.filings_count,
        amendments: r.filings_amendments,
        firstDate: r.filings_first,
        latestDate: r.filings_latest,
        latestReportPeriod: r.filings_latest_report_period,
        forms: r.filings_forms,
        lastObservedAt: r.filings_observed,
      },
      form4: {
        filings: r.form4_filings,
        undatedFilings: r.form4_undated,
        latestFiledDate: r.form4_latest_filed,
        rows: r.form4_rows,
        supersededRows: r.form4_superseded,
        firstDate: r.form4_first,
        latestDate: r.form4_latest,
        lastObservedAt: r.form4_observed,
      },
      segments: {
        count: r.segments_count,
        derivedQ4: r.segments_derived,
        annual: r.segments_annual,
        filings: r.segments_filings,
        firstDate: r.segments_first,
        latestDate: r.segments_latest,
        latestPeriod:
          r.segments_latest_end !== null
            ? { endDate: r.segments_latest_end, kind: r.segments_latest_kind!, calendar: r.segments_latest_calendar!, fiscal: r.segments_latest_fiscal }
            : null,
        lastObservedAt: r.segments_observed,
      },
      fundExposure: {
        funds: r.exposure_funds,
        etfs: r.exposure_etfs,
        holdings: r.exposure_holdings,
        otherHoldings: r.exposure_other,
        firstDate: r.exposure_first,
        latestDate: r.exposure_latest,
        lastExtractedAt: r.exposure_extracted,
        anyFundHeld: r.any_fund,
      },
      documents: {
        count: r.documents_count,
        withText: r.documents_with_text,
        pages: r.documents_pages,
        docTypes: r.documents_types,
        firstDate: r.documents_first,
        latestDate: r.documents_latest,
        lastObservedAt: r.documents_observed,
      },
      transcripts: { count: r.transcripts_count, firstDate: r.transcripts_first, latestDate: r.transcripts_latest, lastObservedAt: r.transcripts_observed },
      rosters: { groups: r.roster_groups, lastObservedAt: r.roster_observed },
      hasIssuerDescription: r.has_description,
      irSite:
        r.ir_site_status !== null
          ? { status: r.ir_site_status, source: r.ir_site_source, landingUrl: r.ir_site_landing_url, detail: r.ir_site_detail, checkedAt: r.ir_site_checked_at! }
          : null,
    };
  }
}
