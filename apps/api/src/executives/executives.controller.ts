import { keysetInMemory, RosterRepository } from '@app/persistence';
import { executivesSchema, toCompanyReference, toRosterEntry } from '@app/resources';
import { symbolParam } from '../companies/companies.schemas';
import { calendarDateCheck } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { executivesParams } from './executives.schemas';
import { ExecutivesService, ROSTER_ORDER, type RosterRow } from './executives.service';

export const executivesRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/executives',
    operationId: 'listCompanyExecutives',
    summary: "A company's executives, IR contacts or analysts",
    description:
      "The issuer's roster of one category, by rank then name, with the company reference; keyset-paginated (`limit` a page, `cursor` the next; " +
      'a cursor continues after the same person even when the roster changed between pages, and is bound to its filters, as_of included). ' +
      "Entries come from the issuer's own IR pages (source_provider issuer_page) and, for executives, from the reporting owners " +
      'of Forms 4 filed as officer or director (source_provider sec: name as filed, role the officer title or Director, provenance the filing). ' +
      'One entry per person: when both sources know a person (same words of the name, in any order), the issuer page entry is shown, unless the page ' +
      'no longer lists them while a later Form 4 shows them as officer or director. Executives are ranked by position: the issuer page\'s order, then people ' +
      'only Form 4 shows by seniority, directors last. An issuer-page person the latest roster no longer lists has is_current false; an SEC person ' +
      'is current while a Form 4 filed in the last 18 months shows them as officer or director and no later one shows them without it ' +
      '(current_only=false shows the others). ' +
      'With `as_of=YYYY-MM-DD`, the roster as it stood that day: issuer-page people a crawl had listed by then, current when a crawl on or after the day ' +
      "(or today's roster) still lists them; SEC people from the Forms 4 filed by then, current within the 18 months before the day; `gaps` says " +
      'the rule and what the stored crawls cannot tell. ' +
      "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx.",
    tags: ['companies'],
    path: symbolParam,
    query: executivesParams,
    response: executivesSchema,
    errors: [404],
  },
});

/** HTTP side of the roster: typed input in, the services, the spec's shape out. */
export const executivesApi: RouteModule = {
  routes: executivesRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new ExecutivesService(new RosterRepository(dataSource));
    return [
      binder.bind(executivesRoutes.list, {
        check: calendarDateCheck('as_of'),
        handle: async ({ principal, path, query }) => {
          const filters = { symbol: path.symbol.toUpperCase(), category: query.category, current_only: query.current_only, as_of: query.as_of ?? null };
          // The cursor first: a bad cursor answers 422 before an unknown symbol's 404.
          const open = paging.open(principal, query, { list: 'executives', filters, order: ROSTER_ORDER, defaultDirection: 'asc' });
          const company = await companies.get(path.symbol);
          const page = (rows: RosterRow[]) => open.body(keysetInMemory(ROSTER_ORDER, rows, open.request), (r) => toRosterEntry(r.entry));
          if (query.as_of !== undefined) {
            const { rows, gaps } = await service.listAsOf(company.cik, query.category, query.current_only, query.as_of);
            return { company: toCompanyReference(company), ...page(rows), as_of: query.as_of, gaps };
          }
          return { company: toCompanyReference(company), ...page(await service.list(company.cik, query.category, query.current_only)) };
        },
      }),
    ];
  },
};
