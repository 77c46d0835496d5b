/**
 * How a tool's answer travels: the body once, as structured content, beside a short text summary
 * (MCP 2025-06-18 lets the text be a summary), and never past MCP_ANSWER_MAX_CHARS: agent hosts
 * refuse results above about 25,000 tokens.
 */

/** Most characters of a tool result (JSON of the summary and the structured content together). */
export const MCP_ANSWER_MAX_CHARS = 100_000;
/** Room kept for the summary and the result's own JSON. */
const SUMMARY_ROOM = 2_000;

type Json = Record<string, unknown>;

interface Page {
  data: Json[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

const isPage = (body: Json): body is Json & Page => Array.isArray(body.data) && typeof body.pagination === 'object' && body.pagination !== null;

/** What the answer holds, in a line or two; the figures and texts are in the structured content. */
export function answerSummary(title: string, body: Json): string {
  if (isPage(body)) {
    const n = body.data.length;
    const cut = body.data.filter((item) => item.truncated === true).length;
    const more = body.pagination.has_more && body.pagination.next_cursor ? ` More: call again with cursor "${body.pagination.next_cursor}".` : ' No more pages.';
    const truncated = cut ? ` ${cut} text(s) cut to fit (truncated: true).` : '';
    return `${title}: ${n} item${n === 1 ? '' : 's'} in the structured content.${more}${truncated}`;
  }
  const named = ['symbol', 'accession', 'id', 'name', 'title', 'reason']
    .filter((k) => typeof body[k] === 'string' || typeof body[k] === 'number')
    .map((k) => `${k} ${String(body[k])}`);
  const cutTurns = Array.isArray(body.turns) ? (body.turns as Json[]).filter((turn) => turn.truncated === true).length : 0;
  const truncated = cutTurns
    ? ` ${cutTurns} turn text(s) cut to fit (truncated: true): their pages (page_index to last_page_index of document_id) hold them whole.`
    : '';
  return `${title}${named.length ? ` (${named.join(', ')})` : ''}: in the structured content.${truncated}`;
}

/** The items whose `text` may be cut: a page's items, or a transcript's turns. */
function textItems(body: Json): Json[] | null {
  if (isPage(body)) return body.data;
  return Array.isArray(body.turns) ? (body.turns as Json[]) : null;
}

/**
 * The body cut to fit the answer budget: when the items of a page (or the turns of a transcript)
 * are too large together, the longest `text` fields are shortened and their items say
 * `truncated: true` (a page of a document rarely passes a few thousand characters: this is the
 * guard, not the rule; default page sizes keep answers within the budget; a long call transcript
 * is the one body that passes it whole). The body is returned as is when it fits.
 */
export function fitAnswer(body: Json, maxChars = MCP_ANSWER_MAX_CHARS - SUMMARY_ROOM): Json {
  let size = JSON.stringify(body).length;
  const items = textItems(body);
  if (size <= maxChars || items === null) return body;
  const copies = items.map((item) => ({ ...item }));
  const texts = copies.filter((item) => typeof item.text === 'string').sort((a, b) => (b.text as string).length - (a.text as string).length);
  const fitted = isPage(body) ? { ...body, data: copies } : { ...body, turns: copies };
  for (const item of texts) {
    const text = item.text as string;
    const excess = size - maxChars;
    // JSON escapes make the serialized text longer than the string: cut a little more than the excess.
    const keep = Math.max(0, text.length - Math.ceil(excess * 1.1) - 1);
    item.text = text.slice(0, keep);
    item.truncated = true;
    size = JSON.stringify(fitted).length;
    if (size <= maxChars) break;
  }
  return fitted;
}
