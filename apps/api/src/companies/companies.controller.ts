import type { CompanyListFilter } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import type { PlanTable } from '../rate-limit/plans';
import { planLimitItem } from '../rate-limit/plans';
import { toCompanyDetail, toCompanyReference } from './companies.mapper';
import { companiesListParams, companyDetailSchema, companyListSchema, symbolParam, type CompanyDetailBody, type CompanyListBody } from './companies.schemas';
import type { CompaniesService } from './companies.service';

export const companiesRoutes = {
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
    description: 'Reference fields plus detail and provenance; `_gaps` explains every field that is null.',
    tags: ['companies'],
    path: symbolParam,
    response: companyDetailSchema,
    errors: [404],
  },
} satisfies Record<string, RouteDefinition>;

const listParser = new QueryParser(companiesListParams);
const symbolParser = new QueryParser(symbolParam);

const upper = (xs: string[] | undefined): string[] | undefined => (xs?.length ? [...new Set(xs.map((x) => x.toUpperCase()))].sort() : undefined);

/** HTTP side of companies: parse and validate, call the service, map to the spec's shapes. */
export class CompaniesController {
  constructor(
    private readonly service: CompaniesService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      { definition: companiesRoutes.list, handler: (req) => this.list(req.query as Record<string, unknown>, req.principal!) },
      { definition: companiesRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) },
    ];
  }

  async list(query: Record<string, unknown>, principal: Principal): Promise<CompanyListBody> {
    const items: ValidationItem[] = [];
    const p = listParser.parse(query, items);
    const limit = p.limit as number;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);

    const filter: CompanyListFilter = {
      q: p.q as string | undefined,
      markets: upper(p.markets as string[] | undefined),
      tickers: upper(p.tickers as string[] | undefined),
      ciks: (p.ciks as string[] | undefined)?.length ? [...new Set((p.ciks as string[]).map((c) => c.padStart(10, '0')))].sort() : undefined,
      isins: upper(p.isins as string[] | undefined),
      figis: upper(p.figis as string[] | undefined),
      issuerIds: (p.issuer_ids as number[] | undefined)?.length ? [...new Set(p.issuer_ids as number[])].sort((a, b) => a - b) : undefined,
      activeOnly: p.active_only as boolean,
    };
    const f = filterHash('companies', { ...filter, q: filter.q?.toLowerCase() });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: string | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      if (!decoded) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = legacyKey(decoded.k);
      direction = decoded.d;
    }
    direction ??= 'asc';
    const page = await this.service.list(filter, direction, limit, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toCompanyReference),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [last.symbol], d: direction, f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async get(params: Record<string, unknown>): Promise<CompanyDetailBody> {
    const items: ValidationItem[] = [];
    const p = symbolParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    return toCompanyDetail(await this.service.get(p.symbol as string));
  }
}
