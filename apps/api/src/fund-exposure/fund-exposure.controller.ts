import { FUND_EXPOSURE_ORDER, FundExposureRepository, type FundExposureFilter, type FundExposureRow } from '@app/persistence';
import { FUND_EXPOSURE_GAPS, fundExposureAsOfGaps, fundExposureSchema, toCompanyReference, toFundExposureEntry } from '@app/resources';
import { symbolParam } from '../companies/companies.schemas';
import type { ListScope, PageParams } from '../platform/paging';
import { calendarDateCheck } from '../platform/query.validation';
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
      "`limit` above the plan's cap answers 422 less_than_equal. `gaps` says what N-PORT cannot show. " +
      'With `as_of=YYYY-MM-DD`, only reports filed on or before that day: each fund\'s latest report alone is kept and N-PORT records carry no filing ' +
      'date (it comes from the filings read model), so a fund whose latest report came after the day, or whose filing date is not known, is left out ' +
      'and counted in `gaps`; `fund_count` counts the funds listed.',
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
        check: calendarDateCheck('as_of'),
        handle: async ({ principal, query, path }) => {
          const company = await companies.get(path.symbol);
          const asOf = query.as_of;
          // The parameter's pattern admits only weight and value.
          const filter: FundExposureFilter = { cik: company.cik, sort: query.sort === 'value' ? 'value' : 'weight', etfsOnly: query.etfs_only, ...(asOf !== undefined ? { asOf } : {}) };
          // Always largest first: a cursor of the other direction is refused.
          const params: PageParams = { cursor: query.cursor, limit: query.limit, direction: 'desc' };
          const scope: ListScope<FundExposureRow> = {
            list: 'fund-exposure',
            filters: { symbol: company.symbol, sort: filter.sort, etfs_only: filter.etfsOnly, ...(asOf !== undefined ? { as_of: asOf } : {}) },
            order: FUND_EXPOSURE_ORDER[filter.sort],
            defaultDirection: 'desc',
          };
          // The count runs beside the page, once the cursor is known to be good.
          const open = paging.open(principal, params, scope);
          if (asOf !== undefined) {
            const [rows, coverage] = await Promise.all([service.list(filter, open.request), service.asOfCoverage(company.cik, filter.etfsOnly, asOf)]);
            const page = open.body(rows, toFundExposureEntry);
            const gaps = [...FUND_EXPOSURE_GAPS, ...fundExposureAsOfGaps(asOf, coverage)];
            return { ...page, company: toCompanyReference(company), alpha: true, fund_count: coverage.funds, as_of: asOf, gaps };
          }
          const [rows, fundCount] = await Promise.all([service.list(filter, open.request), service.countFunds(company.cik, filter.etfsOnly)]);
          const page = open.body(rows, toFundExposureEntry);
          return { ...page, company: toCompanyReference(company), alpha: true, fund_count: fundCount, gaps: [...FUND_EXPOSURE_GAPS] };
        },
      }),
    ];
  },
};
