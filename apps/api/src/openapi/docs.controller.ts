import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { params } from '../platform/query.validation';
import type { BoundRoute, RouteBinder, RouteDefinition } from '../platform/route.registry';
import { buildOpenApiDocument } from './openapi.document';
import { DomainError, type ProblemSlug } from '../platform/api.errors';
import { changelogPageHtml } from './changelog-page';
import { mcpPageHtml } from './mcp-page';
import { PROBLEM_PAGES, problemIndexHtml, problemPageHtml } from './problem-pages';
import { webhooksPageHtml } from './webhooks-page';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Filings platform API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png"></head>
<body><p style="font:14px system-ui,sans-serif;margin:.5rem 1.25rem">Guides: <a href="/docs/webhooks">Webhooks</a> · <a href="/docs/mcp">MCP server</a> · <a href="/docs/errors">Errors</a> · <a href="/docs/changelog">Changelog</a></p>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>
`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/** apps/api/CHANGELOG.md, from the sources (tests) or from dist/apps/api/src/openapi (a build run in the checkout). */
function readChangelog(): string {
  for (const path of [join(__dirname, '..', '..', 'CHANGELOG.md'), join(__dirname, '..', '..', '..', '..', '..', 'apps', 'api', 'CHANGELOG.md')]) {
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  return '# Changelog\n\nNot shipped with this build: see apps/api/CHANGELOG.md in the sources.\n';
}

const def = (url: string, operationId: string): RouteDefinition => ({ method: 'GET', url, operationId, summary: '', tags: [], public: true, hidden: true });

/**
 * /v1/openapi.json, the /docs page (swagger-ui-dist served from node_modules, no CDN), a page per
 * problem type under /docs/errors, and the webhooks, MCP and changelog pages.
 */
export class DocsController {
  private readonly document = JSON.stringify(buildOpenApiDocument());
  private readonly assetDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  private readonly cache = new Map<string, Buffer>();
  private readonly errorIndex = problemIndexHtml();
  private readonly changelog = readChangelog();
  private readonly changelogHtml = changelogPageHtml(this.changelog);
  private readonly webhooksHtml: string;
  private readonly mcpHtml: string;
  private readonly errorPages = new Map((Object.keys(PROBLEM_PAGES) as ProblemSlug[]).map((slug) => [slug, problemPageHtml(slug)]));

  /** `publicBaseUrl`: the api's public origin, which the webhooks and MCP pages name. */
  constructor(publicBaseUrl: string) {
    this.webhooksHtml = webhooksPageHtml(publicBaseUrl);
    this.mcpHtml = mcpPageHtml(publicBaseUrl);
  }

  routes(binder: RouteBinder): BoundRoute[] {
    return [
      { definition: def('/v1/openapi.json', 'openapi'), handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(this.document) },
      { definition: def('/docs', 'docs'), handler: async (_req, reply) => reply.type('text/html; charset=utf-8').send(HTML) },
      { definition: def('/docs/init.js', 'docsInit'), handler: async (_req, reply) => reply.type('application/javascript; charset=utf-8').send(INIT) },
      { definition: def('/docs/changelog', 'docsChangelog'), handler: async (_req, reply) => reply.type('text/html; charset=utf-8').send(this.changelogHtml) },
      { definition: def('/docs/changelog.md', 'docsChangelogMarkdown'), handler: async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(this.changelog) },
      { definition: def('/docs/webhooks', 'docsWebhooks'), handler: async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.webhooksHtml) },
      { definition: def('/docs/mcp', 'docsMcp'), handler: async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.mcpHtml) },
      { definition: def('/docs/errors', 'docsErrors'), handler: async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.errorIndex) },
      binder.bind(
        { ...def('/docs/errors/:slug', 'docsError'), path: params({ slug: { kind: 'string', description: 'Problem slug' } }), public: true },
        {
          handle: async ({ path: { slug }, reply }) => {
            const html = Object.hasOwn(PROBLEM_PAGES, slug) ? this.errorPages.get(slug as ProblemSlug) : undefined;
            if (!html) throw new DomainError('UnknownDocsPage', `No error page '${slug}'; the list is at /docs/errors.`);
            return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=3600').send(html);
          },
        },
      ),
      binder.bind(
        { ...def('/docs/:asset', 'docsAsset'), path: params({ asset: { kind: 'string', description: 'A swagger-ui asset' } }), public: true },
        {
          handle: async ({ path: { asset }, reply }) => {
            const type = ASSETS[asset];
            if (!type) throw new DomainError('UnknownDocsPage', `No docs asset '${asset}'.`);
            let bytes = this.cache.get(asset);
            if (!bytes) {
              bytes = readFileSync(join(this.assetDir, asset));
              this.cache.set(asset, bytes);
            }
            return reply.type(type).header('cache-control', 'public, max-age=3600').send(bytes);
          },
        },
      ),
    ];
  }
}
