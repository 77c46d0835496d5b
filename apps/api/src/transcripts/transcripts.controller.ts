import { TRANSCRIPTS_ORDER, TranscriptsRepository, type TranscriptListFilter, type TranscriptRecord } from '@app/persistence';
import { toTranscript, toTranscriptDetail, transcriptDetailSchema, transcriptListSchema } from '@app/resources';
import type { ListScope } from '../platform/paging';
import { dateRangeCheck } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { transcriptIdParam, transcriptsListParams } from './transcripts.schemas';
import { TranscriptsService } from './transcripts.service';

export const transcriptsRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/transcripts',
    operationId: 'listTranscripts',
    summary: 'List call transcripts',
    description:
      "Earnings-call transcripts the issuers publish on their IR sites that passed the serving gate, newest call first (`direction=asc` for oldest " +
      "first); `from`/`to` bound the call date. `limit` above the plan's cap answers 422 less_than_equal.",
    tags: ['transcripts'],
    query: transcriptsListParams,
    response: transcriptListSchema,
  },
  get: {
    method: 'GET',
    url: '/v1/transcripts/:transcript_id',
    operationId: 'getTranscript',
    summary: 'One call transcript',
    description:
      "A transcript by id: the call, its participants and its speaker turns in order, each with its section, page and offsets into the document's " +
      'text (the turn\'s text is text.slice(char_start, char_end)). 404 `unknown-transcript` when there is none.',
    tags: ['transcripts'],
    path: transcriptIdParam,
    response: transcriptDetailSchema,
    errors: [404],
  },
});


/** HTTP side of transcripts: typed input in, the service, the response shapes out. */
export const transcriptsApi: RouteModule = {
  routes: transcriptsRoutes,
  bind({ binder, paging, dataSource }) {
    const service = new TranscriptsService(new TranscriptsRepository(dataSource));
    return [
      binder.bind(transcriptsRoutes.list, {
        check: dateRangeCheck('from', 'to'),
        handle: ({ principal, query }) => {
          const filter: TranscriptListFilter = {
            symbols: query.symbols?.length ? [...new Set(query.symbols.map((s) => s.toUpperCase()))].sort() : undefined,
            from: query.from,
            to: query.to,
          };
          const scope: ListScope<TranscriptRecord> = { list: 'transcripts', filters: { ...filter }, order: TRANSCRIPTS_ORDER, defaultDirection: 'desc' };
          return paging.list(principal, query, scope, (page) => service.list(filter, page), toTranscript);
        },
      }),
      binder.bind(transcriptsRoutes.get, { handle: async ({ path }) => toTranscriptDetail(await service.get(path.transcript_id)) }),
    ];
  },
};
