import { TENK_SECTION_ITEMS, TENK_SECTION_STATUSES } from '@app/contracts';
import type { CompanyRecord, TenkSectionRecord } from '@app/persistence';
import { toCompanyReference } from '@app/resources';
import type { SectionBody } from './sections.schemas';

const asItem = (v: string): SectionBody['item'] => {
  const item = TENK_SECTION_ITEMS.find((i) => i === v);
  if (!item) throw new Error(`stored 10-K item out of the contract: ${v}`);
  return item;
};
const asStatus = (v: string): SectionBody['status'] => {
  const status = TENK_SECTION_STATUSES.find((s) => s === v);
  if (!status) throw new Error(`stored 10-K section status out of the contract: ${v}`);
  return status;
};

/** Read model -> the section resource. */
export function toSection(company: CompanyRecord, s: TenkSectionRecord): SectionBody {
  return {
    company: toCompanyReference(company),
    item: asItem(s.item),
    title: s.title,
    status: asStatus(s.status),
    reason: s.reason,
    heading: s.heading,
    char_start: s.charStart,
    char_end: s.charEnd,
    length: s.length,
    cross_reference_pages: s.crossReferencePages,
    text: s.text,
    filing: {
      accession: s.accession,
      form: s.form,
      filed_date: s.filedDate,
      period_ended: s.periodEnded,
      document_url: s.documentUrl,
      text_length: s.textLength,
    },
    extractor_version: s.extractorVersion,
    provenance: s.provenance,
  };
}
