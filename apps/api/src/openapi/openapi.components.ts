import { z } from 'zod';
import {
  companyDetailSchema,
  companyFilingListSchema,
  companyHoldersSchema,
  companyListSchema,
  companyReferenceSchema,
  coverageSchema,
  createdEndpointSchema,
  deliveryListSchema,
  deliverySchema,
  documentDetailSchema,
  documentListSchema,
  documentPageSchema,
  documentPagesSchema,
  documentSchema,
  documentTextSchema,
  endpointListSchema,
  endpointSchema,
  EVENT_ITEMS,
  EVENT_TYPES,
  eventListSchema,
  eventSchema,
  executivesSchema,
  factListSchema,
  factSchema,
  factValueSchema,
  filingListSchema,
  filingSchema,
  financialLineItemSchema,
  financialStatementSchema,
  financialValueSchema,
  form4FilingSchema,
  freshnessSchema,
  fundExposureEntrySchema,
  fundExposureSchema,
  gapSchema,
  insiderListSchema,
  insiderTransactionSchema,
  institutionalPositionSchema,
  institutionDetailSchema,
  institutionHoldingsSchema,
  institutionListSchema,
  institutionSchema,
  paginationSchema,
  provenanceSchema,
  recoverResultSchema,
  retryResultSchema,
  rosterEntrySchema,
  rotatedSecretSchema,
  searchHitSchema,
  searchListSchema,
  sectionSchema,
  securityHoldersSchema,
  segmentObservationSchema,
  segmentsResponseSchema,
  testEventResultSchema,
  thirteenFFilingSchema,
  transcriptDetailSchema,
  transcriptListSchema,
  transcriptSchema,
  WEBHOOK_BODIES,
  webhookPingSchema,
} from '@app/resources';
import { citationVerdictSchema } from '../citations/citations.schemas';
import { healthSchema, readySchema } from '../health/health.controller';
import { PROBLEM_SLUGS } from './problem-pages';

export const problemSchema = z
  .object({
    type: z.string().describe(`<docs_url>/errors/<slug>, a page saying what happened and what to do. Slugs: ${PROBLEM_SLUGS.join(', ')}`),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    request_id: z.string().describe('req_...; also sent as the X-Request-Id header'),
    instance: z.string().describe('The request path'),
  })
  .describe('RFC 9457 problem (application/problem+json)');

const validationItemSchema = z.object({
  type: z
    .string()
    .describe('Pydantic v2 error type: missing, extra_forbidden, string_too_short, string_too_long, string_pattern_mismatch, int_parsing, bool_parsing, less_than_equal, greater_than_equal, literal_error, value_error'),
  loc: z.array(z.union([z.string(), z.number().int()])).describe("Where: ['query', 'limit'], ['path', 'symbol'], ['query', 'tickers', 0], ['body', 'topics', 0], ['body']"),
  msg: z.string(),
  input: z.unknown().describe('The offending value'),
  ctx: z.record(z.string(), z.unknown()).optional().describe('Constraint values, e.g. {le: 500}'),
});

/** The 422 body: a problem whose detail is the list of items, a type of its own so a client gets one type per status. */
export const validationErrorSchema = problemSchema
  .extend({ detail: z.array(validationItemSchema) })
  .describe('Invalid parameters (HTTP 422): a problem whose detail is the list of Pydantic-style items');

/** `filing.created` -> FilingCreated: the stem of an event type's schema names. */
export function eventTypeName(type: (typeof EVENT_TYPES)[number]): string {
  const words = type.replace('13f', 'thirteen_f').split(/[._]/);
  return words.map((w) => `${w[0]!.toUpperCase()}${w.slice(1)}`).join('');
}

/**
 * Every named schema of the OpenAPI document (#/components/schemas/<name>), by zod schema
 * identity: wherever one of these objects is used (a route's response, a field of another, a
 * webhook body, an event), the document says `$ref` to its name, so a generated client has one
 * type per resource. Every documented route's response must be here (the document refuses to
 * build otherwise); a list is named <Item>List and holds `data` of $ref items and a Pagination.
 */
export const COMPONENT_SCHEMAS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Provenance', provenanceSchema],
  ['Pagination', paginationSchema],
  ['Gap', gapSchema],
  ['Problem', problemSchema],
  ['ValidationItem', validationItemSchema],
  ['ValidationError', validationErrorSchema],
  ['CompanyReference', companyReferenceSchema],
  ['CompanyList', companyListSchema],
  ['CompanyDetail', companyDetailSchema],
  ['Executive', rosterEntrySchema],
  ['ExecutiveList', executivesSchema],
  ['InsiderTransaction', insiderTransactionSchema],
  ['InsiderTransactionList', insiderListSchema],
  ['Form4Filing', form4FilingSchema],
  ['Filing', filingSchema],
  ['FilingList', filingListSchema],
  ['CompanyFilingList', companyFilingListSchema],
  ['Segment', segmentObservationSchema],
  ['SegmentList', segmentsResponseSchema],
  ['FactValue', factValueSchema],
  ['Fact', factSchema],
  ['FactList', factListSchema],
  ['FinancialValue', financialValueSchema],
  ['FinancialLineItem', financialLineItemSchema],
  ['FinancialStatement', financialStatementSchema],
  ['TenKSection', sectionSchema],
  ['FundExposure', fundExposureEntrySchema],
  ['FundExposureList', fundExposureSchema],
  ['InstitutionalPosition', institutionalPositionSchema],
  ['CompanyInstitutionalHolderList', companyHoldersSchema],
  ['SecurityInstitutionalHolderList', securityHoldersSchema],
  ['Institution', institutionSchema],
  ['InstitutionList', institutionListSchema],
  ['InstitutionDetail', institutionDetailSchema],
  ['InstitutionHoldingList', institutionHoldingsSchema],
  ['ThirteenFFiling', thirteenFFilingSchema],
  ['Document', documentSchema],
  ['DocumentDetail', documentDetailSchema],
  ['DocumentList', documentListSchema],
  ['DocumentPage', documentPageSchema],
  ['DocumentPageList', documentPagesSchema],
  ['DocumentText', documentTextSchema],
  ['Transcript', transcriptSchema],
  ['TranscriptDetail', transcriptDetailSchema],
  ['TranscriptList', transcriptListSchema],
  ['SearchResult', searchHitSchema],
  ['SearchResultList', searchListSchema],
  ['Coverage', coverageSchema],
  ['CitationVerdict', citationVerdictSchema],
  ['WebhookEndpoint', endpointSchema],
  ['WebhookEndpointCreated', createdEndpointSchema],
  ['WebhookEndpointList', endpointListSchema],
  ['WebhookSecretRotated', rotatedSecretSchema],
  ['WebhookTestSent', testEventResultSchema],
  ['WebhookDelivery', deliverySchema],
  ['WebhookDeliveryList', deliveryListSchema],
  ['WebhookDeliveryRetried', retryResultSchema],
  ['WebhookDeliveriesRecovered', recoverResultSchema],
  ['WebhookPing', webhookPingSchema],
  ...EVENT_TYPES.map((type) => [`${eventTypeName(type)}Webhook`, WEBHOOK_BODIES[type]] as const),
  ...EVENT_TYPES.map((type) => [`${eventTypeName(type)}Event`, EVENT_ITEMS[type]] as const),
  ['Event', eventSchema],
  ['EventList', eventListSchema],
  ['Freshness', freshnessSchema],
  ['Health', healthSchema],
  ['Readiness', readySchema],
];
