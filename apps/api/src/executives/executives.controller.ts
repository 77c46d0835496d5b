import type { DataSource } from 'typeorm';
import { CompaniesRepository, RosterRepository } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { toCompanyReference } from '../companies/companies.mapper';
import { symbolParam } from '../companies/companies.schemas';
import { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { QueryParser } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toRosterEntry } from './executives.mapper';
import { executivesParams, executivesSchema, type ExecutivesBody } from './executives.schemas';
import { ExecutivesService } from './executives.service';

export const executivesRoutes = {
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/executives',
    operationId: 'listCompanyExecutives',
    summary: "A company's executives, IR contacts or analysts",
    description:
      "The issuer's roster of one category, by rank then name, with the company reference; no pagination (`limit` caps the list). " +
      "Entries come from the issuer's own IR pages (source_provider issuer_page) and, for executives, from the reporting owners " +
      'of Forms 4 filed as officer or director (source_provider sec: name as filed, role the officer title or Director, provenance the filing). ' +
      'One entry per person: when both sources know a person (same words of the name, in any order), the issuer page entry is shown, unless the page ' +
      'no longer lists them while a later Form 4 shows them as officer or director. Executives are ranked by position: the issuer page\'s order, then people ' +
      'only Form 4 shows by seniority, directors last. An issuer-page person the latest roster no longer lists has is_current false; an SEC person ' +
      'is current while a Form 4 filed in the last 18 months shows them as officer or director and no later one shows them without it ' +
      '(current_only=false shows the others). ' +
      "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx.",
    tags: ['companies'],
    path: symbolParam,
    query: executivesParams,
    response: executivesSchema,
    errors: [404],
  },
} satisfies Record<string, RouteDefinition>;

const symbolParser = new QueryParser(symbolParam);
const queryParser = new QueryParser(executivesParams);

/** HTTP side of the roster: parse and validate, call the services, map to the spec's shape. */
export class ExecutivesController {
  constructor(
    private readonly service: ExecutivesService,
    private readonly companies: CompaniesService,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      {
        definition: executivesRoutes.list,
        handler: (req) => this.list(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
    ];
  }

  async list(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<ExecutivesBody> {
    const items: ValidationItem[] = [];
    const path = symbolParser.parse(params, items, 'path');
    const p = queryParser.parse(query, items);
    const limit = p.limit as number;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);
    const company = await this.companies.get(path.symbol as string);
    const rows = await this.service.list(company.cik, p.category as string, p.current_only as boolean, limit);
    return { company: toCompanyReference(company), data: rows.map(toRosterEntry) };
  }
}

/** Wires the executives controller on the api's DataSource (called from api.context). */
export function createExecutivesController(dataSource: DataSource, plans: PlanTable): ExecutivesController {
  return new ExecutivesController(new ExecutivesService(new RosterRepository(dataSource)), new CompaniesService(new CompaniesRepository(dataSource)), plans);
}
