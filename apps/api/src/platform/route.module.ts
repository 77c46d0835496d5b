import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Logger } from '@app/observability';
import type { CompaniesService } from '../companies/companies.service';
import type { ApiConfig } from '../config/api.config';
import type { Paging } from './paging';
import type { BoundRoute, RouteBinder, RouteDefinition } from './route.registry';

/** What a route module may use to build its handlers: shared, stateless, built once by the api context. */
export interface ApiDeps {
  config: ApiConfig;
  logger: Logger;
  dataSource: DataSource;
  redis: Redis | null;
  binder: RouteBinder;
  paging: Paging;
  /** Symbol lookups, shared by every route under /v1/companies/{symbol}. */
  companies: CompaniesService;
}

/**
 * One capability's routes: their static definitions (the OpenAPI document and the MCP tools read
 * these) and how to bind their handlers. Every module is wired the same way, from API_MODULES.
 */
export interface RouteModule {
  routes: Readonly<Record<string, RouteDefinition>>;
  bind(deps: ApiDeps): BoundRoute[];
}
