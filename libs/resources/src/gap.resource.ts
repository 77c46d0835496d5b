import { z } from 'zod';

/**
 * Every gap code any resource answers, with what it means: the catalogue docs/gaps.md prints. Codes
 * are stable: new ones may be added, none is renamed or reused for another condition; clients should
 * ignore codes they do not know. One list for every resource, so a code means one thing everywhere.
 */
export const GAP_CATALOGUE = {
  // Coverage (no_segments_reported and no_annual_segments: segments too)
  not_covered: 'The listing is in the reference data, but no dataset holds anything for its issuer yet',
  no_filings: 'No EDGAR filing of the issuer has been ingested',
  no_form4_filings: 'No Form 4 or 4/A filed on the issuer has been ingested',
  form4_filed_date_unknown: 'Some Form 4 filings are held without a filing date',
  no_segments_reported: 'No segment facts held for the company (none reported, or its 10-Q and 10-K not read yet)',
  no_annual_segments: 'Only quarterly segment facts are held: annual figures and derived fourth quarters are unavailable',
  not_applicable_to_funds: 'The dataset does not apply to funds and ETFs',
  no_nport_filings: 'No N-PORT filing has been ingested yet',
  no_nport_holders: 'No N-PORT filer held reports a current holding of the issuer',
  ir_site_not_configured: "The issuer's IR site has not been found or crawled (or its crawl failed)",
  no_ir_documents: "The issuer's IR pages were crawled, but no document was found linked from them",
  document_text_pending: 'Some documents are held without their extracted text yet',
  no_transcripts: 'No first-party call transcript is held',
  no_current_executives: 'No current executive is known from the issuer page or Form 4 filings',
  no_ir_contacts: "The issuer's IR pages list no current investor-relations contact",
  no_analysts: "The issuer's IR pages list no analyst covering the company",
  // Company detail
  sec_submissions_pending: "The issuer's SEC submissions JSON has not been fetched yet: the fields it gives are unavailable",
  not_in_source: 'The source gives no value for `field`',
  not_captured: 'No value for `field` has been captured yet from any of its sources',
  identifier_not_found: 'No source read so far gives the identifier `field`',
  identifier_ambiguous: 'Sources give several values for the identifier `field`; none is served (never a guess)',
  no_source: 'This service has no source for `field`',
  not_stored: 'This service does not store `field`',
  name_before_sec_history: 'as_of predates the first name SEC lists: the earliest name is served',
  // Financial statements
  no_periods: 'No fiscal year or quarter was found in the reports filed',
  concept_not_reported: 'The filer reports none of the concepts of the line item `field`',
  not_reported_for_period: 'The line item `field` is not reported (nor derivable) for a period the detail names',
  not_derivable: 'The line item `field` cannot be derived by its formula for a period: an operand is unavailable',
  // Facts, segments, fund exposure, institutional holders
  source_scope: 'A standing note on what the source covers and what it leaves out (the same on every answer)',
  dimensioned_values_available: 'The concept also has dimensional values: ask with dimensioned=true',
  derived_q4: 'Fourth quarters derived as annual minus nine-month year to date (tier derived_q4)',
  inferred_value: '`field` is inferred (from names), not stated by the source',
  matching_rule: 'How records are matched to the company: a record the rule does not match is not shown',
  values_scaled: 'Values filed in another unit are scaled; contradicting ones are flagged',
  held_per_issuer: "The data is held per issuer (CIK): every share class and series sharing the CIK counts",
  // ?as_of= answers
  as_of_rule: 'The rule the answer as of the day follows (`field`: the field it decides, when one)',
  as_of_not_point_in_time: 'Parts of the answer as of the day are today\'s values, not the day\'s',
  as_of_report_not_kept: "Records left out as of the day: their report then was replaced by a later one, which is all that is kept",
  as_of_report_undated: 'Records left out as of the day: their report carries no filing date',
  as_of_before_first_crawl: 'The day is before the first crawl of the source: only other sources answer',
  as_of_drop_day_unknown: 'Whether `field` held on the day is unknown: the crawl that changed it is not dated',
} as const;

export type GapCode = keyof typeof GAP_CATALOGUE;

/** The codes in catalogue order. */
export const GAP_CODES = Object.keys(GAP_CATALOGUE) as GapCode[];

/** The one gap shape of every resource (OpenAPI: #/components/schemas/Gap). */
export const gapSchema = z
  .object({
    code: z.string().describe(`Stable snake_case code (catalogue: docs/gaps.md): ${GAP_CODES.join(', ')}. New codes may be added: ignore unknown ones`),
    field: z.string().optional().describe('The field or line item concerned, when there is one (website, isin, revenue, is_current, ...)'),
    detail: z.string().describe('What is missing and why, in English, for people'),
  })
  .describe('A known gap: something this answer cannot show, and why. Codes are catalogued in docs/gaps.md');

export type GapBody = { code: GapCode; field?: string; detail: string };

/** A gap; `field` only when one field or line item is concerned. */
export const gap = (code: GapCode, detail: string, field?: string): GapBody => (field === undefined ? { code, detail } : { code, field, detail });
