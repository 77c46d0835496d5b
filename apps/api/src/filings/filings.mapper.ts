import type { FilingRecord } from '@app/persistence';
import type { FilingBody } from './filings.schemas';

/** Read model -> the API's filing item. */
export function toFiling(f: FilingRecord): FilingBody {
  return {
    accession: f.accession,
    cik: f.cik,
    company_name: f.companyName,
    form: f.form,
    filed_date: f.filedDate,
    accepted_at: f.acceptedAt ? f.acceptedAt.toISOString() : null,
    report_period: f.reportPeriod,
    primary_document_url: f.primaryDocumentUrl,
    description: f.primaryDocDescription,
    items: f.items,
    size: f.size === null ? null : Number(f.size),
    is_amendment: f.isAmendment,
    amends_accession: f.amendsAccession,
    provenance: f.provenance,
  };
}
