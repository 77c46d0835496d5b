import { createHash, createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotencyKeysRepository, IdempotencyWindows } from '@app/persistence';
import type { Logger } from '@app/observability';
import { SecretBox } from '@app/webhooks';
import { DomainError, ValidationError } from './api.errors';
import { instanceOf } from './problem';

/** The success a route produced, before it is sent: what a replay repeats. */
export interface RouteOutcome {
  status: number;
  body: unknown;
}

/** Keys are opaque strings the client makes (a UUID, usually): printable ASCII, 1 to 255 of them. */
const KEY = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_WINDOWS: IdempotencyWindows = { ttlSeconds: 24 * 3600, abandonedAfterSeconds: 60 };

/** Expired keys are swept at most this often, by whichever request comes. */
const SWEEP_EVERY_MS = 3_600_000;

/**
 * `Idempotency-Key` on POST (the IETF httpapi draft's semantics, Stripe's practice): the first
 * request with a key runs and its 2xx response is recorded; a retry with the same key and the same
 * body within 24 hours gets that response again (with `Idempotent-Replayed: true`) and runs
 * nothing; the same key with another body is a 422; while the first still runs, a retry is a 409.
 * A request that fails (4xx or 5xx) gives its key back, so a corrected retry runs. Keys are per
 * account. Without the header, nothing changes. Recorded bodies are sealed (AES-256-GCM, a key
 * derived from the server secret): a created webhook endpoint's body carries its signing secret,
 * which must not rest in the clear where the endpoint's own table keeps it sealed.
 */
export class Idempotency {
  private lastSweep = 0;
  private readonly box: SecretBox;

  constructor(
    private readonly repo: IdempotencyKeysRepository,
    serverSecret: string,
    private readonly logger: Logger,
    private readonly windows: IdempotencyWindows = IDEMPOTENCY_WINDOWS,
  ) {
    this.box = new SecretBox(createHmac('sha256', serverSecret).update('idempotency-keys: recorded response bodies').digest('hex'));
  }

  /**
   * Runs `execute` under the request's key, if it has one. Returns the outcome to send, or null
   * when the recorded response was sent here (a replay).
   */
  async run(request: FastifyRequest, reply: FastifyReply, execute: () => Promise<RouteOutcome | null>): Promise<RouteOutcome | null> {
    const key = request.headers['idempotency-key'];
    if (key === undefined || request.principal === null) return execute();
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw new ValidationError([
        { type: 'string_pattern_mismatch', loc: ['header', 'idempotency-key'], msg: 'Idempotency-Key should be 1 to 255 printable ASCII characters', input: key, ctx: { pattern: KEY.source } },
      ]);
    }
    const accountId = request.principal.accountId;
    const hash = requestHash(request);
    const claim = await this.repo.claim(accountId, key, hash, this.windows);
    if (claim.kind !== 'claimed') {
      if (claim.requestHash !== hash) {
        const error = 'this Idempotency-Key was used with a different request (method, path or body) in the last 24 hours';
        throw new ValidationError([{ type: 'value_error', loc: ['header', 'idempotency-key'], msg: `Value error, ${error}`, input: key, ctx: { error } }]);
      }
      if (claim.kind === 'running') {
        throw new DomainError('IdempotencyKeyInUse', 'A request with this Idempotency-Key is still running; retry after it completes.', { 'retry-after': '1' });
      }
      reply.code(claim.response.statusCode).headers({ ...claim.response.headers, 'idempotent-replayed': 'true' });
      await reply.send(claim.response.body === '' ? undefined : this.box.open(claim.response.body));
      return null;
    }
    this.sweep();
    let outcome: RouteOutcome | null;
    try {
      outcome = await execute();
    } catch (err) {
      await this.release(accountId, key, claim.claimId);
      throw err;
    }
    if (outcome === null) {
      // The route sent its response itself: nothing to record.
      await this.release(accountId, key, claim.claimId);
      return null;
    }
    const body = outcome.status === 204 || outcome.body === undefined ? '' : JSON.stringify(outcome.body);
    const headers: Record<string, string> = body === '' ? {} : { 'content-type': 'application/json; charset=utf-8' };
    const location = reply.getHeader('location');
    if (typeof location === 'string') headers.location = location;
    try {
      const recorded = await this.repo.complete(accountId, key, claim.claimId, { statusCode: outcome.status, headers, body: body === '' ? '' : this.box.seal(body) });
      // Ran past the abandonment window and a retry took the key: that retry's record stands.
      if (!recorded) this.logger.warn({ request_id: request.id }, 'idempotency key taken over by a retry before this request completed: response not recorded');
    } catch (err) {
      // The work is done: answer it. A retry within a minute is a 409, after that it runs again.
      this.logger.warn({ err, request_id: request.id }, 'recording an idempotent response failed');
    }
    // Sent as recorded, so the first response and a replay are the same bytes.
    reply.headers(headers);
    return { status: outcome.status, body: body === '' ? undefined : body };
  }

  private async release(accountId: string, key: string, claimId: string): Promise<void> {
    await this.repo.release(accountId, key, claimId).catch((err: unknown) => this.logger.warn({ err }, 'releasing an idempotency key failed'));
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.repo.deleteExpired(this.windows.ttlSeconds).catch((err: unknown) => this.logger.warn({ err }, 'sweeping expired idempotency keys failed'));
  }
}

/** What makes two requests "the same request": method, path and JSON body. */
function requestHash(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method} ${instanceOf(request)}\n${JSON.stringify(request.body ?? null)}`).digest('hex');
}
