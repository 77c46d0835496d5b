import { COMPANIES_ORDER, type CompanyListFilter } from '@app/persistence';
import { companyDetailSchema, companyListSchema, toCompanyDetail, toCompanyReference } from '@app/resources';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { calendarDateCheck } from '../platform/query.validation';
import { companiesListParams, companyDetailParams, symbolParam } from './companies.schemas';

export const companiesRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/companies',
    operationId: 'listCompanies',
    summary: 'List companies',
    description:
      'Company reference items, keyset-paginated by symbol. Companies have no date field, so the sort key is the symbol and ' +
      'the default direction is asc (alphabetical). `sector` is accepted but has no effect: sector is not stored. ' +
      "`limit` above the plan's cap (free and sk_test_ keys: 25) answers 422 less_than_equal with the cap in ctx.",
    tags: ['companies'],
    query: companiesListParams,
    response: companyListSchema,
  },
  get: {
    method: 'GET',
    url: '/v1/companies/:symbol',
    operationId: 'getCompany',
    summary: 'Company detail',
    description:
      'Reference fields plus detail and provenance; `gaps` explains every field that is null. With `as_of=YYYY-MM-DD`, `name` is the name in force ' +
      "that day, from SEC's former names and their dates (a day before the first one SEC lists gets the earliest name, with a note); the other fields " +
      'are today\'s values, and `gaps` names them.',
    tags: ['companies'],
    path: symbolParam,
    query: companyDetailParams,
    response: companyDetailSchema,
    errors: [404],
  },
});

const upper = (xs: string[] | undefined): string[] | undefined => (xs?.length ? [...new Set(xs.map((x) => x.toUpperCase()))].sort() : undefined);

/** HTTP side of companies: typed input in, the shared companies service, the spec's shapes out. */
export const companiesApi: RouteModule = {
  routes: companiesRoutes,
  bind({ binder, paging, companies }) {
    return [
      binder.bind(companiesRoutes.list, {
        handle: ({ principal, query }) => {
          const filter: CompanyListFilter = {
            q: query.q,
            markets: upper(query.markets),
            tickers: upper(query.tickers),
            ciks: query.ciks?.length ? [...new Set(query.ciks.map((c) => c.padStart(10, '0')))].sort() : undefined,
            isins: upper(query.isins),
            figis: upper(query.figis),
            issuerIds: query.issuer_ids?.length ? [...new Set(query.issuer_ids)].sort((a, b) => a - b) : undefined,
            activeOnly: query.active_only,
          };
          // `q` matches case-insensitively: its spellings continue one list.
          const filters = { ...filter, q: filter.q?.toLowerCase() };
          return paging.list(principal, query, { list: 'companies', filters, order: COMPANIES_ORDER, defaultDirection: 'asc' }, (page) => companies.list(filter, page), toCompanyReference);
        },
      }),
      binder.bind(companiesRoutes.get, {
        check: calendarDateCheck('as_of'),
        handle: async ({ path, query }) => toCompanyDetail(await companies.get(path.symbol), query.as_of),
      }),
    ];
  },
};
