import { Marked } from 'marked';
import { DOCS_NAV, escapeHtml, page } from './docs-html';

/** Markdown to HTML with raw HTML shown as text, never passed through: the page runs no markup it did not make. */
const markdown = new Marked({ gfm: true, renderer: { html: ({ text }) => escapeHtml(text) } });

/** The /docs/changelog page: apps/api/CHANGELOG.md rendered (the markdown itself is at /docs/changelog.md). */
export function changelogPageHtml(changelogMarkdown: string): string {
  return page('Changelog', `${DOCS_NAV}<p>As markdown: <a href="/docs/changelog.md">/docs/changelog.md</a></p>\n${markdown.parse(changelogMarkdown, { async: false })}`);
}
