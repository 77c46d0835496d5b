import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/api-keys.service';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { ValidationError, type ValidationItem } from './api.errors';
import { parseBody, refuseBody } from './body.validation';
import { QueryParser, type ParamSpecs, type ParamValues, type PathValues } from './query.validation';

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
  /** JSON request body, a strict object (validated before the handler runs; documented as the requestBody). Without it, a body is a 422. */
  body?: z.ZodType;
  /** The body may be left out (validated as `{}`). */
  bodyOptional?: boolean;
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

/** Route definitions keep their literal types (parameter kinds, enum values): the handler's input is derived from them. */
export function defineRoutes<const D extends Record<string, RouteDefinition>>(routes: D): D {
  return routes;
}

type QueryOf<D> = D extends { query: infer Q extends ParamSpecs } ? ParamValues<Q> : Record<string, never>;
type PathOf<D> = D extends { path: infer P extends ParamSpecs } ? PathValues<P> : Record<string, never>;
type BodyOf<D> = D extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
type ResponseOf<D> = D extends { response: infer R extends z.ZodType } ? z.input<R> : unknown;

/** What a handler gets: its parameters parsed and validated, typed by its route definition. */
export interface RouteInput<D extends RouteDefinition> {
  query: QueryOf<D>;
  path: PathOf<D>;
  body: BodyOf<D>;
  principal: D extends { public: true } ? null : Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteBinding<D extends RouteDefinition> {
  /** Checks across parameters (date ranges, calendar dates), adding items to the 422 of the parse. */
  check?: (input: { query: QueryOf<D>; path: PathOf<D> }, items: ValidationItem[]) => void;
  /**
   * Refusals that do not depend on the body (feature unavailable, plan too low): thrown after the
   * 422 of path and query, before the body is parsed, so they answer ahead of a 422 of the body.
   */
  authorize?: (principal: RouteInput<D>['principal']) => void;
  handle: (input: RouteInput<D>) => Promise<ResponseOf<D>>;
}

/**
 * Binds handlers to route definitions. Every route's input goes through the same steps: path,
 * then query parsed (every item collected), the route's own checks, the plan's `limit` cap when
 * the rest is valid, one 422 with every item; then the route's authorization; then the JSON body
 * (a route without a body schema refuses any body).
 */
export class RouteBinder {
  constructor(private readonly plans: PlanTable) {}

  bind<D extends RouteDefinition>(definition: D, binding: RouteBinding<D>): BoundRoute {
    const pathParser = definition.path ? new QueryParser(definition.path) : undefined;
    const queryParser = definition.query ? new QueryParser(definition.query) : undefined;
    const capsLimit = definition.query?.limit !== undefined;
    const handler: RouteHandler = async (request, reply) => {
      const items: ValidationItem[] = [];
      const rawQuery = (request.query ?? {}) as Record<string, unknown>;
      // The parsers return the shape their specs declare (ParamValues): what QueryOf/PathOf name.
      const path = (pathParser?.parse((request.params ?? {}) as Record<string, unknown>, items, 'path') ?? {}) as PathOf<D>;
      const query = (queryParser?.parse(rawQuery, items) ?? {}) as QueryOf<D>;
      binding.check?.({ query, path }, items);
      const principal = request.principal;
      if (capsLimit && items.length === 0 && principal) {
        const overCap = planLimitItem((query as { limit?: number }).limit, rawQuery.limit, this.plans, principal);
        if (overCap) items.push(overCap);
      }
      if (items.length) throw new ValidationError(items);
      // The onRequest hook set a principal on every route that is not public: what the type says.
      const caller = principal as RouteInput<D>['principal'];
      binding.authorize?.(caller);
      const body = (definition.body ? parseBody(definition.body, request.body, { optional: definition.bodyOptional }) : refuseBody(request.body)) as BodyOf<D>;
      return binding.handle({ query, path, body, principal: caller, request, reply });
    };
    return { definition, handler };
  }
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
