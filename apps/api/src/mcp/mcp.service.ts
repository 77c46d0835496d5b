import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApiHttp } from '../platform/api.http';
import { unavailableDependency } from '../platform/dependency-outages';
import { problemBody } from '../platform/problem';
import type { BoundRoute, RouteHandler } from '../platform/route.registry';
import { toolResult } from './mcp.answer';
import { compileTools, MCP_TOOLS, restInstance, toRestCall, type CompiledTool, type ToolSpec } from './mcp.tools';

/** Route handlers of the tools never touch the reply: the MCP transport owns the HTTP response. */
const NO_REPLY = new Proxy({} as FastifyReply, {
  get(_target, prop) {
    throw new Error(`an MCP tool's route handler used reply.${String(prop)}`);
  },
});

/**
 * The MCP tools over the REST routes: a call validates its arguments, then runs the very handler
 * the REST route runs, as the caller of the MCP HTTP request (its principal, so its plan's limit
 * cap). The result is the REST body (a long text sliced as the call asks), as structured content
 * and as JSON text; an error is the REST problem, as text, except a dependency outage, which is
 * rethrown.
 */
export class McpToolsService {
  private readonly tools: Map<string, CompiledTool>;
  private readonly handlers: Map<string, RouteHandler>;
  private readonly listed: Tool[];

  constructor(
    routes: readonly BoundRoute[],
    private readonly http: ApiHttp,
    private readonly docsUrl: string,
    specs: readonly ToolSpec[] = MCP_TOOLS,
  ) {
    const compiled = compileTools(
      specs,
      routes.map((r) => r.definition),
    );
    this.tools = new Map(compiled.map((t) => [t.spec.name, t]));
    this.handlers = new Map(routes.map((r) => [r.definition.operationId, r.handler]));
    this.listed = compiled.map((t) => t.definition);
  }

  list(): Tool[] {
    return this.listed;
  }

  async call(name: string, args: Record<string, unknown> | undefined, request: FastifyRequest): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const instance = restInstance(tool, args);
    try {
      const call = toRestCall(tool, args);
      const route = tool.routes.get(call.operationId)!;
      const restRequest = {
        id: request.id,
        method: route.method,
        url: instance,
        headers: {},
        params: call.params,
        query: call.query,
        body: call.body,
        principal: request.principal,
      };
      const body = (await this.handlers.get(call.operationId)!(restRequest as unknown as FastifyRequest, NO_REPLY)) as Record<string, unknown>;
      return toolResult(tool.spec.slice && call.window ? tool.spec.slice.apply(body, call.window) : body);
    } catch (err) {
      // A dependency outage is the whole request's 503 (McpController), not a tool error.
      if (unavailableDependency(err) !== undefined) throw err;
      const problem = this.http.problemOf(err, { id: request.id, method: 'MCP', url: `${instance} (tool ${name})` });
      // No structuredContent: clients check it against the tool's output schema even on errors.
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(problemBody(this.docsUrl, problem, request.id, instance)) }] };
    }
  }
}
