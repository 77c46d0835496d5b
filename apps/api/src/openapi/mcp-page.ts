import { API_MODULES } from '../api.modules';
import { SLICE_DEFAULT_CHARS, SLICE_MAX_CHARS } from '../mcp/mcp.answer';
import { MCP_INSTRUCTIONS, MCP_PATH, MCP_SERVER_INFO, PROTECTED_RESOURCE_PATH } from '../mcp/mcp.controller';
import { compileTools, MCP_TOOLS, type CompiledTool } from '../mcp/mcp.tools';
import { openApiPath } from '../platform/route.registry';
import { codeBlock, DOCS_NAV, escapeHtml, inline, page } from './docs-html';

type Json = Record<string, unknown>;

/** The tools exactly as tools/list advertises them, compiled over the api's routes. */
export function documentedTools(): CompiledTool[] {
  return compileTools(
    MCP_TOOLS,
    API_MODULES.flatMap((m) => Object.values(m.routes)),
  );
}

/** A JSON Schema property in a few words: `integer, 1 to 500`, `array of string`, `one of: a, b`. */
function typeOf(schema: Json): string {
  if (Array.isArray(schema.enum)) return `one of: ${(schema.enum as unknown[]).map(String).join(', ')}`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(' or ');
  const type = typeof schema.type === 'string' ? schema.type : 'any';
  if (type === 'array') return `array of ${schema.items ? typeOf(schema.items as Json) : 'any'}${typeof schema.maxItems === 'number' ? ` (at most ${schema.maxItems})` : ''}`;
  const bounds = typeof schema.minimum === 'number' && typeof schema.maximum === 'number' ? `, ${schema.minimum} to ${schema.maximum}` : typeof schema.minimum === 'number' ? `, at least ${schema.minimum}` : '';
  return `${type}${bounds}`;
}

function argumentsTable(tool: CompiledTool): string {
  const schema = tool.definition.inputSchema;
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) return '<p>No arguments.</p>\n';
  const rows = names.map((name) => {
    const p = properties[name]!;
    const text = typeof p.description === 'string' ? p.description : '';
    const def = p.default === undefined ? '' : ` Default: <code>${escapeHtml(JSON.stringify(p.default))}</code>.`;
    return `<tr><td><code>${name}</code></td><td>${escapeHtml(typeOf(p))}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${inline(text)}${def}</td></tr>`;
  });
  return `<table><tr><th>Argument</th><th>Type</th><th>Required</th><th>Description</th></tr>\n${rows.join('\n')}\n</table>\n`;
}

function toolSection(tool: CompiledTool): string {
  const routes = [...tool.routes.values()].map((r) => `<code>${r.method} ${openApiPath(r.url)}</code>`).join(', ');
  const limit = tool.spec.defaultLimit === undefined ? '' : ` Default page size: ${tool.spec.defaultLimit}.`;
  return (
    `<h3 id="${tool.spec.name}"><code>${tool.spec.name}</code>: ${escapeHtml(tool.spec.title)}</h3>\n` +
    `<p>${inline(tool.spec.description)}</p>\n` +
    `<p>Calls ${routes}: the result's structured content is that route's JSON body.${limit}</p>\n` +
    argumentsTable(tool)
  );
}

/** The /docs/mcp page. `publicBaseUrl`: the api's public origin. */
export function mcpPageHtml(publicBaseUrl: string): string {
  const tools = documentedTools();
  const endpoint = `${publicBaseUrl}${MCP_PATH}`;
  const clientConfig = JSON.stringify({ mcpServers: { filings: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer sk_live_...' } } } }, null, 2);
  const sdkSnippet =
    "// npm install @modelcontextprotocol/sdk\n" +
    "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" +
    "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n\n" +
    "const client = new Client({ name: 'my-agent', version: '1.0.0' });\n" +
    `await client.connect(new StreamableHTTPClientTransport(new URL('${endpoint}'), {\n` +
    '  requestInit: { headers: { Authorization: `Bearer ${process.env.FILINGS_API_KEY}` } },\n' +
    '}));\n' +
    'const { tools } = await client.listTools();\n' +
    "const result = await client.callTool({ name: 'get_company', arguments: { symbol: 'MSFT:US' } });\n" +
    'console.log(tools.length, result.structuredContent);\n' +
    'await client.close();\n';
  const index = tools
    .map((t) => `<tr><td><a href="#${t.spec.name}"><code>${t.spec.name}</code></a></td><td>${escapeHtml(t.spec.title)}</td><td>${t.spec.defaultLimit ?? ''}</td></tr>`)
    .join('\n');
  return page(
    'MCP server',
    DOCS_NAV +
      '<h1>MCP server</h1>\n' +
      `<p>The same data as the REST API, for LLM agents: a <a href="https://modelcontextprotocol.io/">Model Context Protocol</a> server (<code>${MCP_SERVER_INFO.name}</code> ${MCP_SERVER_INFO.version}, ` +
      `the API&#39;s version) with ${tools.length} read-only tools. Each tool calls a REST route&#39;s own handler, so its result is the route&#39;s JSON body and its error the route&#39;s problem.</p>\n` +
      '<h2 id="connect">Connecting</h2>\n<ul>\n' +
      `<li>Endpoint: <code>${escapeHtml(endpoint)}</code>, Streamable HTTP, stateless (no session; JSON responses, no server-sent stream): <code>POST</code> one JSON-RPC message per request. <code>GET</code> and <code>DELETE</code> answer 405.</li>\n` +
      '<li>Authentication: <code>Authorization: Bearer sk_live_...</code> (or <code>sk_test_...</code>), the API keys of <code>/v1</code>, with the same plans. A missing or invalid key is a 401 whose <code>WWW-Authenticate</code> names the ' +
      `OAuth protected-resource metadata (RFC 9728) at <code>${PROTECTED_RESOURCE_PATH}</code>; there is no authorization server yet: use an API key.</li>\n` +
      '<li>Rate limits: every HTTP request counts as one request against the key&#39;s burst limit and daily quota, as on <code>/v1</code>.</li>\n</ul>\n' +
      '<p>A client configuration (Claude Code, Cursor and other hosts that take remote servers with headers):</p>\n' +
      codeBlock(clientConfig) +
      '<p>With the TypeScript MCP SDK:</p>\n' +
      codeBlock(sdkSnippet) +
      '<h2 id="answers">Answers, sizes and paging</h2>\n' +
      '<p>What the server tells every client at <code>initialize</code>:</p>\n' +
      `<blockquote>${inline(MCP_INSTRUCTIONS)}</blockquote>\n` +
      '<p>An answer is the route&#39;s JSON body as structured content and the same JSON, unindented, as its text content, so a client that hands the model only <code>content</code> still gives it the data. ' +
      'Lists are paged as on REST: <code>{data, pagination: {next_cursor, has_more}}</code>; pass <code>next_cursor</code> back as <code>cursor</code> for the next page. ' +
      'List tools send the route an explicit page size when the call gives no <code>limit</code> (the default page size below), chosen so a default page stays under about 20,000 characters; ' +
      'a larger <code>limit</code>, up to the plan&#39;s cap, is allowed. ' +
      `A long text (a 10-K section, a transcript) comes in slices: <code>offset</code> (default 0) and <code>max_chars</code> (default ${SLICE_DEFAULT_CHARS.toLocaleString('en-US')}, at most ${SLICE_MAX_CHARS.toLocaleString('en-US')}); ` +
      'the answer carries <code>total_chars</code> and <code>next_offset</code> (null at the end).</p>\n' +
      '<h2 id="tools">Tools</h2>\n' +
      `<table><tr><th>Tool</th><th>What</th><th>Default page size</th></tr>\n${index}\n</table>\n` +
      tools.map(toolSection).join(''),
  );
}
