import type { DataSource } from 'typeorm';
import { CompaniesRepository, CoverageRepository, RosterRepository } from '@app/persistence';
import { symbolParam } from '../companies/companies.schemas';
import { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { QueryParser } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { toCoverage } from './coverage.mapper';
import { coverageSchema, type CoverageBody } from './coverage.schemas';
import { CoverageService } from './coverage.service';

export const coverageRoutes = {
  get: {
    method: 'GET',
    url: '/v1/coverage/:symbol',
    operationId: 'getCoverage',
    summary: 'What is held for a company, and how fresh it is',
    description:
      "Per dataset (filings, form4, segments, fund_exposure, documents, rosters) of the company's issuer: how many items are held (`count` is what " +
      "that dataset's own list endpoint pages through with its default filters), the date range they cover, when the newest of them was ingested " +
      '(`last_ingested_at`) and the known gaps, each a stable `code` with a `detail` for people. Every dataset is held per issuer (CIK), so the ' +
      "listings of one issuer share their coverage. Computed on each request from the data as it stands. An unknown symbol answers 404 unknown-symbol, " +
      'as GET /v1/companies/{symbol} does.',
    tags: ['companies'],
    path: symbolParam,
    response: coverageSchema,
    errors: [404],
  },
} satisfies Record<string, RouteDefinition>;

const symbolParser = new QueryParser(symbolParam);

/** HTTP side of coverage: validate the symbol, call the service, map to the response shape. */
export class CoverageController {
  constructor(private readonly service: CoverageService) {}

  routes(): BoundRoute[] {
    return [{ definition: coverageRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) }];
  }

  async get(params: Record<string, unknown>): Promise<CoverageBody> {
    const items: ValidationItem[] = [];
    const p = symbolParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    return toCoverage(await this.service.get(p.symbol as string));
  }
}

/** Wires the coverage controller on the api's DataSource (called from api.context). */
export function createCoverageController(dataSource: DataSource): CoverageController {
  return new CoverageController(
    new CoverageService(new CoverageRepository(dataSource), new RosterRepository(dataSource), new CompaniesService(new CompaniesRepository(dataSource))),
  );
}
