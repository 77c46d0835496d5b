import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const TENK_SECTION_ITEMS = ['1', '1A', '7'] as const;
export const TENK_SECTION_STATUSES = ['extracted', 'not_present', 'incorporated_by_reference', 'failed'] as const;

/** The opening paragraphs of Item 1, the issuer's description of its business as the 10-K states it. */
export const tenkDescriptionSchema = z.object({
  text: z.string().min(1).describe('Verbatim from the document text (paragraphs joined by \\n), cut at a sentence, at most about 1,000 characters'),
  char_start: z.number().int().min(0).describe('Offset in the document text'),
  char_end: z.number().int().min(0).describe('document_text.slice(char_start, char_end) === text'),
});

/**
 * edgar.tenk-sections.v1 data: one item (1 Business, 1A Risk Factors, 7 MD&A) of a 10-K's primary
 * document, located by its heading in the body (or the filer's cross-reference index). Offsets are
 * into the document's text as libs/edgar's tenkText reads it (visible text, one line per block).
 */
export const tenkSectionDataSchema = z.object({
  cik: z.string().regex(/^\d{10}$/).describe('10-digit zero-padded CIK of the filer'),
  accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/).describe('Accession number of the 10-K'),
  form: z.string().min(1).describe('Form of the filing (10-K, 10-K405, 10-KT, ...)'),
  filed_date: date.nullable().describe('Filing date, when the filing record gave it'),
  period_ended: date.nullable().describe('End of the fiscal year reported: the filing\'s period of report, else the cover page ("For the fiscal year ended ...")'),
  document_url: z.string().url().describe('URL of the primary document read'),
  text_length: z.number().int().min(0).describe('Length of the document text the offsets refer to'),
  extractor_version: z.string().min(1).describe('Which extractor located the section, e.g. tenk-sections@1'),
  item: z.enum(TENK_SECTION_ITEMS).describe('1 (Business), 1A (Risk Factors), 7 (Management\'s Discussion and Analysis)'),
  title: z.string().min(1).describe('The item\'s title in Form 10-K'),
  status: z.enum(TENK_SECTION_STATUSES).describe(
    'extracted: the text is the item; incorporated_by_reference: the item points to another document (reason quotes it); not_present: the document has no such item; failed: located but rejected, or not locatable (reason)',
  ),
  reason: z.string().nullable().describe('Why, for every status but extracted'),
  heading: z.string().nullable().describe('The heading line as printed; null when no heading was used'),
  char_start: z.number().int().min(0).nullable().describe('Start of the section (its heading line) in the document text; null when not located'),
  char_end: z.number().int().min(0).nullable().describe('End (exclusive) of the section in the document text'),
  length: z.number().int().min(0).nullable().describe('char_end - char_start'),
  cross_reference_pages: z.string().nullable().describe('Pages the filer\'s cross-reference index gives for the item, when it uses one'),
  text: z.string().nullable().describe('document_text.slice(char_start, char_end); null when not located'),
  description: tenkDescriptionSchema.nullable().describe('Item 1 only: its opening paragraphs; null for other items, or when Item 1 was not extracted'),
});

export type TenkSectionData = z.infer<typeof tenkSectionDataSchema>;
export type TenkDescriptionData = z.infer<typeof tenkDescriptionSchema>;

export const tenkSectionRecordV1 = envelopeSchema('tenk-section@1', tenkSectionDataSchema);
export type TenkSectionRecordV1 = z.infer<typeof tenkSectionRecordV1>;
