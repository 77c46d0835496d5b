import { FILINGS_ORDER, FilingsRepository, type FilingListFilter } from '@app/persistence';
import { companyFilingListSchema, filingListSchema, filingSchema, toCompanyReference, toFiling } from '@app/resources';
import { dateRangeCheck } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { accessionParam, companyFilingsParams, companyFilingsPath, filingsListParams } from './filings.schemas';
import { FilingsService } from './filings.service';

const LIST_DESCRIPTION =
  'Keyset-paginated by filing date then accession, newest first by default (`direction=asc` for oldest first). ' +
  '`forms` matches form types exactly (case-insensitive); an amendment (10-K/A) is its own form type. ' +
  '`items` keeps 8-Ks stating any of the given item numbers (an 8-K whose items are not yet known matches none). ' +
  "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx.";

export const filingsRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/filings',
    operationId: 'listFilings',
    summary: 'List filings',
    description: `EDGAR filings of covered companies. ${LIST_DESCRIPTION}`,
    tags: ['filings'],
    query: filingsListParams,
    response: filingListSchema,
  },
  company: {
    method: 'GET',
    url: '/v1/companies/:symbol/filings',
    operationId: 'listCompanyFilings',
    summary: "A company's filings",
    description: `Filings of the company's issuer (by CIK), with the company reference. ${LIST_DESCRIPTION}`,
    tags: ['filings'],
    path: companyFilingsPath,
    query: companyFilingsParams,
    response: companyFilingListSchema,
    errors: [404],
  },
  get: {
    method: 'GET',
    url: '/v1/filings/:accession',
    operationId: 'getFiling',
    summary: 'One filing',
    description: 'A filing by accession number; 404 `unknown-filing` when it has not been indexed.',
    tags: ['filings'],
    path: accessionParam,
    response: filingSchema,
    errors: [404],
  },
});

const normalizedForms = (forms: string[] | undefined): string[] | undefined => (forms?.length ? [...new Set(forms.map((f) => f.trim().toUpperCase()))].sort() : undefined);
/** Item numbers as stored ("2.02"): a leading zero dropped ("02.02" is 2.02), unique, sorted (the cursor binds the filter). */
const normalizedItems = (items: string[] | undefined): string[] | undefined =>
  items?.length ? [...new Set(items.map((i) => i.replace(/^0(?=\d)/, '')))].sort() : undefined;


/** HTTP side of filings: typed input in, the service, the response shapes out. */
export const filingsApi: RouteModule = {
  routes: filingsRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new FilingsService(new FilingsRepository(dataSource));
    const scope = (list: string, filter: FilingListFilter) => ({ list, filters: { ...filter }, order: FILINGS_ORDER, defaultDirection: 'desc' as const });
    return [
      binder.bind(filingsRoutes.list, {
        check: dateRangeCheck('filed_from', 'filed_to'),
        handle: ({ principal, query }) => {
          const ciks = query.ciks?.length ? [...new Set(query.ciks.map((c) => c.replace(/^0+/, '').padStart(10, '0')))].sort() : undefined;
          const filter: FilingListFilter = { forms: normalizedForms(query.forms), items: normalizedItems(query.items), filedFrom: query.filed_from, filedTo: query.filed_to, ciks };
          return paging.list(principal, query, scope('filings', filter), (page) => service.list(filter, page), toFiling);
        },
      }),
      binder.bind(filingsRoutes.company, {
        check: dateRangeCheck('filed_from', 'filed_to'),
        handle: async ({ principal, query, path }) => {
          const company = await companies.get(path.symbol);
          const filter: FilingListFilter = {
            forms: normalizedForms(query.forms),
            items: normalizedItems(query.items),
            filedFrom: query.filed_from,
            filedTo: query.filed_to,
            ciks: [company.cik],
          };
          const page = await paging.list(principal, query, scope(`company-filings:${company.symbol}`, filter), (p) => service.list(filter, p), toFiling);
          return { ...page, company: toCompanyReference(company) };
        },
      }),
      binder.bind(filingsRoutes.get, { handle: async ({ path }) => toFiling(await service.get(path.accession)) }),
    ];
  },
};
