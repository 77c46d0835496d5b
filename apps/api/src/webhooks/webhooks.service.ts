import { randomBytes } from 'node:crypto';
import { assertPublicUrl, NonPublicAddressError } from '@app/net';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord, Page, PageRequest, WebhookEndpointsRepository } from '@app/persistence';
import type { WebhookTopic } from '@app/resources';
import { generateSigningSecret, SECRET_ROTATION_GRACE_HOURS, SecretBox } from '@app/webhooks';
import type { Principal } from '../auth/api-keys.service';
import { DomainError, ValidationError, type ValidationItem } from '../platform/api.errors';
import { effectivePlan } from '../rate-limit/plans';
import type { WebhookSamples } from './webhooks.samples';
import type { CreateEndpointInput, UpdateEndpointInput } from './webhooks.schemas';

export interface WebhooksSettings {
  /** WEBHOOK_SECRETS_KEY; unset: every endpoint route answers 503 webhooks-unavailable. */
  secretsKey: string | undefined;
  allowHttp: boolean;
  allowPrivateHosts: boolean;
  /** How long a rotated-out secret keeps signing. */
  rotationGraceHours?: number;
  /** Bound on the DNS lookup of a URL check. */
  resolveTimeoutMs?: number;
}

/** A delivery with every attempt made, oldest first. */
export interface DeliveryWithAttempts extends DeliveryRecord {
  attemptLog: AttemptRecord[];
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const unknownEndpoint = (id: string): DomainError =>
  new DomainError('UnknownWebhookEndpoint', `No webhook endpoint with the id '${id}' exists for this account.`);

/** The data of a `webhook.test` ping (a test event without a topic). */
export const testPingData = (endpointId: string) => ({ endpoint_id: endpointId, message: 'Test event from the filings platform: your endpoint receives and verifies deliveries.' });

/**
 * Webhook endpoints of the caller's account: registration (URL and address checks, the secret
 * sealed at rest and shown once), changes, rotation, test events, the delivery log and replays.
 */
export class WebhooksService {
  private readonly box: SecretBox | null;

  constructor(
    private readonly repo: WebhookEndpointsRepository,
    private readonly samples: WebhookSamples,
    private readonly settings: WebhooksSettings,
  ) {
    this.box = settings.secretsKey ? new SecretBox(settings.secretsKey) : null;
  }

  /** 503 when this deployment has no secrets key (webhooks not configured). */
  available(): SecretBox {
    if (!this.box) {
      throw new DomainError('WebhooksUnavailable', 'Webhooks are not configured on this deployment (WEBHOOK_SECRETS_KEY is not set).');
    }
    return this.box;
  }

  /** Builder plan and above; sk_test_ keys count as free. */
  requirePlan(principal: Principal): void {
    if (effectivePlan(principal.plan, principal.mode) !== 'free') return;
    const detail =
      principal.mode === 'test'
        ? 'Webhooks need the builder plan or above; sk_test_ keys are clamped to the free plan: use an sk_live_ key of a builder, pro or enterprise account.'
        : 'Webhooks need the builder plan or above; this account is on the free plan.';
    throw new DomainError('PlanForbids', detail);
  }

  async create(principal: Principal, input: CreateEndpointInput): Promise<{ endpoint: EndpointRecord; secret: string }> {
    const box = this.available();
    this.requirePlan(principal);
    await this.checkUrl(input.url);
    const secret = generateSigningSecret();
    const endpoint = await this.repo.createEndpoint(
      { id: `we_${hex(12)}`, accountId: principal.accountId, url: input.url, topics: dedupe(input.topics), description: input.description ?? null },
      box.seal(secret),
    );
    return { endpoint, secret };
  }

  async get(principal: Principal, id: string): Promise<EndpointRecord> {
    this.available();
    const e = await this.repo.findEndpoint(principal.accountId, id);
    if (!e) throw unknownEndpoint(id);
    return e;
  }

  list(principal: Principal, page: PageRequest): Promise<Page<EndpointRecord>> {
    this.available();
    return this.repo.listEndpoints({ accountId: principal.accountId }, page);
  }

  async update(principal: Principal, id: string, input: UpdateEndpointInput): Promise<EndpointRecord> {
    this.available();
    this.requirePlan(principal);
    await this.get(principal, id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const e = await this.repo.updateEndpoint(principal.accountId, id, {
      url: input.url,
      topics: input.topics ? dedupe(input.topics) : undefined,
      description: input.description,
      enabled: input.enabled,
    });
    if (!e) throw unknownEndpoint(id);
    return e;
  }

  async delete(principal: Principal, id: string): Promise<void> {
    this.available();
    if (!(await this.repo.deleteEndpoint(principal.accountId, id))) throw unknownEndpoint(id);
  }

  async rotate(principal: Principal, id: string): Promise<{ secret: string; previousExpiresAt: Date | null }> {
    const box = this.available();
    this.requirePlan(principal);
    const secret = generateSigningSecret();
    const r = await this.repo.rotateSecret(principal.accountId, id, box.seal(secret), this.settings.rotationGraceHours ?? SECRET_ROTATION_GRACE_HOURS);
    if (!r) throw unknownEndpoint(id);
    return { secret, previousExpiresAt: r.previousExpiresAt };
  }

  /** A test event for this account only, and a delivery to the endpoint due now (the dispatcher sends it). */
  async sendTest(principal: Principal, id: string, topic: WebhookTopic | undefined): Promise<{ eventId: string; deliveryId: string }> {
    this.available();
    this.requirePlan(principal);
    const endpoint = await this.get(principal, id);
    // A test event is one the endpoint could receive: a topic it did not subscribe to never would be.
    if (topic && !endpoint.topics.includes(topic)) {
      throw new ValidationError([
        {
          type: 'topic_not_subscribed',
          loc: ['body', 'topic'],
          msg: `The endpoint is not subscribed to ${topic}; its topics: ${endpoint.topics.join(', ')}`,
          input: topic,
          ctx: { subscribed: endpoint.topics },
        },
      ]);
    }
    const data = topic ? await this.samples.sample(topic) : testPingData(id);
    const eventId = `evt_test_${hex(16)}`;
    const deliveryId = `del_${hex(12)}`;
    await this.repo.insertTestEvent({ eventId, type: topic ?? 'webhook.test', data, accountId: principal.accountId, endpointId: id, deliveryId });
    return { eventId, deliveryId };
  }

  async deliveries(principal: Principal, id: string, status: string | undefined, page: PageRequest): Promise<Page<DeliveryWithAttempts>> {
    await this.get(principal, id);
    const deliveries = await this.repo.listDeliveries({ endpointId: id, status }, page);
    const attempts = await this.repo.listAttempts(deliveries.rows.map((d) => d.id));
    const byDelivery = new Map<string, AttemptRecord[]>();
    for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
    return { ...deliveries, rows: deliveries.rows.map((d) => ({ ...d, attemptLog: byDelivery.get(d.id) ?? [] })) };
  }

  async retry(principal: Principal, id: string, deliveryId: string): Promise<Date> {
    this.available();
    this.requirePlan(principal);
    await this.get(principal, id);
    const r = await this.repo.retryDelivery(id, deliveryId);
    if (!r) throw new DomainError('UnknownDelivery', `Webhook endpoint '${id}' has no delivery '${deliveryId}'.`);
    return r.nextAttemptAt;
  }

  async recover(principal: Principal, id: string, since: Date): Promise<number> {
    this.available();
    this.requirePlan(principal);
    await this.get(principal, id);
    return this.repo.recoverDeliveries(id, since);
  }

  events(principal: Principal, types: string[] | undefined, page: PageRequest): Promise<Page<EventRecord>> {
    return this.repo.listEvents({ accountId: principal.accountId, types }, page);
  }

  /** Whether the event at `seq` is in the caller's feed (any account's but a test event of another). */
  isInFeed(principal: Principal, seq: number): Promise<boolean> {
    return this.repo.isEventInFeed(principal.accountId, seq);
  }

  /** https only (unless allowed), and every address the host resolves to public (unless allowed): 422 otherwise. */
  private async checkUrl(url: string): Promise<void> {
    const item = (type: string, msg: string, ctx?: Record<string, unknown>): ValidationError =>
      new ValidationError([{ type, loc: ['body', 'url'], msg, input: url, ...(ctx ? { ctx } : {}) } satisfies ValidationItem]);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw item('url_parsing', 'Input should be a valid URL, relative URL without a base', { error: 'relative URL without a base' });
    }
    const schemes = this.settings.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) {
      const expected = this.settings.allowHttp ? "'http' or 'https'" : "'https'";
      throw item('url_scheme', `URL scheme should be ${expected}`, { expected_schemes: expected });
    }
    if (!parsed.hostname) throw item('url_parsing', 'Input should be a valid URL, empty host', { error: 'empty host' });
    if (parsed.username || parsed.password) throw item('value_error', 'Value error, the URL must not carry credentials', { error: 'the URL must not carry credentials' });
    const timeoutMs = this.settings.resolveTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        assertPublicUrl(url, { allowPrivate: this.settings.allowPrivateHosts }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        }),
      ]);
    } catch (err) {
      if (err instanceof NonPublicAddressError) {
        const error = `the host resolves to a loopback, private, link-local or special-use address, which cannot receive webhooks`;
        throw item('value_error', `Value error, ${error}`, { error });
      }
      const error = `the host '${parsed.hostname}' does not resolve`;
      throw item('value_error', `Value error, ${error}`, { error });
    } finally {
      clearTimeout(timer);
    }
  }
}

function dedupe(topics: readonly string[]): string[] {
  return [...new Set(topics)];
}
