import type { FastifyReply, FastifyRequest } from 'fastify';
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
  const body: ProblemBody = {
    type: `${docsUrl}/errors/${slug}`,
    title,
    status,
    detail,
    request_id: reply.request.id,
    instance: instanceOf(reply.request),
  };
  return reply.code(status).headers(headers).type('application/problem+json').send(body);
}
