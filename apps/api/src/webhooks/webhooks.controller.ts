import { WEBHOOK_DELIVERIES_ORDER, WEBHOOK_ENDPOINTS_ORDER, WEBHOOK_EVENTS_ORDER, WebhookEndpointsRepository, type EventRecord } from '@app/persistence';
import {
  createdEndpointSchema,
  deliveryListSchema,
  endpointListSchema,
  endpointSchema,
  eventListSchema,
  recoverResultSchema,
  retryResultSchema,
  rotatedSecretSchema,
  testEventResultSchema,
  toDelivery,
  toEndpoint,
  toEvent,
  WEBHOOK_TOPICS,
  type CreatedEndpointBody,
} from '@app/resources';
import type { Principal } from '../auth/api-keys.service';
import type { ListScope } from '../platform/paging';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { WebhookSamples } from './webhooks.samples';
import {
  createEndpointBody,
  deliveryListParams,
  deliveryPathParams,
  endpointIdParam,
  endpointListParams,
  eventListParams,
  recoverBody,
  testEventBody,
  updateEndpointBody,
} from './webhooks.schemas';
import { WebhooksService } from './webhooks.service';

const PLAN = 'Builder plan and above: a free-plan or sk_test_ key answers 403 `plan-required`.';
const NOT_FOUND = "Another account's endpoint, or a deleted one, is 404 `unknown-webhook-endpoint`.";
const UNAVAILABLE = '503 `webhooks-unavailable` when the deployment has no WEBHOOK_SECRETS_KEY.';

export const webhookRoutes = defineRoutes({
  create: {
    method: 'POST',
    url: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      `Registers an https URL for the given topics (${WEBHOOK_TOPICS.join(', ')}). Answers 201 with the endpoint and its ` +
      '`signing_secret` (whsec_...), shown only in this response: deliveries are signed with the Standard Webhooks scheme ' +
      '(headers webhook-id, webhook-timestamp, webhook-signature), so any Standard Webhooks library verifies them (see /docs/webhooks). ' +
      'The URL must be https and resolve to public addresses only (422 otherwise), unless the deployment sets WEBHOOKS_ALLOW_HTTP=true ' +
      '(http accepted) or WEBHOOKS_ALLOW_PRIVATE_HOSTS=true (loopback and private addresses accepted): the local run (scripts/run.sh) sets both. ' +
      `${PLAN} ${UNAVAILABLE}`,
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
      '`"test": true`; without, a `webhook.test` ping. A `topic` the endpoint is not subscribed to answers 422 `topic_not_subscribed` naming ' +
      'its topics (it would never receive such an event). Test events appear in /v1/events for this account only. ' + `${PLAN} ${NOT_FOUND}`,
    tags: ['webhooks'],
    path: endpointIdParam,
    body: testEventBody,
    bodyOptional: true,
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
});

export const eventRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/events',
    operationId: 'listEvents',
    summary: 'Events feed',
    description:
      'The events the webhooks push (same ids as their webhook-id), oldest first in the order they were made, so a subscriber can fill ' +
      'any gap. Unlike other lists, `next_cursor` is set even on the last page (null only when there has never been an event to pass): keep ' +
      'it and call again later to get what happened since; `has_more` says whether more are waiting now. Test events appear only to their account. ' +
      'A cursor is bound to the account; a position kept from an earlier version of the API resumes when its event is in the feed of the calling account.',
    tags: ['webhooks'],
    query: eventListParams,
    response: eventListSchema,
  },
});

/** HTTP side of webhooks: typed input in, the service, the response shapes out. */
export const webhooksApi: RouteModule = {
  routes: { ...webhookRoutes, events: eventRoutes.list },
  bind({ binder, paging, dataSource, config }) {
    const service = new WebhooksService(new WebhookEndpointsRepository(dataSource), new WebhookSamples(dataSource), {
      secretsKey: config.WEBHOOK_SECRETS_KEY,
      allowHttp: config.WEBHOOKS_ALLOW_HTTP,
      allowPrivateHosts: config.WEBHOOKS_ALLOW_PRIVATE_HOSTS,
    });
    // Routes that change an endpoint answer 503 and 403 before a 422 of their body.
    const authorize = (principal: Principal): void => {
      service.available();
      service.requirePlan(principal);
    };
    const r = webhookRoutes;
    return [
      binder.bind(r.create, {
        authorize,
        handle: async ({ principal, body }) => {
          const { endpoint, secret } = await service.create(principal, body);
          return { ...toEndpoint(endpoint), signing_secret: secret };
        },
      }),
      binder.bind(r.list, {
        handle: ({ principal, query }) =>
          paging.list(principal, query, { list: 'webhook-endpoints', filters: {}, order: WEBHOOK_ENDPOINTS_ORDER, defaultDirection: 'desc' }, (page) => service.list(principal, page), toEndpoint),
      }),
      binder.bind(r.get, { handle: async ({ principal, path }) => toEndpoint(await service.get(principal, path.id)) }),
      binder.bind(r.update, { authorize, handle: async ({ principal, path, body }) => toEndpoint(await service.update(principal, path.id, body)) }),
      binder.bind(r.delete, { handle: ({ principal, path }) => service.delete(principal, path.id) }),
      binder.bind(r.rotate, {
        handle: async ({ principal, path }) => {
          const rotated = await service.rotate(principal, path.id);
          return { id: path.id, signing_secret: rotated.secret, previous_secret_expires_at: rotated.previousExpiresAt ? rotated.previousExpiresAt.toISOString() : null };
        },
      }),
      binder.bind(r.test, {
        authorize,
        handle: async ({ principal, path, body }) => {
          const sent = await service.sendTest(principal, path.id, body.topic);
          return { event_id: sent.eventId, delivery_id: sent.deliveryId };
        },
      }),
      binder.bind(r.deliveries, {
        handle: ({ principal, path, query }) =>
          paging.list(
            principal,
            query,
            // Newest first only: the route has no direction.
            { list: 'webhook-deliveries', filters: { id: path.id, status: query.status ?? null }, order: WEBHOOK_DELIVERIES_ORDER, defaultDirection: 'desc' },
            (page) => service.deliveries(principal, path.id, query.status, page),
            (d) => toDelivery(d, d.attemptLog),
          ),
      }),
      binder.bind(r.retry, {
        handle: async ({ principal, path }) => {
          const due = await service.retry(principal, path.id, path.delivery_id);
          return { delivery_id: path.delivery_id, status: 'pending' as const, next_attempt_at: due.toISOString() };
        },
      }),
      binder.bind(r.recover, {
        authorize,
        handle: async ({ principal, path, body }) => {
          const since = new Date(body.since);
          return { requeued: await service.recover(principal, path.id, since), since: since.toISOString() };
        },
      }),
      binder.bind(eventRoutes.list, {
        handle: async ({ principal, query }) => {
          const types = query.types?.length ? [...new Set(query.types)].sort() : undefined;
          // Oldest first only, and a feed: the cursor is kept on the last page.
          const scope: ListScope<EventRecord> = { list: 'events', filters: { types: types ?? null }, order: WEBHOOK_EVENTS_ORDER, defaultDirection: 'asc', keepsPosition: true };
          // Readers keep their position for good: one kept before cursors were bound to an account
          // still resumes, when its event is one of this caller's feed.
          const cursor = await paging.resumeEarlierFeedPosition(principal, query.cursor, scope, ([seq]) => service.isInFeed(principal, Number(seq)));
          return paging.list(principal, { ...query, cursor }, scope, (page) => service.events(principal, types, page), toEvent);
        },
      }),
    ];
  },
};
