import type { Provenance } from '@app/contracts';
import type { FilingRecord } from '@app/persistence';

/** A filing as the API serves it (GET /v1/filings/{accession}) and `filing.created` carries it. */
export interface FilingResource {
  accession: string;
  cik: string;
  company_name: string;
  form: string;
  filed_date: string;
  accepted_at: string | null;
  report_period: string | null;
  primary_document_url: string | null;
  description: string | null;
  items: string[];
  size: number | null;
  is_amendment: boolean;
  amends_accession: string | null;
  provenance: Provenance;
}

/** Read model -> the API's filing item. */
export function toFiling(f: FilingRecord): FilingResource {
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
