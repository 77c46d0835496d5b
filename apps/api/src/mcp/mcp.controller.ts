import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION } from '../api.version';
import { unavailableDependency } from '../platform/dependency-outages';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import type { McpToolsService } from './mcp.service';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Where the 401 challenge of /mcp points (RFC 9728 `resource_metadata`). */
export const protectedResourceMetadataUrl = (publicBaseUrl: string): string => `${publicBaseUrl}${PROTECTED_RESOURCE_PATH}`;

/** The server's serverInfo: its version is the API's (the OpenAPI document's info.version). */
export const MCP_SERVER_INFO = { name: 'filings-platform', version: API_VERSION } as const;

/** What the server tells a client at initialize; /docs/mcp shows it too. */
export const MCP_INSTRUCTIONS =
  'Read-only access to SEC EDGAR and issuer investor-relations data. Companies are addressed by symbol <TICKER>:<MARKET> ' +
  '(MSFT:US); search_companies and search find them. A result is structured content, and the same JSON as text. ' +
  'Lists return {data, pagination: {next_cursor, has_more}} in pages sized for an agent: pass next_cursor back as cursor ' +
  'for the next page, or a larger limit. A long text (a 10-K section, a transcript) comes in slices of max_chars: ' +
  'pass next_offset back as offset until it is null; total_chars is the whole length. ' +
  'Every item carries a provenance object naming its source; verify_citation re-checks one. A failed call is an RFC 9457 ' +
  'problem (type, title, status, detail; detail lists the invalid arguments for validation-error), except a dependency ' +
  'outage, which is an HTTP 503 problem with Retry-After: retry the call after it.';

export const mcpRoutes = {
  post: {
    method: 'POST',
    url: MCP_PATH,
    operationId: 'mcp',
    summary: 'MCP endpoint (Streamable HTTP, stateless; JSON-RPC)',
    description: 'Model Context Protocol over Streamable HTTP; Authorization: Bearer <API key> as on /v1. Each HTTP request counts against the rate limits.',
    tags: ['mcp'],
    hidden: true,
  },
  // Public: they serve nothing, and the SDK client's GET after initialize should not cost a request.
  get: { method: 'GET', url: MCP_PATH, operationId: 'mcpStream', summary: 'No server-initiated stream (405)', tags: ['mcp'], public: true, hidden: true },
  delete: { method: 'DELETE', url: MCP_PATH, operationId: 'mcpSessionDelete', summary: 'No sessions (405)', tags: ['mcp'], public: true, hidden: true },
  protectedResource: {
    method: 'GET',
    url: PROTECTED_RESOURCE_PATH,
    operationId: 'oauthProtectedResource',
    summary: 'OAuth 2.0 protected resource metadata of the MCP endpoint (RFC 9728)',
    tags: ['mcp'],
    public: true,
    hidden: true,
  },
  // RFC 9728 section 3.1: the well-known URI of the resource https://host/mcp.
  protectedResourceMcp: {
    method: 'GET',
    url: `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`,
    operationId: 'oauthProtectedResourceMcp',
    summary: 'The same metadata at the path-specific well-known URI',
    tags: ['mcp'],
    public: true,
    hidden: true,
  },
} satisfies Record<string, RouteDefinition>;

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

export interface McpEndpointOptions {
  publicBaseUrl: string;
}

/**
 * The MCP endpoint on the api's Fastify instance. Stateless Streamable HTTP, as the SDK's
 * stateless example: each POST gets its own protocol server and transport (no sessions, so any
 * api process answers any request), JSON responses rather than SSE. Auth and rate limits are the
 * api's onRequest hook, as for /v1: one request, one token.
 */
export class McpController {
  private readonly metadata: Record<string, unknown>;

  constructor(
    private readonly tools: McpToolsService,
    private readonly options: McpEndpointOptions,
  ) {
    this.metadata = {
      resource: `${options.publicBaseUrl}${MCP_PATH}`,
      resource_name: 'Filings platform MCP server',
      resource_documentation: `${options.publicBaseUrl}/docs`,
      bearer_methods_supported: ['header'],
      // No authorization server yet: API keys (sk_live_/sk_test_) are the bearer tokens.
    };
  }

  routes(): BoundRoute[] {
    const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply.code(405).header('allow', 'POST').send(jsonRpcError(ErrorCode.ConnectionClosed, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.'));
    const metadata = async (_req: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', 'public, max-age=3600').send(this.metadata);
    return [
      { definition: mcpRoutes.post, handler: (req, reply) => this.post(req, reply) },
      { definition: mcpRoutes.get, handler: notAllowed },
      { definition: mcpRoutes.delete, handler: notAllowed },
      { definition: mcpRoutes.protectedResource, handler: metadata },
      { definition: mcpRoutes.protectedResourceMcp, handler: metadata },
    ];
  }

  /** `outage` receives the error of a tool call that found Postgres or Redis down. */
  private server(request: FastifyRequest, outage: (err: Error) => void): Server {
    // Server, not McpServer: McpServer validates arguments itself and answers with its own text;
    // here a bad argument is the 422 problem REST answers (see McpToolsService).
    const server = new Server({ ...MCP_SERVER_INFO }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => {
      try {
        return await this.tools.call(r.params.name, r.params.arguments, request);
      } catch (err) {
        // Not `instanceof Error`: the driver's socket errors may come from another realm (Jest's sandbox).
        if (unavailableDependency(err) !== undefined) outage(err as Error);
        throw err;
      }
    });
    return server;
  }

  /**
   * The web-standard transport answers with a Response rather than writing the socket itself, so
   * the answer goes out through Fastify (its hooks and error handler) like any route's: a tool
   * call that found a dependency down is the api's 503 problem, not a JSON-RPC error whose
   * message would carry the driver's words.
   */
  private async post(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // One message per HTTP request: a batch would spend one rate-limit token on many calls.
    if (Array.isArray(request.body) && request.body.length !== 1) {
      return reply.code(400).send(jsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: send one JSON-RPC message per HTTP request (batches are not accepted).'));
    }
    let outage: Error | undefined;
    const server = this.server(request, (err) => (outage ??= err));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      const body = await response.text();
      if (outage !== undefined) throw outage;
      reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return reply.send(body === '' ? undefined : body);
    } finally {
      await transport.close();
      await server.close();
    }
  }
}

/** The request as the transport reads it: method and headers (the body is passed parsed). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://localhost${MCP_PATH}`, { method: request.method, headers });
}
