import { previousQuarterEnd, quarterOf } from '@app/contracts';
import { CUSIP_HOLDERS_ORDER, HOLDERS_ORDER, InstitutionalHoldersRepository, MANAGER_SEARCH_ORDER, PORTFOLIO_ORDER, type HoldersTarget, type ManagerSearch } from '@app/persistence';
import {
  companyHoldersSchema,
  INSTITUTIONAL_GAPS,
  institutionalAsOfGaps,
  institutionDetailSchema,
  institutionHoldingsSchema,
  institutionListSchema,
  securityHoldersSchema,
  toCompanyReference,
  toInstitution,
  toInstitutionalPosition,
  toInstitutionDetail,
} from '@app/resources';
import type { Principal } from '../auth/api-keys.service';
import type { Paging } from '../platform/paging';
import { calendarDateCheck } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import {
  companyHoldersParams,
  companyHoldersPath,
  institutionHoldingsParams,
  institutionPath,
  institutionsParams,
  securityHoldersParams,
  securityHoldersPath,
} from './institutional.schemas';
import { InstitutionalService, type QuarterChoice } from './institutional.service';

const PAGE_RULE = "Keyset-paginated, largest first; `limit` above the plan's cap answers 422 less_than_equal.";
const ROW_RULE =
  'Each row: shares, value in USD (filings before 2023-01-03 report thousands; scaled), puts and calls apart, the change against the previous quarter ' +
  "(new, increased, decreased, unchanged, sold_out, with the share delta; computed when the quarter is projected), the weight in the manager's quarter, and the filing with the infoTable element as quote.";

export const institutionalRoutes = defineRoutes({
  companyHolders: {
    method: 'GET',
    url: '/v1/companies/:symbol/institutional-holders',
    operationId: 'getCompanyInstitutionalHolders',
    summary: 'Institutions holding the company (13F)',
    description:
      "Form 13F positions in the company's securities at one quarter, one row per manager and CUSIP. The company is its CIK: every CUSIP matched to it is served, " +
      'so a company with several share classes (GOOG, GOOGL) has a row per class held, and a trust whose series share one CIK (the Select Sector SPDRs: XLF, XLK, ...) ' +
      'answers with the holders of every series under any of its symbols; each row names its CUSIP and, where known, its listing symbol, and meta.cusips the CUSIPs ' +
      `of the quarter served. ${ROW_RULE} A quarter without data answers an empty list; meta.quarters names those with data. ${PAGE_RULE} ` +
      'With `as_of=YYYY-MM-DD`, each manager\'s quarter as the 13F filings filed on or before that day made it (a later 13F-HR/A restatement or ' +
      'new-holdings amendment not yet counted), the change against the quarter before as it then stood, and the quarters some holder had filed by then; ' +
      '`gaps` says what it cannot show.',
    tags: ['institutions'],
    path: companyHoldersPath,
    query: companyHoldersParams,
    response: companyHoldersSchema,
    errors: [404],
  },
  securityHolders: {
    method: 'GET',
    url: '/v1/securities/:cusip/institutional-holders',
    operationId: 'getSecurityInstitutionalHolders',
    summary: 'Institutions holding a CUSIP (13F)',
    description: `The holders list for one CUSIP, matched to a company or not, by value. ${ROW_RULE} ${PAGE_RULE}`,
    tags: ['institutions'],
    path: securityHoldersPath,
    query: securityHoldersParams,
    response: securityHoldersSchema,
  },
  list: {
    method: 'GET',
    url: '/v1/institutions',
    operationId: 'listInstitutions',
    summary: 'Institutional managers (13F filers)',
    description: 'Managers by name (accent- and case-folded, fuzzy; best match first) or by CIK (digits); without q, every manager. ' + PAGE_RULE,
    tags: ['institutions'],
    query: institutionsParams,
    response: institutionListSchema,
  },
  get: {
    method: 'GET',
    url: '/v1/institutions/:cik',
    operationId: 'getInstitution',
    summary: 'One institutional manager and its 13F filings',
    description:
      'The manager, its quarters as served (positions, total value) and every 13F filing: form, report type, amendment type (restatement replaces the quarter, ' +
      'new_holdings adds to it), superseded_by, holdings count, value total with its unit and how the unit was decided. 404 unknown-institution.',
    tags: ['institutions'],
    path: institutionPath,
    response: institutionDetailSchema,
    errors: [404],
  },
  holdings: {
    method: 'GET',
    url: '/v1/institutions/:cik/holdings',
    operationId: 'getInstitutionHoldings',
    summary: "An institutional manager's portfolio (13F)",
    description: `The manager's positions at one quarter, sold_out rows included, with the matched company symbol where known. ${ROW_RULE} ${PAGE_RULE}`,
    tags: ['institutions'],
    path: institutionPath,
    query: institutionHoldingsParams,
    response: institutionHoldingsSchema,
    errors: [404],
  },
});

/** The quarter block of a holders or portfolio answer. */
function quarterMeta(choice: QuarterChoice) {
  return {
    quarter: choice.period && quarterOf(choice.period),
    period: choice.period,
    previous_quarter: choice.period && quarterOf(previousQuarterEnd(choice.period)),
    quarters: choice.periods.map(quarterOf),
  };
}

const EMPTY = { data: [], pagination: { next_cursor: null, has_more: false } };

/** A holders page, or the empty list when the target has no quarter at all (a bad cursor is still refused). */
async function holdersPage(paging: Paging, caller: Principal, service: InstitutionalService, target: HoldersTarget, choice: QuarterChoice, sort: 'value' | 'shares' | 'change', list: string, params: { cursor?: string; limit: number }) {
  const order = 'cik' in target ? HOLDERS_ORDER[sort] : CUSIP_HOLDERS_ORDER;
  const open = paging.open(caller, { cursor: params.cursor, limit: params.limit, direction: 'desc' }, { list, filters: { ...target, period: choice.period, sort }, order, defaultDirection: 'desc' });
  if (!choice.period) return EMPTY;
  return open.body(await service.holders(target, choice.period, sort, open.request), toInstitutionalPosition);
}

/** HTTP side of the 13F read models: typed input in, the service, the resources out. */
export const institutionalApi: RouteModule = {
  routes: institutionalRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new InstitutionalService(new InstitutionalHoldersRepository(dataSource));
    return [
      binder.bind(institutionalRoutes.companyHolders, {
        check: calendarDateCheck('as_of'),
        handle: async ({ principal, query, path }) => {
          const company = await companies.get(path.symbol);
          const target = { cik: company.cik };
          const asOf = query.as_of;
          if (asOf !== undefined) {
            const choice = await service.holdersQuarterAsOf(company.cik, query.quarter, asOf);
            const open = paging.open(
              principal,
              { cursor: query.cursor, limit: query.limit, direction: 'desc' },
              { list: 'institutional-holders', filters: { ...target, period: choice.period, sort: query.sort, as_of: asOf }, order: HOLDERS_ORDER[query.sort], defaultDirection: 'desc' },
            );
            const period = choice.period;
            const [page, cusips] = period
              ? await Promise.all([
                  service.repo.holdersAsOf(company.cik, period, asOf, query.sort, open.request).then((rows) => open.body(rows, toInstitutionalPosition)),
                  service.repo.cusipsAsOf(company.cik, period, asOf),
                ])
              : [EMPTY, []];
            return { ...page, company: toCompanyReference(company), meta: { ...quarterMeta(choice), cusips }, as_of: asOf, gaps: [...INSTITUTIONAL_GAPS, ...institutionalAsOfGaps(asOf)] };
          }
          const choice = await service.holdersQuarter(target, query.quarter);
          const [page, cusips] = await Promise.all([
            holdersPage(paging, principal, service, target, choice, query.sort, 'institutional-holders', query),
            choice.period ? service.repo.cusipsOf(company.cik, choice.period) : Promise.resolve([]),
          ]);
          return { ...page, company: toCompanyReference(company), meta: { ...quarterMeta(choice), cusips }, gaps: [...INSTITUTIONAL_GAPS] };
        },
      }),
      binder.bind(institutionalRoutes.securityHolders, {
        handle: async ({ principal, query, path }) => {
          const cusip = path.cusip.toUpperCase();
          const target = { cusip };
          const [choice, security] = await Promise.all([service.holdersQuarter(target, query.quarter), service.repo.security(cusip)]);
          const page = await holdersPage(paging, principal, service, target, choice, 'value', 'security-holders', query);
          return {
            ...page,
            security: { cusip, issuer: security?.issuer ?? null, class_title: security?.classTitle ?? null, symbol: security?.symbol ?? null },
            meta: quarterMeta(choice),
            gaps: [...INSTITUTIONAL_GAPS],
          };
        },
      }),
      binder.bind(institutionalRoutes.list, {
        handle: async ({ principal, query }) => {
          const q = query.q?.trim();
          const search: ManagerSearch = !q ? {} : /^\d{1,10}$/.test(q) ? { cik: q.padStart(10, '0') } : { name: q };
          const scope = { list: 'institutions', filters: { ...search }, order: MANAGER_SEARCH_ORDER, defaultDirection: 'desc' as const };
          return paging.list(principal, { cursor: query.cursor, limit: query.limit, direction: 'desc' }, scope, (p) => service.repo.searchManagers(search, p), (r) => ({
            ...toInstitution(r),
            score: r.score,
          }));
        },
      }),
      binder.bind(institutionalRoutes.get, {
        handle: async ({ path }) => {
          const manager = await service.manager(path.cik);
          const [quarters, filings] = await Promise.all([service.repo.quartersOf(manager.cik), service.repo.filingsOf(manager.cik)]);
          return toInstitutionDetail(manager, quarters, filings);
        },
      }),
      binder.bind(institutionalRoutes.holdings, {
        handle: async ({ principal, query, path }) => {
          const manager = await service.manager(path.cik);
          const choice = await service.portfolioQuarter(manager.cik, query.quarter);
          const open = paging.open(
            principal,
            { cursor: query.cursor, limit: query.limit, direction: 'desc' },
            { list: 'institution-holdings', filters: { cik: manager.cik, period: choice.period, sort: query.sort }, order: PORTFOLIO_ORDER[query.sort], defaultDirection: 'desc' },
          );
          const page = choice.period ? open.body(await service.portfolio(manager.cik, choice.period, query.sort, open.request), toInstitutionalPosition) : EMPTY;
          return { ...page, institution: toInstitution(manager), meta: quarterMeta(choice), gaps: [...INSTITUTIONAL_GAPS] };
        },
      }),
    ];
  },
};
