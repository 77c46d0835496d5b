import { keysetInMemory, keysetOrder, XbrlFactsRepository } from '@app/persistence';
import { factGaps, factListSchema, financialStatementSchema, toCompanyReference, toFact, toFactConcept, toFinancialStatement, type ReportInHistory } from '@app/resources';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { calendarDateCheck } from '../platform/query.validation';
import { factsPathParams, factsQueryParams, financialsQueryParams } from './facts.schemas';
import { FactsService } from './facts.service';

/**
 * The facts list's order: period end, start (instants: ''), unit, dimensions; a value's reports
 * oldest first whatever the direction (filed, accession reversed against it). Paged in memory: one
 * concept's values of one company are a few hundred at most.
 */
export const FACTS_ORDER = keysetOrder<ReportInHistory>(
  { sql: 'period_end', type: 'date', of: (h) => h.report.periodEnd },
  { sql: 'period_start', type: 'text', of: (h) => h.report.periodStart ?? '' },
  { sql: 'unit', type: 'text', of: (h) => h.report.unit },
  { sql: 'dimensions', type: 'text', of: (h) => JSON.stringify(Object.entries(h.report.dimensions).sort()) },
  { sql: 'filed', type: 'date', of: (h) => h.report.filed, reverse: true },
  { sql: 'accession', type: 'text', of: (h) => h.report.accession, reverse: true },
);

export const factsRoutes = defineRoutes({
  facts: {
    method: 'GET',
    url: '/v1/companies/:symbol/facts',
    operationId: 'listCompanyFacts',
    summary: "A company's values of one XBRL concept, as of a day",
    description:
      'Every value (unit, period, dimensions) the company reported for one XBRL concept, from SEC company facts and the inline XBRL of its filings, ' +
      'each with the filing that reported it (accession, form, filed date, fiscal year and period, frame). Without as_of, each value is its latest report; ' +
      'with `as_of=YYYY-MM-DD`, the latest report filed on or before that day (a value first reported later is left out). `history=true` lists every ' +
      'report, marked first_reported, restated (the value differs from the report before it) or reaffirmed. Keyset-paginated by period end (default desc).',
    tags: ['financials'],
    path: factsPathParams,
    query: factsQueryParams,
    response: factListSchema,
    errors: [404],
  },
  financials: {
    method: 'GET',
    url: '/v1/companies/:symbol/financials',
    operationId: 'getCompanyFinancials',
    summary: "A company's standard income statement, balance sheet or cash flow statement, as of a day",
    description:
      'About 40 standard line items built from the XBRL facts the company reported, by fiscal year or quarter, newest first (`limit` periods). ' +
      "Each line item names its chain of candidate concepts; each value the concept it came from (the first of the chain the filer reported for that period), the filer's label, " +
      'and the filing that reported it, or how it was derived: a fourth quarter no filing reports is the year minus nine months (or minus its three quarters); ' +
      'free cash flow is operating cash flow minus capital expenditure. A value that cannot be had is null with the reason (gap, gaps); ' +
      'a reported value that disagrees with the same value derived is flagged. `as_of` builds the statement from the reports filed by that day.',
    tags: ['financials'],
    path: factsPathParams,
    query: financialsQueryParams,
    response: financialStatementSchema,
    errors: [404],
  },
});

/** HTTP side of XBRL facts and statements. */
export const factsApi: RouteModule = {
  routes: factsRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new FactsService(new XbrlFactsRepository(dataSource), companies);
    return [
      binder.bind(factsRoutes.facts, {
        check: calendarDateCheck('as_of'),
        handle: async ({ principal, path, query }) => {
          const symbol = path.symbol.toUpperCase();
          const filters = { symbol, concept: query.concept, period: query.period, as_of: query.as_of ?? null, history: query.history, dimensioned: query.dimensioned };
          // The cursor first: a bad cursor answers 422 before an unknown symbol's 404.
          const open = paging.open(principal, query, { list: 'facts', filters, order: FACTS_ORDER, defaultDirection: 'desc' });
          const found = await service.facts(symbol, { concept: query.concept, period: query.period, asOf: query.as_of, history: query.history, dimensioned: query.dimensioned });
          return {
            ...open.body(keysetInMemory(FACTS_ORDER, found.items, open.request), (h) => toFact(h, query.unit, found.concept.label)),
            company: toCompanyReference(found.company),
            concept: toFactConcept(found.concept),
            as_of: query.as_of ?? null,
            history: query.history,
            gaps: factGaps(found.concept, query.dimensioned),
          };
        },
      }),
      binder.bind(factsRoutes.financials, {
        check: calendarDateCheck('as_of'),
        handle: async ({ path, query }) => {
          const symbol = path.symbol.toUpperCase();
          const { company, built } = await service.statement(symbol, query.statement, query.period, query.as_of, query.limit);
          return { company: toCompanyReference(company), ...toFinancialStatement(built, query.as_of ?? null, query.unit) };
        },
      }),
    ];
  },
};
