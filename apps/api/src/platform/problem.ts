import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSecretParam, REDACTED, redactSecrets, redactSecretsIn } from '@app/observability';
import type { ProblemSlug, ValidationItem } from './api.errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string | ValidationItem[];
  request_id: string;
  instance: string;
}

export function instanceOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

/** What an error becomes before it is sent: the problem fields and headers of the response. */
export interface Problem {
  status: number;
  slug: ProblemSlug;
  title: string;
  detail: string | ValidationItem[];
  headers: Record<string, string>;
}

/**
 * The RFC 9457 body of a problem (also what an MCP tool error carries). What it echoes of the
 * request (the path, a symbol in the detail, a 422's inputs) is censored like a log line: a key
 * sent in the wrong place is not repeated back.
 */
export function problemBody(docsUrl: string, problem: Omit<Problem, 'headers'>, requestId: string, instance: string): ProblemBody {
  const detail = typeof problem.detail === 'string' ? redactSecrets(problem.detail) : problem.detail.map(censoredItem);
  return { type: `${docsUrl}/errors/${problem.slug}`, title: problem.title, status: problem.status, detail, request_id: requestId, instance: redactSecrets(instance) };
}

/**
 * A 422 item censored: its input whole under a secret name (`['query', 'api_key']`), else the
 * secrets inside it; its message and context too (a validator's message may quote the value).
 */
function censoredItem(item: ValidationItem): ValidationItem {
  const name = item.loc[item.loc.length - 1];
  const input = typeof name === 'string' && isSecretParam(name) && item.input !== undefined && item.input !== null ? REDACTED : redactSecretsIn(item.input);
  const censored: ValidationItem = { ...item, msg: redactSecrets(item.msg), input };
  if (item.ctx !== undefined) censored.ctx = redactSecretsIn(item.ctx) as Record<string, unknown>;
  return censored;
}

/** Sends an RFC 9457 problem. `detail` is an array only for 422 validation errors (the spec's form). */
export function sendProblem(
  reply: FastifyReply,
  docsUrl: string,
  status: number,
  slug: ProblemSlug,
  title: string,
  detail: string | ValidationItem[],
  headers: Record<string, string> = {},
): FastifyReply {
  const body = problemBody(docsUrl, { status, slug, title, detail }, reply.request.id, instanceOf(reply.request));
  return reply.code(status).headers(headers).type('application/problem+json').send(body);
}
