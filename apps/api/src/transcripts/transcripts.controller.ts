import type { DataSource } from 'typeorm';
import { TranscriptsRepository, type TranscriptListFilter } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { isCalendarDate, QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toTranscript, toTranscriptDetail } from './transcripts.mapper';
import { transcriptDetailSchema, transcriptIdParam, transcriptListSchema, transcriptsListParams, type TranscriptDetailBody, type TranscriptListBody } from './transcripts.schemas';
import { TranscriptsService } from './transcripts.service';

export const transcriptsRoutes = {
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
} satisfies Record<string, RouteDefinition>;

const listParser = new QueryParser(transcriptsListParams);
const idParser = new QueryParser(transcriptIdParam);

const CURSOR_KEY = /^(\d{4}-\d{2}-\d{2})\|(\d{1,10})$/;


/** HTTP side of transcripts: parse and validate, call the service, map to the response shapes. */
export class TranscriptsController {
  constructor(
    private readonly service: TranscriptsService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      { definition: transcriptsRoutes.list, handler: (req) => this.list(req.query as Record<string, unknown>, req.principal!) },
      { definition: transcriptsRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) },
    ];
  }

  async list(query: Record<string, unknown>, principal: Principal): Promise<TranscriptListBody> {
    const items: ValidationItem[] = [];
    const p = listParser.parse(query, items);
    for (const name of ['from', 'to'] as const) {
      const v = p[name] as string | undefined;
      if (v !== undefined && !isCalendarDate(v)) items.push(valueErrorItem(['query', name], v, 'Input should be a valid date'));
    }
    const from = p.from as string | undefined;
    const to = p.to as string | undefined;
    if (from && to && isCalendarDate(from) && isCalendarDate(to) && from > to) items.push(valueErrorItem(['query', 'to'], to, 'to must not be before from'));
    const overCap = items.length === 0 ? planLimitItem(p.limit as number | undefined, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);

    const symbols = p.symbols as string[] | undefined;
    const filter: TranscriptListFilter = {
      symbols: symbols?.length ? [...new Set(symbols.map((s) => s.toUpperCase()))].sort() : undefined,
      from,
      to,
    };
    const f = filterHash('transcripts', { ...filter });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: { callDate: string; id: number } | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      const m = decoded ? CURSOR_KEY.exec(legacyKey(decoded.k)) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { callDate: m[1]!, id: Number(m[2]) };
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.list(filter, direction, p.limit as number, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toTranscript),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [`${last.callDate}|${last.id}`], d: direction, f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async get(params: Record<string, unknown>): Promise<TranscriptDetailBody> {
    const items: ValidationItem[] = [];
    const path = idParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    return toTranscriptDetail(await this.service.get(path.transcript_id as number));
  }
}

/** Wires the transcripts controller on the api's DataSource (called from api.context). */
export function createTranscriptsController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable): TranscriptsController {
  return new TranscriptsController(new TranscriptsService(new TranscriptsRepository(dataSource)), cursors, plans);
}
