import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ParamSpecs } from './query.validation';

/** Static description of one route: drives registration and the OpenAPI document. */
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify path syntax (`/v1/companies/:symbol`). */
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** No Bearer key needed. */
  public?: boolean;
  query?: ParamSpecs;
  path?: ParamSpecs;
  response?: z.ZodType;
  /** JSON request body (validated by the handler; documented as the requestBody). */
  body?: z.ZodType;
  /** Success status when not 200 (201 created, 202 accepted, 204 no content). */
  status?: 200 | 201 | 202 | 204;
  /** A 201's `Location`: the URL of what the request created, from the response body. */
  location?: (body: unknown) => string;
  /** Not in the OpenAPI document (the docs page itself). */
  hidden?: boolean;
  /** Error statuses this route can answer besides the common ones. */
  errors?: number[];
}

export type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export interface BoundRoute {
  definition: RouteDefinition;
  handler: RouteHandler;
}

/** `/v1/companies/:symbol` -> a regex over paths, used to answer 405 for a known path. */
export function pathRegex(url: string): RegExp {
  const escaped = url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}/?$`);
}

/** OpenAPI path syntax. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}
