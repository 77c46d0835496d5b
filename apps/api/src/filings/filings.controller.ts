import type { FilingListFilter } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { toCompanyReference } from '../companies/companies.mapper';
import type { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { isCalendarDate, QueryParser, valueErrorItem, type ParsedQuery } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toFiling } from './filings.mapper';
import {
  accessionParam,
  companyFilingListSchema,
  companyFilingsParams,
  companyFilingsPath,
  filingListSchema,
  filingSchema,
  filingsListParams,
  type CompanyFilingListBody,
  type FilingBody,
  type FilingListBody,
} from './filings.schemas';
import type { FilingsService } from './filings.service';

const LIST_DESCRIPTION =
  'Keyset-paginated by filing date then accession, newest first by default (`direction=asc` for oldest first). ' +
  '`forms` matches form types exactly (case-insensitive); an amendment (10-K/A) is its own form type. ' +
  "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx.";

export const filingsRoutes = {
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
} satisfies Record<string, RouteDefinition>;

const listParser = new QueryParser(filingsListParams);
const companyParser = new QueryParser(companyFilingsParams);
const companyPathParser = new QueryParser(companyFilingsPath);
const accessionParser = new QueryParser(accessionParam);


interface Page {
  data: FilingBody[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

/** HTTP side of filings: parse and validate, call the service, map to the response shapes. */
export class FilingsController {
  constructor(
    private readonly service: FilingsService,
    private readonly companies: CompaniesService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      { definition: filingsRoutes.list, handler: (req) => this.list(req.query as Record<string, unknown>, req.principal!) },
      {
        definition: filingsRoutes.company,
        handler: (req) => this.companyFilings(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
      { definition: filingsRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) },
    ];
  }

  async list(query: Record<string, unknown>, principal: Principal): Promise<FilingListBody> {
    const items: ValidationItem[] = [];
    const p = listParser.parse(query, items);
    this.validate(p, query, principal, items);
    if (items.length) throw new ValidationError(items);
    const ciks = p.ciks as string[] | undefined;
    const filter: FilingListFilter = {
      ...this.filterOf(p),
      ciks: ciks?.length ? [...new Set(ciks.map((c) => c.replace(/^0+/, '').padStart(10, '0')))].sort() : undefined,
    };
    return this.page('filings', filter, p);
  }

  async companyFilings(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<CompanyFilingListBody> {
    const items: ValidationItem[] = [];
    const path = companyPathParser.parse(params, items, 'path');
    const p = companyParser.parse(query, items);
    this.validate(p, query, principal, items);
    if (items.length) throw new ValidationError(items);
    const company = await this.companies.get(path.symbol as string);
    const filter: FilingListFilter = { ...this.filterOf(p), ciks: [company.cik] };
    const page = await this.page(`company-filings:${company.symbol}`, filter, p);
    return { ...page, company: toCompanyReference(company) };
  }

  async get(params: Record<string, unknown>): Promise<FilingBody> {
    const items: ValidationItem[] = [];
    const p = accessionParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    return toFiling(await this.service.get(p.accession as string));
  }

  private validate(p: ParsedQuery, query: Record<string, unknown>, principal: Principal, items: ValidationItem[]): void {
    for (const name of ['filed_from', 'filed_to'] as const) {
      const v = p[name] as string | undefined;
      if (v !== undefined && !isCalendarDate(v)) items.push(valueErrorItem(['query', name], v, 'Input should be a valid date'));
    }
    const from = p.filed_from as string | undefined;
    const to = p.filed_to as string | undefined;
    if (from && to && isCalendarDate(from) && isCalendarDate(to) && from > to) {
      items.push(valueErrorItem(['query', 'filed_to'], to, 'filed_to must not be before filed_from'));
    }
    const limit = p.limit as number | undefined;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
  }

  private filterOf(p: ParsedQuery): FilingListFilter {
    const forms = p.forms as string[] | undefined;
    return {
      forms: forms?.length ? [...new Set(forms.map((f) => f.trim().toUpperCase()))].sort() : undefined,
      filedFrom: p.filed_from as string | undefined,
      filedTo: p.filed_to as string | undefined,
    };
  }

  /** One keyset page; the cursor carries `<filed_date>|<accession>` of the last row. */
  private async page(endpoint: string, filter: FilingListFilter, p: ParsedQuery): Promise<Page> {
    const f = filterHash(endpoint, { ...filter });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: { filedDate: string; accession: string } | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction });
      const m = decoded ? /^(\d{4}-\d{2}-\d{2})\|(\d{10}-\d{2}-\d{6})$/.exec(decoded.k) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { filedDate: m[1]!, accession: m[2]! };
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.list(filter, direction, p.limit as number, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toFiling),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: `${last.filedDate}|${last.accession}`, d: direction, f }) : null,
        has_more: page.hasMore,
      },
    };
  }
}
