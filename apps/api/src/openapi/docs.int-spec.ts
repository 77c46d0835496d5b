// The docs the api serves, on the real server over HTTP: the OpenAPI document (as Swagger UI and
// Redocly read it) and a page for every problem type, which is where a problem's `type` leads.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@app/observability';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';
import { EVENT_TYPES } from '@app/resources';
import { MCP_TOOLS } from '../mcp/mcp.tools';
import { PROBLEM_PAGES, PROBLEM_SLUGS } from './problem-pages';

const PUBLIC_BASE_URL = 'https://api.filings.test';

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let url: string;

type Json = Record<string, unknown>;

/** Every value under `key` anywhere in the document, with its JSON pointer. */
function valuesOf(node: unknown, key: string, at = '#'): [string, unknown][] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [...(k === key ? [[`${at}/${k}`, v] as [string, unknown]] : []), ...valuesOf(v, key, `${at}/${k}`)]);
}

beforeAll(async () => {
  db = await createTestDatabase('docs');
  // No DOCS_URL: problem types lead to this api's own pages.
  api = await buildApiServer(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: randomBytes(24).toString('hex'), CURSOR_SECRET: randomBytes(24).toString('hex'), PUBLIC_BASE_URL, LOG_LEVEL: 'silent' }),
    { logger: createLogger({ level: 'silent' }) },
  );
  url = await api.server.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

describe('error pages', () => {
  it('serves a page for every problem slug, saying what happened and what to do', async () => {
    expect(PROBLEM_SLUGS.length).toBeGreaterThanOrEqual(25);
    for (const slug of PROBLEM_SLUGS) {
      const r = await fetch(`${url}/docs/errors/${slug}`);
      expect({ slug, status: r.status }).toEqual({ slug, status: 200 });
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await r.text();
      expect(html).toContain(`<h1>${PROBLEM_PAGES[slug].title}</h1>`);
      expect(html).toContain(`HTTP ${PROBLEM_PAGES[slug].status}`);
      expect(html).toMatch(/<dt>What happened<\/dt><dd>[^<]{20,}/);
      expect(html).toMatch(/<dt>What to do<\/dt><dd>.{20,}/);
    }
    const index = await (await fetch(`${url}/docs/errors`)).text();
    for (const slug of PROBLEM_SLUGS) expect(index).toContain(`<a href="/docs/errors/${slug}">${slug}</a>`);
  });

  it("names its own page in a problem's type when DOCS_URL is unset, and that page is served", async () => {
    const r = await fetch(`${url}/v1/companies`);
    expect(r.status).toBe(401);
    const problem = (await r.json()) as Json;
    expect(problem.type).toBe(`${PUBLIC_BASE_URL}/docs/errors/invalid-key`);
    const page = await fetch(`${url}${new URL(problem.type as string).pathname}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Invalid API key</h1>');

    const missing = await fetch(`${url}/docs/errors/no-such-problem`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: `${PUBLIC_BASE_URL}/docs/errors/not-found`, status: 404 });
  });

  it('serves the changelog of the version the document names, as HTML and as markdown', async () => {
    const doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as { info: { version: string } };
    const md = await fetch(`${url}/docs/changelog.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const markdown = await md.text();
    expect(markdown).toContain(`## ${doc.info.version} (`);
    const r = await fetch(`${url}/docs/changelog`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    // Every heading of the markdown is a heading of the page.
    const headings = [...markdown.matchAll(/^(#{1,3}) (.+)$/gm)].map(([, hashes, text]) => [hashes!.length, text!] as const);
    expect(headings.length).toBeGreaterThan(5);
    for (const [level, text] of headings) expect(html).toContain(`<h${level}>${text.replace(/`([^`]+)`/g, '<code>$1</code>')}</h${level}>`);
  });

  it('keeps DOCS_URL when it is set', () => {
    const config = apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: 'p'.repeat(40), CURSOR_SECRET: 'c'.repeat(40), DOCS_URL: 'https://docs.example.com/api/' });
    expect(config.DOCS_URL).toBe('https://docs.example.com/api');
    expect(apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: 'p'.repeat(40), CURSOR_SECRET: 'c'.repeat(40), DOCS_URL: '' }).DOCS_URL).toBeUndefined();
  });
});

describe('guides', () => {
  const html = async (path: string): Promise<string> => {
    const r = await fetch(`${url}${path}`);
    expect({ path, status: r.status, type: r.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
    return r.text();
  };

  it('serves /docs/webhooks: every event type with a payload, the headers, the signature, the retries, the local-http flags', async () => {
    const page = await html('/docs/webhooks');
    expect(page).toContain('<h1>Webhooks</h1>');
    for (const type of EVENT_TYPES) {
      expect(page).toContain(`<h3 id="${type}"><code>${type}</code></h3>`);
      expect(page).toContain(`&quot;type&quot;: &quot;${type}&quot;`);
    }
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'User-Agent']) expect(page).toContain(`<td><code>${header}</code></td>`);
    expect(page).toContain(`filings-platform-webhooks/1.0 (+${PUBLIC_BASE_URL}/docs/webhooks)`);
    expect(page).toContain("import { Webhook, WebhookVerificationError } from 'standardwebhooks';");
    expect(page).toContain('WEBHOOKS_ALLOW_HTTP=true');
    expect(page).toContain('/v1/webhook-endpoints/{id}/recover');
  });

  it('serves /docs/mcp: every tool of the server, and how to connect', async () => {
    const page = await html('/docs/mcp');
    expect(page).toContain('<h1>MCP server</h1>');
    for (const tool of MCP_TOOLS) expect(page).toContain(`<h3 id="${tool.name}"><code>${tool.name}</code>`);
    expect(page).toContain(`${PUBLIC_BASE_URL}/mcp`);
    expect(page).toContain('StreamableHTTPClientTransport');
  });

  it('links the guides from /docs and from the document', async () => {
    const page = await html('/docs');
    for (const path of ['/docs/webhooks', '/docs/mcp', '/docs/changelog']) expect(page).toContain(`href="${path}"`);
    const doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as { info: { description: string } };
    expect(doc.info.description).toContain('`/docs/webhooks`');
    expect(doc.info.description).toContain('`/docs/mcp`');
  });
});

describe('the served OpenAPI document', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as Json;
  });

  it('passes redocly lint with no errors and no warnings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const bin = join(__dirname, '..', '..', '..', '..', 'node_modules', '.bin', 'redocly');
      const { stdout, stderr } = await promisify(execFile)(bin, ['lint', file, '--format=summary'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
      expect(`${stdout}${stderr}`).toMatch(/Woohoo! Your API description is valid/);
      expect(`${stdout}${stderr}`).not.toMatch(/^\s*(?:warning|error) \S+: \d+/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('has no fragment $ids (Swagger UI cannot resolve them) and declares every tag it uses, with a description', () => {
    expect(valuesOf(doc, '$id')).toEqual([]);
    const declared = (doc.tags as { name: string; description?: string }[]).map((t) => t.name);
    const used = new Set(valuesOf(doc.paths, 'tags').flatMap(([, tags]) => tags as string[]));
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
    for (const tag of doc.tags as { name: string; description?: string }[]) expect(tag.description?.length).toBeGreaterThan(20);
  });

  it('shows a recorded example on every response that has a body', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [media, content] of Object.entries(response.content ?? {})) if (content.example === undefined) missing.push(`${method} ${path} ${status} ${media}`);
        }
      }
    }
    expect(missing).toEqual([]);
    const company = ((doc.paths as Json)['/v1/companies/{symbol}'] as { get: { responses: Record<string, { content: Record<string, { example: Json }> }> } }).get.responses;
    expect(company['200']!.content['application/json']!.example).toMatchObject({ symbol: 'MSFT:US', name: 'MICROSOFT CORP' });
    expect(company['404']!.content['application/problem+json']!.example).toMatchObject({ status: 404, type: expect.stringMatching(/\/docs\/errors\/unknown-symbol$/) });
  });

  it('keeps <PLACEHOLDERS> in descriptions as code, so Markdown renderers do not take them for HTML', () => {
    const bare = valuesOf(doc, 'description')
      .filter(([, text]) => typeof text === 'string')
      .filter(([, text]) => (text as string).split('`').some((part, i) => i % 2 === 0 && /<[A-Za-z_]+>/.test(part)));
    expect(bare).toEqual([]);
    const symbol = ((doc.paths as Json)['/v1/companies/{symbol}'] as { get: { parameters: { name: string; description: string }[] } }).get.parameters.find((p) => p.name === 'symbol')!;
    expect(symbol.description).toContain('`<TICKER>:<MARKET>`');
  });
});
