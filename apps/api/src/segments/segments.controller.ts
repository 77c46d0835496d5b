import type { SegmentKeyset } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { toCompanyReference } from '../companies/companies.mapper';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { segmentGaps, toSegmentObservation } from './segments.mapper';
import { segmentsPathParams, segmentsQueryParams, segmentsResponseSchema, type SegmentsResponseBody, type SegmentUnit } from './segments.schemas';
import type { SegmentsService } from './segments.service';

export const segmentsRoutes = {
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/segments',
    operationId: 'listCompanySegments',
    summary: "A company's segment figures",
    description:
      'Segment revenue and operating income read from the inline XBRL of the company\'s 10-Q and 10-K filings (business segments, ' +
      'products or services, geographies), keyset-paginated by period end date (default desc), then metric key and member. ' +
      '`unit` scales value.normalized (million: normalized = raw / 1e6, conversion_factor 1e-6). Every item carries the provenance ' +
      'of the filing: accession, document URL, sha256 of the document and the table row quoted as it stands.',
    tags: ['segments'],
    path: segmentsPathParams,
    query: segmentsQueryParams,
    response: segmentsResponseSchema,
    errors: [404],
  },
} satisfies Record<string, RouteDefinition>;

const pathParser = new QueryParser(segmentsPathParams);
const queryParser = new QueryParser(segmentsQueryParams);

/** Cursor key: the sort tuple of the last row, as JSON. */
function encodeKey(k: SegmentKeyset): string {
  return JSON.stringify([k.periodEnd, k.metricKey, k.member, k.recordKey]);
}

function decodeKey(k: string): SegmentKeyset | null {
  try {
    const v: unknown = JSON.parse(k);
    if (!Array.isArray(v) || v.length !== 4 || !v.every((x) => typeof x === 'string')) return null;
    const [periodEnd, metricKey, member, recordKey] = v;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(periodEnd!)) return null;
    return { periodEnd: periodEnd!, metricKey: metricKey!, member: member!, recordKey: recordKey! };
  } catch {
    return null;
  }
}

/** HTTP side of segments: parse and validate, call the service, map to the spec's shape. */
export class SegmentsController {
  constructor(
    private readonly service: SegmentsService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      {
        definition: segmentsRoutes.list,
        handler: (req) => this.list(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
    ];
  }

  async list(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<SegmentsResponseBody> {
    const items: ValidationItem[] = [];
    const path = pathParser.parse(params, items, 'path');
    const p = queryParser.parse(query, items);
    const limit = p.limit as number;
    const overCap = items.length === 0 ? planLimitItem(limit, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);

    const symbol = (path.symbol as string).toUpperCase();
    const unit = p.unit as SegmentUnit;
    const f = filterHash('segments', { symbol });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: SegmentKeyset | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      const key = decoded ? decodeKey(legacyKey(decoded.k)) : null;
      if (!decoded || !key) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = key;
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.page(symbol, direction, limit, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map((o) => toSegmentObservation(o, unit)),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [encodeKey(last)], d: direction, f }) : null,
        has_more: page.hasMore,
      },
      company: toCompanyReference(page.company),
      _gaps: segmentGaps(page.coverage),
    };
  }
}
