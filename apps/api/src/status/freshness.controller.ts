import { FilingFreshnessRepository } from '@app/persistence';
import { freshnessSchema, toFreshness } from '@app/resources';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { freshnessParams } from './freshness.schemas';
import { FreshnessService } from './freshness.service';

export const freshnessRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/v1/status/freshness',
    operationId: 'getFreshness',
    summary: 'How fast new filings get through the pipeline',
    description:
      "Over the last `last` filings live discovery found (newest EDGAR acceptance first; `form` limits them to one form type), the median and 95th " +
      "percentile of the lag from EDGAR's acceptance to each stage: first seen by a poller, published to Kafka, served by this API, webhook event " +
      'written, first delivery attempt, first successful delivery; overall and per form. Percentiles are percentile_cont (interpolated), in seconds ' +
      'to the millisecond, over the filings that reached each stage. Backfilled filings are never counted. Computed on each request; the ' +
      'filing_freshness_seconds histogram of each process carries the same stages.',
    tags: ['status'],
    query: freshnessParams,
    response: freshnessSchema,
  },
});

/** HTTP side of freshness: the typed query in, the service, the response shape out. */
export const freshnessApi: RouteModule = {
  routes: freshnessRoutes,
  bind({ binder, dataSource }) {
    const service = new FreshnessService(new FilingFreshnessRepository(dataSource));
    return [binder.bind(freshnessRoutes.get, { handle: async ({ query }) => toFreshness(await service.get(query.last, query.form)) })];
  },
};
