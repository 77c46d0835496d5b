import { INSIDER_TRANSACTIONS_ORDER, InsiderTransactionsRepository, type InsiderTransactionFilter, type InsiderTransactionRecord } from '@app/persistence';
import { insiderListSchema, toCompanyReference, toInsiderTransaction } from '@app/resources';
import type { ListScope } from '../platform/paging';
import { dateRangeCheck } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { insidersParams, insidersPath } from './insiders.schemas';
import { InsidersService } from './insiders.service';

export const insidersRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/insiders',
    operationId: 'listCompanyInsiderTransactions',
    summary: "A company's insider transactions (Form 4)",
    description:
      "Every row of Tables I and II of the Forms 4 and 4/A filed on the company's issuer (by CIK), one item per row: " +
      'tranches at different prices stay separate items. Each item carries its footnotes with their text, every reporting owner of the filing, ' +
      'the Rule 10b5-1 flag and why, the code classification and the filing as provenance (quote: the row\'s XML). ' +
      'Rows a later 4/A restates are left out unless include_superseded=true. ' +
      'Keyset-paginated by transaction date (a holding: the period of report), then accession, table and sequence; newest first by default. ' +
      "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx.",
    tags: ['companies'],
    path: insidersPath,
    query: insidersParams,
    response: insiderListSchema,
    errors: [404],
  },
});


const OWNER_CIK = /^\d{1,10}$/;

/** HTTP side of the insider list: typed input in, the service, the response shape out. */
export const insidersApi: RouteModule = {
  routes: insidersRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new InsidersService(new InsiderTransactionsRepository(dataSource));
    return [
      binder.bind(insidersRoutes.list, {
        check: dateRangeCheck('from', 'to'),
        handle: async ({ principal, query, path }) => {
          const company = await companies.get(path.symbol);
          const owner = query.owner?.trim();
          const filter: InsiderTransactionFilter = {
            cik: company.cik,
            ownerCik: owner && OWNER_CIK.test(owner) ? owner.padStart(10, '0') : undefined,
            ownerName: owner && !OWNER_CIK.test(owner) ? owner : undefined,
            codes: query.codes?.length ? [...new Set(query.codes.map((c) => c.toUpperCase()))].sort() : undefined,
            classifications: query.classification?.length ? [...new Set(query.classification)].sort() : undefined,
            from: query.from,
            to: query.to,
            derivative: query.derivative,
            kind: query.kind,
            includeSuperseded: query.include_superseded,
          };
          const scope: ListScope<InsiderTransactionRecord> = { list: `company-insiders:${company.symbol}`, filters: { ...filter }, order: INSIDER_TRANSACTIONS_ORDER, defaultDirection: 'desc' };
          const page = await paging.list(principal, query, scope, (p) => service.list(filter, p), toInsiderTransaction);
          return { ...page, company: toCompanyReference(company) };
        },
      }),
    ];
  },
};
