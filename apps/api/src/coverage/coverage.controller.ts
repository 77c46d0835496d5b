import { CoverageRepository, RosterRepository } from '@app/persistence';
import { coverageSchema, toCoverage } from '@app/resources';
import { symbolParam } from '../companies/companies.schemas';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { CoverageService } from './coverage.service';

export const coverageRoutes = defineRoutes({
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
});

/** HTTP side of coverage: the typed symbol in, the service, the response shape out. */
export const coverageApi: RouteModule = {
  routes: coverageRoutes,
  bind({ binder, companies, dataSource }) {
    const service = new CoverageService(new CoverageRepository(dataSource), new RosterRepository(dataSource), companies);
    return [binder.bind(coverageRoutes.get, { handle: async ({ path }) => toCoverage(await service.get(path.symbol)) })];
  },
};
