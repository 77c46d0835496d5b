import type { DataSource } from 'typeorm';
import { WebhookEndpointsRepository } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { parseBody } from '../platform/body.validation';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { QueryParser, valueErrorItem, type ParamSpecs, type ParamValues } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toDelivery, toEndpoint, toEvent } from './webhooks.mapper';
import { WebhookSamples } from './webhooks.samples';
import {
  createdEndpointSchema,
  createEndpointBody,
  deliveryListParams,
  deliveryListSchema,
  deliveryPathParams,
  endpointIdParam,
  endpointListParams,
  endpointListSchema,
  endpointSchema,
  eventListParams,
  eventListSchema,
  recoverBody,
  recoverResultSchema,
  retryResultSchema,
  rotatedSecretSchema,
  testEventBody,
  testEventResultSchema,
  updateEndpointBody,
  WEBHOOK_TOPICS,
  type CreatedEndpointBody,
  type DeliveryListBody,
  type EndpointBody,
  type EndpointListBody,
  type EventListBody,
} from './webhooks.schemas';
import { WebhooksService, type WebhooksSettings } from './webhooks.service';

const PLAN = 'Builder plan and above: a free-plan or sk_test_ key answers 403 `plan-required`.';
const NOT_FOUND = "Another account's endpoint, or a deleted one, is 404 `unknown-webhook-endpoint`.";
const UNAVAILABLE = '503 `webhooks-unavailable` when the deployment has no WEBHOOK_SECRETS_KEY.';

export const webhookRoutes = {
  create: {
    method: 'POST',
    url: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      `Registers an https URL for the given topics (${WEBHOOK_TOPICS.join(', ')}). Answers 201 with the endpoint and its ` +
      '`signing_secret` (whsec_...), shown only in this response: deliveries are signed with the Standard Webhooks scheme ' +
      '(headers webhook-id, webhook-timestamp, webhook-signature), so any Standard Webhooks library verifies them. The URL must be ' +
      'https and resolve to public addresses only (422 otherwise). ' + `${PLAN} ${UNAVAILABLE}`,
    tags: ['webhooks'],
    body: createEndpointBody,
    response: createdEndpointSchema,
    status: 201,
    location: (body) => `/v1/webhook-endpoints/${(body as CreatedEndpointBody).id}`,
    errors: [403, 503],
  },
  list: {
    method: 'GET',
    url: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    summary: "The account's webhook endpoints",
    description: 'Keyset-paginated by created_at then id, newest first by default. Secrets are never listed.',
    tags: ['webhooks'],
    query: endpointListParams,
    response: endpointListSchema,
    errors: [503],
  },
  get: {
    method: 'GET',
    url: '/v1/webhook-endpoints/:id',
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint',
    description: `The endpoint without its secret. ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    response: endpointSchema,
    errors: [404, 503],
  },
  update: {
    method: 'PATCH',
    url: '/v1/webhook-endpoints/:id',
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Changes url, topics, description or enabled (only the fields sent). enabled=false pauses deliveries (disabled_reason manual); ' +
      `enabled=true re-enables an endpoint disabled for any reason and clears its failure streak. ${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    body: updateEndpointBody,
    response: endpointSchema,
    errors: [403, 404, 503],
  },
  delete: {
    method: 'DELETE',
    url: '/v1/webhook-endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: `Stops deliveries for good (pending ones are marked failed); answers 204. ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    status: 204,
    errors: [404, 503],
  },
  rotate: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: "Rotate an endpoint's signing secret",
    description:
      'Makes a new signing secret, shown only in this response. The previous one keeps signing alongside it for 24 hours ' +
      `(webhook-signature then carries two space-separated signatures), so receivers can switch without losing deliveries. ${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    response: rotatedSecretSchema,
    errors: [403, 404, 503],
  },
  test: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/test',
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event',
    description:
      "Queues a test event for this endpoint now and answers 202 with its event id (the deliveries' webhook-id) and delivery id. " +
      "With `topic`, the payload is a realistic sample of that topic's data (the newest such resource, as the API serves it) marked " +
      '`"test": true`; without, a `webhook.test` ping. Test events appear in /v1/events for this account only. ' + `${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    body: testEventBody,
    response: testEventResultSchema,
    status: 202,
    errors: [403, 404, 503],
  },
  deliveries: {
    method: 'GET',
    url: '/v1/webhook-endpoints/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's deliveries",
    description:
      'Newest first, keyset-paginated: each delivery with its state, event, every attempt (time, status code, duration, response excerpt, ' +
      `error, next attempt) and latency figures from the source record to the event and to the attempts. ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    query: deliveryListParams,
    response: deliveryListSchema,
    errors: [404, 503],
  },
  retry: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/deliveries/:delivery_id/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Retry a delivery',
    description: `Sets the delivery pending and due now (same event, same webhook-id); 202. ${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: deliveryPathParams,
    response: retryResultSchema,
    status: 202,
    errors: [403, 404, 503],
  },
  recover: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/recover',
    operationId: 'recoverWebhookDeliveries',
    summary: 'Requeue failed deliveries',
    description: `Sets every failed delivery of the endpoint created at or after \`since\` pending and due now; answers 202 with the count. ${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    body: recoverBody,
    response: recoverResultSchema,
    status: 202,
    errors: [403, 404, 503],
  },
} satisfies Record<string, RouteDefinition>;

export const eventRoutes = {
  list: {
    method: 'GET',
    url: '/v1/events',
    operationId: 'listEvents',
    summary: 'Events feed',
    description:
      'The events the webhooks push (same ids as their webhook-id), oldest first in the order they were made, so a subscriber can fill ' +
      'any gap. Unlike other lists, `next_cursor` is set even on the last page (null only when there has never been an event to pass): keep ' +
      'it and call again later to get what happened since; `has_more` says whether more are waiting now. Test events appear only to their account.',
    tags: ['webhooks'],
    query: eventListParams,
    response: eventListSchema,
  },
} satisfies Record<string, RouteDefinition>;

const endpointListParser = new QueryParser(endpointListParams);
const deliveryListParser = new QueryParser(deliveryListParams);
const eventListParser = new QueryParser(eventListParams);
const idParser = new QueryParser(endpointIdParam);
const deliveryPathParser = new QueryParser(deliveryPathParams);

const KEYSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([a-z]+_[0-9a-f]{24})$/;

type Req = { params: unknown; query: unknown; body: unknown; principal: Principal | null };

/** HTTP side of webhooks: parse and validate, call the service, map to the response shapes. */
export class WebhooksController {
  constructor(
    private readonly service: WebhooksService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    const r = webhookRoutes;
    const bind = (definition: RouteDefinition, fn: (req: Req) => Promise<unknown>): BoundRoute => ({ definition, handler: (req) => fn(req) });
    return [
      bind(r.create, (req) => this.create(req)),
      bind(r.list, (req) => this.list(req)),
      bind(r.get, async (req) => toEndpoint(await this.service.get(req.principal!, this.id(req))) satisfies EndpointBody),
      bind(r.update, (req) => this.update(req)),
      bind(r.delete, (req) => this.service.delete(req.principal!, this.id(req))),
      bind(r.rotate, (req) => this.rotate(req)),
      bind(r.test, (req) => this.test(req)),
      bind(r.deliveries, (req) => this.deliveries(req)),
      bind(r.retry, (req) => this.retry(req)),
      bind(r.recover, (req) => this.recover(req)),
      bind(eventRoutes.list, (req) => this.events(req)),
    ];
  }

  private id(req: Req): string {
    const items: ValidationItem[] = [];
    const p = idParser.parse(req.params as Record<string, unknown>, items, 'path');
    if (items.length) throw new ValidationError(items);
    return p.id as string;
  }

  async create(req: Req): Promise<CreatedEndpointBody> {
    this.service.available();
    this.service.requirePlan(req.principal!);
    const input = parseBody(createEndpointBody, req.body);
    const { endpoint, secret } = await this.service.create(req.principal!, input);
    return { ...toEndpoint(endpoint), signing_secret: secret };
  }

  async list(req: Req): Promise<EndpointListBody> {
    const query = req.query as Record<string, unknown>;
    const items: ValidationItem[] = [];
    const p = endpointListParser.parse(query, items);
    this.checkLimit(p, query, req.principal!, items);
    if (items.length) throw new ValidationError(items);
    const f = filterHash('webhook-endpoints', {});
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: { sortKey: string; id: string } | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      const m = decoded ? KEYSET.exec(legacyKey(decoded.k)) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { sortKey: m[1]!, id: m[2]! };
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.list(req.principal!, direction, p.limit as number, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toEndpoint),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [`${last.sortKey}|${last.id}`], d: direction, f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async update(req: Req): Promise<EndpointBody> {
    const id = this.id(req);
    this.service.available();
    this.service.requirePlan(req.principal!);
    const input = parseBody(updateEndpointBody, req.body);
    return toEndpoint(await this.service.update(req.principal!, id, input));
  }

  async rotate(req: Req): Promise<{ id: string; signing_secret: string; previous_secret_expires_at: string | null }> {
    const id = this.id(req);
    const r = await this.service.rotate(req.principal!, id);
    return { id, signing_secret: r.secret, previous_secret_expires_at: r.previousExpiresAt ? r.previousExpiresAt.toISOString() : null };
  }

  async test(req: Req): Promise<{ event_id: string; delivery_id: string }> {
    const id = this.id(req);
    this.service.available();
    this.service.requirePlan(req.principal!);
    const input = parseBody(testEventBody, req.body, { optional: true });
    const r = await this.service.sendTest(req.principal!, id, input.topic);
    return { event_id: r.eventId, delivery_id: r.deliveryId };
  }

  async deliveries(req: Req): Promise<DeliveryListBody> {
    const id = this.id(req);
    const query = req.query as Record<string, unknown>;
    const items: ValidationItem[] = [];
    const p = deliveryListParser.parse(query, items);
    this.checkLimit(p, query, req.principal!, items);
    if (items.length) throw new ValidationError(items);
    const f = filterHash('webhook-deliveries', { id, status: p.status ?? null });
    let after: { sortKey: string; id: string } | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: 'desc', order: LEGACY_TEXT_KEY });
      const m = decoded ? KEYSET.exec(legacyKey(decoded.k)) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { sortKey: m[1]!, id: m[2]! };
    }
    const page = await this.service.deliveries(req.principal!, id, p.status as string | undefined, p.limit as number, after);
    const last = page.rows[page.rows.length - 1]?.delivery;
    return {
      data: page.rows.map((r) => toDelivery(r.delivery, r.attempts)),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [`${last.sortKey}|${last.id}`], d: 'desc', f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async retry(req: Req): Promise<{ delivery_id: string; status: 'pending'; next_attempt_at: string }> {
    const items: ValidationItem[] = [];
    const p = deliveryPathParser.parse(req.params as Record<string, unknown>, items, 'path');
    if (items.length) throw new ValidationError(items);
    const due = await this.service.retry(req.principal!, p.id as string, p.delivery_id as string);
    return { delivery_id: p.delivery_id as string, status: 'pending', next_attempt_at: due.toISOString() };
  }

  async recover(req: Req): Promise<{ requeued: number; since: string }> {
    const id = this.id(req);
    this.service.available();
    this.service.requirePlan(req.principal!);
    const input = parseBody(recoverBody, req.body);
    const since = new Date(input.since);
    return { requeued: await this.service.recover(req.principal!, id, since), since: since.toISOString() };
  }

  async events(req: Req): Promise<EventListBody> {
    const query = req.query as Record<string, unknown>;
    const items: ValidationItem[] = [];
    const p = eventListParser.parse(query, items);
    this.checkLimit(p, query, req.principal!, items);
    if (items.length) throw new ValidationError(items);
    const types = p.types as string[] | undefined;
    const normalized = types?.length ? [...new Set(types)].sort() : undefined;
    const f = filterHash('events', { types: normalized ?? null });
    let afterSeq: string | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: 'asc', order: LEGACY_TEXT_KEY });
      if (!decoded || !/^\d{1,19}$/.test(legacyKey(decoded.k))) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      afterSeq = legacyKey(decoded.k);
    }
    const page = await this.service.events(req.principal!, normalized, p.limit as number, afterSeq);
    const lastSeq = page.rows[page.rows.length - 1]?.seq ?? afterSeq;
    return {
      data: page.rows.map(toEvent),
      // A feed's position: even at the end the cursor is kept, so the subscriber resumes from it later.
      pagination: { next_cursor: lastSeq !== undefined ? this.cursors.encode({ k: [lastSeq], d: 'asc', f }) : null, has_more: page.hasMore },
    };
  }

  private checkLimit(p: ParamValues<ParamSpecs>, query: Record<string, unknown>, principal: Principal, items: ValidationItem[]): void {
    const overCap = items.length === 0 ? planLimitItem(p.limit as number | undefined, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
  }
}

/** Wires the webhooks controller on the api's DataSource (called from api.context). */
export function createWebhooksController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable, settings: WebhooksSettings): WebhooksController {
  return new WebhooksController(new WebhooksService(new WebhookEndpointsRepository(dataSource), new WebhookSamples(dataSource), settings), cursors, plans);
}
