import { SEGMENTS_ORDER, SegmentsRepository } from '@app/persistence';
import { segmentGaps, segmentsResponseSchema, toCompanyReference, toSegmentObservation } from '@app/resources';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { segmentsPathParams, segmentsQueryParams } from './segments.schemas';
import { SegmentsService } from './segments.service';

export const segmentsRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/companies/:symbol/segments',
    operationId: 'listCompanySegments',
    summary: "A company's segment figures",
    description:
      'Segment revenue and operating income read from the inline XBRL of the company\'s 10-Q and 10-K filings (business segments, ' +
      'products or services, geographies), keyset-paginated by period end date (default desc), then metric key and member. ' +
      '`unit` scales value.normalized (million: normalized = raw / 1e6, conversion_factor 1e-6). Every item carries the provenance ' +
      'of the filing: accession, document URL, sha256 of the document and the table row quoted as it stands, and `reconciliation`: ' +
      "whether its breakdown adds up to the filer's total as the filer's table adds it (segments alone or with corporate, eliminations " +
      'and other reconciling rows), with the difference.',
    tags: ['segments'],
    path: segmentsPathParams,
    query: segmentsQueryParams,
    response: segmentsResponseSchema,
    errors: [404],
  },
});

/** HTTP side of segments: typed input in, the service, the spec's shape out. */
export const segmentsApi: RouteModule = {
  routes: segmentsRoutes,
  bind({ binder, paging, companies, dataSource }) {
    const service = new SegmentsService(new SegmentsRepository(dataSource), companies);
    return [
      binder.bind(segmentsRoutes.list, {
        handle: async ({ principal, path, query }) => {
          const symbol = path.symbol.toUpperCase();
          // The cursor first: a bad cursor answers 422 before an unknown symbol's 404.
          const open = paging.open(principal, query, { list: 'segments', filters: { symbol }, order: SEGMENTS_ORDER, defaultDirection: 'desc' });
          const found = await service.page(symbol, open.request);
          return { ...open.body(found.page, (o) => toSegmentObservation(o, query.unit)), company: toCompanyReference(found.company), gaps: segmentGaps(found.coverage) };
        },
      }),
    ];
  },
};
