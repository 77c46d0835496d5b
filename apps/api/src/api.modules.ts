import { SegmentsRepository } from '@app/persistence';
import { citationsRoutes, createCitationsController } from './citations/citations.controller';
import { CompaniesController, companiesRoutes } from './companies/companies.controller';
import { createCoverageController, coverageRoutes } from './coverage/coverage.controller';
import { createDocumentsController, documentsRoutes } from './documents/documents.controller';
import { createExecutivesController, executivesRoutes } from './executives/executives.controller';
import { filingsApi } from './filings/filings.controller';
import { createFundExposureController, fundExposureRoutes } from './fund-exposure/fund-exposure.controller';
import { HealthController, healthRoutes } from './health/health.controller';
import { createInsidersController, insidersRoutes } from './insiders/insiders.controller';
import type { RouteModule } from './platform/route.module';
import { searchApi } from './search/search.controller';
import { createSectionsController, sectionsRoutes } from './sections/sections.controller';
import { SegmentsController, segmentsRoutes } from './segments/segments.controller';
import { SegmentsService } from './segments/segments.service';
import { createTranscriptsController, transcriptsRoutes } from './transcripts/transcripts.controller';
import { webhooksApi } from './webhooks/webhooks.controller';

/**
 * Every documented route, by capability, in the OpenAPI document's order: the api registers these,
 * the OpenAPI document lists them and the MCP tools call them. A new capability adds its module here.
 */
export const API_MODULES: readonly RouteModule[] = [
  { routes: companiesRoutes, bind: (d) => new CompaniesController(d.companies, d.cursors, d.plans).routes() },
  { routes: segmentsRoutes, bind: (d) => new SegmentsController(new SegmentsService(new SegmentsRepository(d.dataSource), d.companies), d.cursors, d.plans).routes() },
  { routes: sectionsRoutes, bind: (d) => createSectionsController(d.dataSource, d.companies).routes() },
  { routes: fundExposureRoutes, bind: (d) => createFundExposureController(d.dataSource, d.cursors, d.plans).routes() },
  { routes: executivesRoutes, bind: (d) => createExecutivesController(d.dataSource, d.plans).routes() },
  { routes: insidersRoutes, bind: (d) => createInsidersController(d.dataSource, d.cursors, d.plans).routes() },
  filingsApi,
  { routes: documentsRoutes, bind: (d) => createDocumentsController(d.dataSource, d.cursors, d.plans).routes() },
  { routes: transcriptsRoutes, bind: (d) => createTranscriptsController(d.dataSource, d.cursors, d.plans).routes() },
  searchApi,
  { routes: coverageRoutes, bind: (d) => createCoverageController(d.dataSource).routes() },
  { routes: citationsRoutes, bind: (d) => createCitationsController(d.dataSource, d.config, d.logger).routes() },
  webhooksApi,
  { routes: healthRoutes, bind: (d) => new HealthController(d.dataSource, d.redis).routes() },
];
