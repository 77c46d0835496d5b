import type { DataSource } from 'typeorm';
import { CompaniesRepository, InsiderTransactionsRepository, type InsiderTransactionFilter, type InsiderTransactionKey } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { toCompanyReference } from '../companies/companies.mapper';
import { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { isCalendarDate, QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toInsiderTransaction } from './insiders.mapper';
import { insiderListSchema, insidersParams, insidersPath, type InsiderListBody } from './insiders.schemas';
import { InsidersService } from './insiders.service';

export const insidersRoutes = {
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
} satisfies Record<string, RouteDefinition>;

const pathParser = new QueryParser(insidersPath);
const queryParser = new QueryParser(insidersParams);
const CURSOR_KEY = /^(\d{4}-\d{2}-\d{2})\|(\d{10}-\d{2}-\d{6})\|(non_derivative|derivative)\|(\d{1,9})$/;


/** HTTP side of the insider list: parse and validate, call the services, map to the response shape. */
export class InsidersController {
  constructor(
    private readonly service: InsidersService,
    private readonly companies: CompaniesService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      {
        definition: insidersRoutes.list,
        handler: (req) => this.list(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
    ];
  }

  async list(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<InsiderListBody> {
    const items: ValidationItem[] = [];
    const path = pathParser.parse(params, items, 'path');
    const p = queryParser.parse(query, items);
    for (const name of ['from', 'to'] as const) {
      const v = p[name] as string | undefined;
      if (v !== undefined && !isCalendarDate(v)) items.push(valueErrorItem(['query', name], v, 'Input should be a valid date'));
    }
    const from = p.from as string | undefined;
    const to = p.to as string | undefined;
    if (from && to && isCalendarDate(from) && isCalendarDate(to) && from > to) items.push(valueErrorItem(['query', 'to'], to, 'to must not be before from'));
    const limit = p.limit as number;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);

    const company = await this.companies.get(path.symbol as string);
    const owner = (p.owner as string | undefined)?.trim();
    const codes = p.codes as string[] | undefined;
    const classifications = p.classification as string[] | undefined;
    const filter: InsiderTransactionFilter = {
      cik: company.cik,
      ownerCik: owner && /^\d{1,10}$/.test(owner) ? owner.padStart(10, '0') : undefined,
      ownerName: owner && !/^\d{1,10}$/.test(owner) ? owner : undefined,
      codes: codes?.length ? [...new Set(codes.map((c) => c.toUpperCase()))].sort() : undefined,
      classifications: classifications?.length ? [...new Set(classifications)].sort() : undefined,
      from,
      to,
      derivative: p.derivative as boolean | undefined,
      kind: p.kind as 'transaction' | 'holding' | undefined,
      includeSuperseded: p.include_superseded as boolean,
    };

    const f = filterHash(`company-insiders:${company.symbol}`, { ...filter });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: InsiderTransactionKey | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      const m = decoded ? CURSOR_KEY.exec(legacyKey(decoded.k)) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { sortDate: m[1]!, accession: m[2]!, rowTable: m[3]!, sequence: Number(m[4]) };
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.list(filter, direction, limit, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toInsiderTransaction),
      pagination: {
        next_cursor:
          page.hasMore && last ? this.cursors.encode({ k: [`${last.sortDate}|${last.accession}|${last.rowTable}|${last.sequence}`], d: direction, f }) : null,
        has_more: page.hasMore,
      },
      company: toCompanyReference(company),
    };
  }
}

/** Wires the insiders controller on the api's DataSource (called from api.context). */
export function createInsidersController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable): InsidersController {
  return new InsidersController(
    new InsidersService(new InsiderTransactionsRepository(dataSource)),
    new CompaniesService(new CompaniesRepository(dataSource)),
    cursors,
    plans,
  );
}
