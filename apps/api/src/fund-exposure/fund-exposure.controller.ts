import type { DataSource } from 'typeorm';
import { CompaniesRepository, FundExposureRepository, type FundExposureKey, type FundExposureSort } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { toCompanyReference } from '../companies/companies.mapper';
import { symbolParam } from '../companies/companies.schemas';
import { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { FUND_EXPOSURE_GAPS, toFundExposureEntry } from './fund-exposure.mapper';
import { fundExposureParams, fundExposureSchema, type FundExposureBody } from './fund-exposure.schemas';
import { FundExposureService } from './fund-exposure.service';

export const fundExposureRoutes = {
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/fund-exposure',
    operationId: 'getFundExposure',
    summary: 'Funds holding the company (alpha)',
    description:
      "Funds whose latest N-PORT report holds the company's common equity, largest first by weight (default) or value, " +
      'keyset-paginated. One entry per holding: a fund holding two share classes of the issuer appears twice; `fund_count` counts funds. ' +
      "`limit` above the plan's cap answers 422 less_than_equal. `_gaps` says what N-PORT cannot show.",
    tags: ['funds'],
    path: symbolParam,
    query: fundExposureParams,
    response: fundExposureSchema,
    errors: [404],
  },
} satisfies Record<string, RouteDefinition>;

const symbolParser = new QueryParser(symbolParam);
const queryParser = new QueryParser(fundExposureParams);

/** HTTP side of fund exposure: parse and validate, call the services, map to the spec's shape. */
export class FundExposureController {
  constructor(
    private readonly service: FundExposureService,
    private readonly companies: CompaniesService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      {
        definition: fundExposureRoutes.list,
        handler: (req) => this.list(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
    ];
  }

  async list(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<FundExposureBody> {
    const items: ValidationItem[] = [];
    const path = symbolParser.parse(params, items, 'path');
    const p = queryParser.parse(query, items);
    const limit = p.limit as number;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);
    const company = await this.companies.get(path.symbol as string);
    const sort = p.sort as FundExposureSort;
    const etfsOnly = p.etfs_only as boolean;
    const f = filterHash('fund-exposure', { symbol: company.symbol, sort, etfs_only: etfsOnly });
    let after: FundExposureKey | undefined;
    if (p.cursor !== undefined) {
      after = this.decode(p.cursor as string, f);
      if (!after) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
    }
    const page = await this.service.page(company.cik, sort, etfsOnly, limit, after);
    const last = page.rows[page.rows.length - 1];
    const lastValue = last ? (sort === 'weight' ? last.pctVal : last.valUsd) : null;
    return {
      data: page.rows.map(toFundExposureEntry),
      pagination: {
        next_cursor: page.hasMore && last && lastValue !== null ? this.cursors.encode({ k: [JSON.stringify([lastValue, last.accession, last.holdingIndex])], d: 'desc', f }) : null,
        has_more: page.hasMore,
      },
      company: toCompanyReference(company),
      alpha: true,
      fund_count: page.fundCount,
      _gaps: [...FUND_EXPOSURE_GAPS],
    };
  }

  private decode(cursor: string, f: string): FundExposureKey | undefined {
    const payload = this.cursors.decode(cursor, { f, d: 'desc', order: LEGACY_TEXT_KEY });
    if (!payload) return undefined;
    try {
      const k: unknown = JSON.parse(legacyKey(payload.k));
      if (Array.isArray(k) && k.length === 3 && typeof k[0] === 'string' && /^-?\d+(\.\d+)?$/.test(k[0]) && typeof k[1] === 'string' && Number.isInteger(k[2])) {
        return { value: k[0], accession: k[1], index: k[2] as number };
      }
    } catch {
      return undefined;
    }
    return undefined;
  }
}

/** Wires the fund-exposure controller on the api's DataSource (called from api.context). */
export function createFundExposureController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable): FundExposureController {
  return new FundExposureController(
    new FundExposureService(new FundExposureRepository(dataSource)),
    new CompaniesService(new CompaniesRepository(dataSource)),
    cursors,
    plans,
  );
}
