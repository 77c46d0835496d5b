import { FUND_EXPOSURE_ORDER, FundExposureRepository, type FundExposureFilter, type FundExposureRow } from '@app/persistence';
import { FUND_EXPOSURE_GAPS, fundExposureSchema, toCompanyReference, toFundExposureEntry } from '@app/resources';
import { symbolParam } from '../companies/companies.schemas';
import type { ListScope, PageParams } from '../platform/paging';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { fundExposureParams } from './fund-exposure.schemas';
import { FundExposureService } from './fund-exposure.service';

export const fundExposureRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/fund-exposure',
    operationId: 'getFundExposure',
    summary: 'Funds holding the company (alpha)',
    description:
      "Funds whose latest N-PORT report holds the company's common equity, largest first by weight (default) or value, " +
      'keyset-paginated. One entry per holding: a fund holding two share classes of the issuer appears twice; `fund_count` counts funds. ' +
      "`limit` above the plan's cap answers 422 less_than_equal. `_gaps` says what N-PORT cannot show.",
    tags: ['funds'],
    path: symbolParam,
    query: fundExposureParams,
    response: fundExposureSchema,
    errors: [404],
  },
});

/** HTTP side of fund exposure: typed input in, the service, the spec's shape out. */
export const fundExposureApi: RouteModule = {
  routes: fundExposureRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new FundExposureService(new FundExposureRepository(dataSource));
    return [
      binder.bind(fundExposureRoutes.list, {
        handle: async ({ query, path }) => {
          const company = await companies.get(path.symbol);
          // The parameter's pattern admits only weight and value.
          const filter: FundExposureFilter = { cik: company.cik, sort: query.sort === 'value' ? 'value' : 'weight', etfsOnly: query.etfs_only };
          // Always largest first: a cursor of the other direction is refused.
          const params: PageParams = { cursor: query.cursor, limit: query.limit, direction: 'desc' };
          const scope: ListScope<FundExposureRow> = {
            list: 'fund-exposure',
            filters: { symbol: company.symbol, sort: filter.sort, etfs_only: filter.etfsOnly },
            order: FUND_EXPOSURE_ORDER[filter.sort],
            defaultDirection: 'desc',
          };
          // The count runs beside the page, once the cursor is known to be good.
          const open = paging.open(params, scope);
          const [rows, fundCount] = await Promise.all([service.list(filter, open.request), service.countFunds(company.cik, filter.etfsOnly)]);
          const page = open.body(rows, toFundExposureEntry);
          return { ...page, company: toCompanyReference(company), alpha: true, fund_count: fundCount, _gaps: [...FUND_EXPOSURE_GAPS] };
        },
      }),
    ];
  },
};
