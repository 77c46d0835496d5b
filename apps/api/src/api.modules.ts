import { citationsApi } from './citations/citations.controller';
import { companiesApi } from './companies/companies.controller';
import { coverageApi } from './coverage/coverage.controller';
import { documentsApi } from './documents/documents.controller';
import { executivesApi } from './executives/executives.controller';
import { factsApi } from './facts/facts.controller';
import { filingsApi } from './filings/filings.controller';
import { fundExposureApi } from './fund-exposure/fund-exposure.controller';
import { healthApi } from './health/health.controller';
import { insidersApi } from './insiders/insiders.controller';
import { institutionalApi } from './institutional/institutional.controller';
import type { RouteModule } from './platform/route.module';
import { searchApi } from './search/search.controller';
import { sectionsApi } from './sections/sections.controller';
import { segmentsApi } from './segments/segments.controller';
import { freshnessApi } from './status/freshness.controller';
import { transcriptsApi } from './transcripts/transcripts.controller';
import { webhooksApi } from './webhooks/webhooks.controller';

/**
 * Every documented route, by capability, in the OpenAPI document's order: the api registers these,
 * the OpenAPI document lists them and the MCP tools call them. A new capability adds its module here.
 */
export const API_MODULES: readonly RouteModule[] = [
  companiesApi,
  segmentsApi,
  factsApi,
  sectionsApi,
  fundExposureApi,
  institutionalApi,
  executivesApi,
  insidersApi,
  filingsApi,
  documentsApi,
  transcriptsApi,
  searchApi,
  coverageApi,
  citationsApi,
  webhooksApi,
  freshnessApi,
  healthApi,
];
