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

/**
 * What the answer holds, in a line or two; the figures and texts are in the structured content.
 * `restUrl`: the REST URL of the same request, which answers a resource whose text was cut whole.
 */
export function answerSummary(title: string, body: Json, restUrl?: string): string {
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
  let truncated = cutTurns
    ? ` ${cutTurns} turn text(s) cut to fit (truncated: true): their pages (page_index to last_page_index of document_id) hold them whole.`
    : '';
  if (body.truncated === true && typeof body.text === 'string') {
    const whole = typeof body.length === 'number' ? ` of ${body.length}` : '';
    const offsets = typeof body.char_start === 'number' ? ' (char_start to char_end of the document text)' : '';
    const rest = restUrl ? ` GET ${restUrl} (the REST API, same API key) answers it whole${offsets}.` : '';
    truncated = ` Its text is cut to fit (truncated: true): the first ${body.text.length}${whole} characters.${rest}`;
  }
  return `${title}${named.length ? ` (${named.join(', ')})` : ''}: in the structured content.${truncated}`;
}

/**
 * A copy of the body whose `text` fields may be cut, and those fields' holders: a page's items, a
 * transcript's turns, or the resource itself (a 10-K section); null when the body has no text to cut.
 */
function cuttable(body: Json): { copy: Json; holders: Json[] } | null {
  if (isPage(body)) {
    const data = body.data.map((item) => ({ ...item }));
    return { copy: { ...body, data }, holders: data };
  }
  if (Array.isArray(body.turns)) {
    const turns = (body.turns as Json[]).map((turn) => ({ ...turn }));
    return { copy: { ...body, turns }, holders: turns };
  }
  if (typeof body.text === 'string') {
    const copy = { ...body };
    return { copy, holders: [copy] };
  }
  return null;
}

/** `text` shortened to at most `keep` characters, never between the two halves of a surrogate pair. */
function cut(text: string, keep: number): string {
  const code = keep > 0 ? text.charCodeAt(keep - 1) : 0;
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? keep - 1 : keep);
}

/**
 * The body cut to fit the answer budget: when the items of a page, the turns of a transcript or
 * the text of a single resource (a 10-K section: up to 300,000 characters) are too large, the
 * longest `text` fields are shortened from the end and their holders say `truncated: true` (a page
 * of a document rarely passes a few thousand characters, and default page sizes keep lists within
 * the budget; a long call transcript or a long 10-K item is what passes it). The body is returned
 * as is when it fits, and is never modified.
 */
export function fitAnswer(body: Json, maxChars = MCP_ANSWER_MAX_CHARS - SUMMARY_ROOM): Json {
  let size = JSON.stringify(body).length;
  if (size <= maxChars) return body;
  const fitted = cuttable(body);
  if (fitted === null) return body;
  const texts = fitted.holders.filter((item) => typeof item.text === 'string').sort((a, b) => (b.text as string).length - (a.text as string).length);
  for (const item of texts) {
    let text = item.text as string;
    while (size > maxChars && text.length > 0) {
      // Each character cut shortens the JSON by at least one (more when escaped): cutting the excess
      // in characters fits, or comes close enough for the next turn (`truncated: true` adds its own 17).
      text = cut(text, Math.max(0, text.length - (size - maxChars)));
      item.text = text;
      item.truncated = true;
      size = JSON.stringify(fitted.copy).length;
    }
    if (size <= maxChars) break;
  }
  return fitted.copy;
}
