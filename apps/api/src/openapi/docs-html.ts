/** The layout of every HTML page under /docs (except Swagger UI's): one small stylesheet, no script. */

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The pages' only inline markup: `code` spans. */
export const inline = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code{background:#f1f1f1;padding:0 .25em}dt{font-weight:600;margin-top:1rem}' +
  'pre{background:#f1f1f1;padding:.75rem;overflow-x:auto;font-size:14px;line-height:1.4}pre code{padding:0}table{border-collapse:collapse;margin:1rem 0}' +
  'th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}h2{margin-top:2.5rem}';

/** The navigation line at the top of every docs page. */
export const DOCS_NAV =
  '<p><a href="/docs">API reference</a> · <a href="/docs/webhooks">Webhooks</a> · <a href="/docs/mcp">MCP</a> · <a href="/docs/errors">Errors</a> · <a href="/docs/changelog">Changelog</a></p>\n';

export function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Filings platform API</title><style>${STYLE}</style></head>\n<body>${body}</body></html>\n`;
}

/** A block of code (or JSON), escaped. */
export const codeBlock = (text: string): string => `<pre><code>${escapeHtml(text)}</code></pre>\n`;
