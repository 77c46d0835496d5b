import { EVENT_TYPES } from '@app/resources';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '@app/webhooks';
import { API_VERSION } from '../api.version';
import { MCP_SERVER_INFO } from '../mcp/mcp.controller';
import { MCP_TOOLS } from '../mcp/mcp.tools';
import { changelogPageHtml } from './changelog-page';
import { documentedTools, mcpPageHtml } from './mcp-page';
import { buildOpenApiDocument } from './openapi.document';
import { eventExamples, humanDuration, retryRows, webhooksPageHtml } from './webhooks-page';

describe('one version everywhere', () => {
  it("gives the MCP server the OpenAPI document's info.version", () => {
    const doc = buildOpenApiDocument() as { info: { version: string } };
    expect(MCP_SERVER_INFO.version).toBe(doc.info.version);
    expect(doc.info.version).toBe(API_VERSION);
  });
});

describe('/docs/webhooks', () => {
  it('shows a recorded payload of every event type, under its own type', () => {
    const examples = eventExamples();
    expect(Object.keys(examples).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect(examples[type]).toMatchObject({ type, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), data: expect.any(Object) });
    }
    expect(examples['filing.created'].data).toMatchObject({ accession: expect.stringMatching(/^\d{10}-\d\d-\d{6}$/), company_name: 'MICROSOFT CORP' });
    expect(examples['transcript.published'].data).toMatchObject({ ticker: 'C', turns: expect.any(Array) });
    expect(examples['webhook.test']).toMatchObject({ test: true });
  });

  it('states the retry schedule of DEFAULT_RETRY_SCHEDULE: the delay before each retry and the time since the first attempt', () => {
    expect(humanDuration(5_000)).toBe('5 s');
    expect(humanDuration(36_000_000)).toBe('10 h');
    expect(humanDuration(5 * 86_400_000)).toBe('5 d');
    const rows = retryRows();
    expect(rows).toHaveLength(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE).length);
    expect(rows[0]).toEqual({ attempt: 2, delay: '5 s', since: '5 s' });
    expect(rows.at(-1)).toEqual({ attempt: 8, delay: '10 h', since: '27 h 35 min 5 s' });
    const html = webhooksPageHtml('https://api.filings.example');
    for (const r of rows) expect(html).toContain(`<tr><td>${r.attempt}</td><td>${r.delay}</td><td>${r.since}</td></tr>`);
    expect(html).toContain('filings-platform-webhooks/1.0 (+https://api.filings.example/docs/webhooks)');
  });
});

describe('/docs/mcp', () => {
  it('documents every tool of the registry with its arguments, as tools/list advertises them', () => {
    const html = mcpPageHtml('https://api.filings.example');
    const tools = documentedTools();
    expect(tools.map((t) => t.spec.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const tool of tools) {
      expect(html).toContain(`<h3 id="${tool.spec.name}"><code>${tool.spec.name}</code>`);
      for (const arg of Object.keys(tool.definition.inputSchema.properties ?? {})) expect(html).toContain(`<td><code>${arg}</code></td>`);
    }
    expect(html).toContain(`with ${MCP_TOOLS.length} read-only tools`);
    expect(html).toContain("new URL('https://api.filings.example/mcp')");
  });
});

describe('/docs/changelog', () => {
  it('renders markdown, and shows raw HTML as text', () => {
    const html = changelogPageHtml('# Changelog\n\n## 1.1.0 (2025-08-01)\n\n- `limit` on <b>every</b> list\n\n<script>alert(1)</script>\n');
    expect(html).toContain('<h2>1.1.0 (2025-08-01)</h2>');
    expect(html).toContain('<li><code>limit</code> on &lt;b&gt;every&lt;/b&gt; list</li>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
