// Read model -> the resources the API serves and webhook events carry (one mapping, so a webhook's
// `data` is byte-for-byte what GET returns), each typed by the zod schema documenting it (the
// OpenAPI document is generated from these schemas), so a mapping cannot drift from its shape. Pure: no I/O.
export { companyReferenceSchema, dateField, dateTimeField, paginationSchema, provenanceSchema, toCompanyReference } from './shared.resource';
export type { CompanyReferenceBody } from './shared.resource';
export { companyDetailSchema, companyListSchema, toCompanyDetail } from './company.resource';
export type { CompanyDetailBody, CompanyListBody } from './company.resource';
export { companyFilingListSchema, filingListSchema, filingSchema, toFiling } from './filing.resource';
export type { CompanyFilingListBody, FilingBody, FilingListBody } from './filing.resource';
export { footnotesByField, form4FilingSchema, insiderListSchema, insiderTransactionSchema, toForm4Filing, toInsiderTransaction } from './insider-transaction.resource';
export type { Form4FilingResource, InsiderListBody, InsiderTransactionBody } from './insider-transaction.resource';
export {
  documentDetailSchema,
  documentListSchema,
  documentPageSchema,
  documentPagesSchema,
  documentSchema,
  documentTextSchema,
  toDocument,
  toDocumentDetail,
  toDocumentPage,
} from './document.resource';
export type { DocumentBody, DocumentDetailBody, DocumentListBody, DocumentPagesBody, DocumentTextBody } from './document.resource';
export { toTranscript, toTranscriptDetail, transcriptDetailSchema, transcriptListSchema, transcriptSchema } from './transcript.resource';
export type { TranscriptBody, TranscriptDetailBody, TranscriptListBody } from './transcript.resource';
export { executivesSchema, rosterEntrySchema, toRosterEntry } from './executive.resource';
export { sectionSchema, toSection } from './section.resource';
export type { SectionBody } from './section.resource';
export { thirteenFFilingSchema, toThirteenFFiling } from './thirteenf-filing.resource';
export type { ThirteenFFilingBody } from './thirteenf-filing.resource';
export { FUND_EXPOSURE_GAPS, fundExposureAsOfGaps, fundExposureEntrySchema, fundExposureSchema, toFundExposureEntry } from './fund-exposure.resource';
export { SEGMENT_UNITS, segmentGaps, segmentObservationSchema, segmentsResponseSchema, toSegmentObservation } from './segment.resource';
export { coverageSchema, toCoverage } from './coverage.resource';
export { GAP_CATALOGUE, GAP_CODES, gap, gapSchema } from './gap.resource';
export type { GapBody, GapCode } from './gap.resource';
export type { CompanyCoverage, CoverageBody } from './coverage.resource';
export { searchHitSchema, searchHitUrl, searchListSchema, toSearchHit } from './search.resource';
export type { SearchHitBody, SearchListBody } from './search.resource';
export {
  createdEndpointSchema,
  deliveryListSchema,
  deliverySchema,
  endpointListSchema,
  endpointSchema,
  EVENT_DATA,
  EVENT_ITEMS,
  EVENT_TYPES,
  eventListSchema,
  eventSchema,
  recoverResultSchema,
  retryResultSchema,
  rotatedSecretSchema,
  testEventResultSchema,
  toDelivery,
  toEndpoint,
  toEvent,
  WEBHOOK_BODIES,
  WEBHOOK_TOPICS,
  webhookPingSchema,
} from './webhook.resource';
export type {
  CreatedEndpointBody,
  DeliveryBody,
  DeliveryListBody,
  EndpointBody,
  EndpointListBody,
  EventBody,
  EventListBody,
  WebhookTopic,
} from './webhook.resource';
export {
  companyHoldersSchema,
  INSTITUTIONAL_GAPS,
  institutionalAsOfGaps,
  institutionDetailSchema,
  institutionHoldingsSchema,
  institutionalPositionSchema,
  institutionListSchema,
  institutionSchema,
  securityHoldersSchema,
  toInstitution,
  toInstitutionalPosition,
  toInstitutionDetail,
} from './institutional-holder.resource';
export { freshnessSchema, toFreshness } from './freshness.resource';
export type { FilingFreshness, FreshnessBody } from './freshness.resource';
export * from './financials';
export {
  FACT_PERIODS,
  factListSchema,
  factSchema,
  factValueSchema,
  periodKind,
  toFact,
  toFactConcept,
  factGaps,
  VALUE_SCALES,
} from './fact.resource';
export type { FactBody, FactListBody, FactPeriod, ValueScale } from './fact.resource';
export { financialLineItemSchema, financialStatementSchema, financialValueSchema, toFinancialStatement } from './financials.resource';
export type { FinancialStatementBody } from './financials.resource';
