import { z } from 'zod';
import { TENK_SECTION_ITEMS, TENK_SECTION_STATUSES } from '@app/contracts';
import type { CompanyRecord, TenkSectionRecord } from '@app/persistence';
import { companyReferenceSchema, dateField, provenanceSchema, toCompanyReference } from './shared.resource';

export const sectionSchema = z
  .object({
    company: companyReferenceSchema,
    item: z.enum(TENK_SECTION_ITEMS),
    title: z.string().describe("The item's title in Form 10-K"),
    status: z.enum(TENK_SECTION_STATUSES).describe(
      'extracted: `text` is the item; incorporated_by_reference: the item points to another document (`reason` quotes it); ' +
        'not_present: the 10-K has no such item; failed: located but rejected by a sanity check, or not locatable (`reason` says which)',
    ),
    reason: z.string().nullable().describe('Why, for every status but extracted'),
    heading: z.string().nullable().describe('The heading line as printed in the 10-K; null when no heading was used'),
    char_start: z.number().int().nullable().describe("Start of the section (its heading line) in the document's text; null when not located"),
    char_end: z.number().int().nullable().describe("End (exclusive) of the section in the document's text"),
    length: z.number().int().nullable().describe('char_end - char_start'),
    cross_reference_pages: z.string().nullable().describe("Pages the filer's cross-reference index gives for the item, when the 10-K uses one"),
    text: z.string().nullable().describe("The section: document_text.slice(char_start, char_end), lines joined by \\n; null when not located"),
    filing: z
      .object({
        accession: z.string(),
        form: z.string(),
        filed_date: dateField().nullable().describe('YYYY-MM-DD, when known'),
        period_ended: dateField().nullable().describe('End of the fiscal year the 10-K reports (YYYY-MM-DD)'),
        document_url: z.string().describe('The primary document read'),
        text_length: z.number().int().describe("Length of the document's text the offsets refer to"),
      })
      .describe("The newest 10-K read for the company's issuer"),
    extractor_version: z.string().describe('Which extractor located the section, e.g. tenk-sections@1'),
    provenance: provenanceSchema.describe("The 10-K's primary document and its sha256; the quote is the heading as printed (Item 1: the description)"),
  })
  .describe("One item of the company's newest 10-K");

export type SectionBody = z.infer<typeof sectionSchema>;

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
