import { contentHash, recordId, sourceId, stableStringify, type CompanyData, type IrSiteData, type IrSiteRecordV1, type Provenance, type RecordEnvelope, type TenkSectionData } from '@app/contracts';
import { extractTenkIrWebsite } from '@app/edgar';
import { IR_PRODUCED_BY, type MapContext } from './ir.mapper';

/** The source an ir-site@1 outcome was decided on: a page read, or the company record that lists no website. */
export interface IrSiteEvidence {
  provider: Provenance['source_provider'];
  url: string | null;
  contentHash: string | null;
  fetchedAt: string;
  /** The link text the landing page was found by, or the field that was empty. */
  quote: string | null;
}

/**
 * A company as the companies topic lists it: where SEC says its sites are. `record` is the
 * submissions JSON the company record was read from (the evidence of `no_website`).
 */
export interface IrCompany {
  cik: string;
  ticker: string | null;
  name: string;
  investorWebsite: string | null;
  website: string | null;
  /** The IR website its newest 10-K names (tenk-section@1 of Item 1), when one does. */
  tenkIrWebsite: TenkIrWebsiteMention | null;
  record: { url: string | null; contentHash: string | null; observedAt: string };
}

/** The IR website a 10-K's Item 1 names, and that 10-K. */
export interface TenkIrWebsiteMention {
  url: string;
  quote: string;
  accession: string;
  /** The 10-K's period (then filing date): a newer 10-K's mention replaces an older one's. */
  periodEnded: string | null;
  filedDate: string | null;
  documentUrl: string;
  contentHash: string | null;
  observedAt: string;
}

/** Pure: a tenk-section@1 record -> the IR website its Item 1 names; null for other items, no text, or no mention. */
export function tenkIrWebsiteOf(record: RecordEnvelope<TenkSectionData>): TenkIrWebsiteMention | null {
  const d = record.data;
  if (d.item !== '1' || d.text === null) return null;
  const found = extractTenkIrWebsite(d.text);
  if (!found) return null;
  return {
    url: found.url,
    quote: found.quote,
    accession: d.accession,
    periodEnded: d.period_ended,
    filedDate: d.filed_date,
    documentUrl: d.document_url,
    contentHash: record.provenance.content_hash,
    observedAt: record.observed_at,
  };
}

/** Pure: a company@1 record -> the company to find an IR site for; null until its submissions detail is known. */
export function irCompanyOf(record: RecordEnvelope<CompanyData>): IrCompany | null {
  const { data, provenance } = record;
  if (!data.detail) return null;
  return {
    cik: data.cik,
    ticker: data.ticker,
    name: data.name,
    investorWebsite: data.detail.investor_website,
    website: data.detail.website,
    tenkIrWebsite: null,
    record: { url: provenance.source_url, contentHash: provenance.content_hash, observedAt: record.observed_at },
  };
}

/** Pure: why a company without a usable website is not crawled, and the submissions JSON that says so. */
export function noWebsiteOutcome(company: IrCompany): { detail: string; evidence: IrSiteEvidence } {
  const listed = [company.investorWebsite, company.website].filter((w) => w?.trim());
  return {
    detail:
      listed.length > 0
        ? `SEC lists no usable website (${listed.join(', ')} is not a URL) and the IR registry has no entry`
        : 'SEC lists neither investorWebsite nor website, and the IR registry has no entry',
    evidence: { provider: 'sec', url: company.record.url, contentHash: company.record.contentHash, fetchedAt: company.record.observedAt, quote: null },
  };
}

/** What makes two outcomes the same: everything but when it was checked. */
export function irSiteSignature(data: IrSiteData): string {
  const { checked_at: _checkedAt, ...rest } = data;
  return stableStringify(rest);
}

/** Pure: an outcome and its evidence -> the ir-site@1 record (key: CIK). Same outcome, same id. */
export function irSiteRecordOf(data: IrSiteData, evidence: IrSiteEvidence, ctx: MapContext): IrSiteRecordV1 {
  return {
    schema: 'ir-site@1',
    key: data.cik,
    id: recordId(data.cik, contentHash(irSiteSignature(data))),
    observed_at: evidence.fetchedAt,
    produced_by: IR_PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(evidence.url ?? `cik:${data.cik}`, evidence.contentHash ?? 'none'),
      source_provider: evidence.provider,
      source_url: evidence.url,
      accession: null,
      quote: evidence.quote,
      content_hash: evidence.contentHash,
      extracted_at: ctx.extractedAt,
    },
    data,
  };
}
