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

/** What an error becomes before it is sent: the problem fields and headers of the response. */
export interface Problem {
  status: number;
  slug: ProblemSlug;
  title: string;
  detail: string | ValidationItem[];
  headers: Record<string, string>;
}

/** The RFC 9457 body of a problem (also what an MCP tool error carries). */
export function problemBody(docsUrl: string, problem: Omit<Problem, 'headers'>, requestId: string, instance: string): ProblemBody {
  return { type: `${docsUrl}/errors/${problem.slug}`, title: problem.title, status: problem.status, detail: problem.detail, request_id: requestId, instance };
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
