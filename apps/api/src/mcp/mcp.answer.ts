import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * How a tool's answer travels: the body as structured content and the same JSON as text (MCP
 * 2025-06-18: a tool returning structured content SHOULD also return it serialized in a text
 * block), so a client that hands only `content` to the model still gives it the data. Long texts
 * come in slices: agent hosts refuse results above about 25,000 tokens.
 */

type Json = Record<string, unknown>;

/** The answer of a successful call: the body, and its JSON (no indentation) as the text. */
export function toolResult(body: Json): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/** Characters of text in one slice when the caller gives no max_chars. */
export const SLICE_DEFAULT_CHARS = 20_000;
/** Most characters of text one slice may hold. */
export const SLICE_MAX_CHARS = 100_000;

/** The part of a long text one call answers: from `offset`, at most `maxChars` characters. */
export interface TextWindow {
  offset: number;
  maxChars: number;
}

/** Fields a sliced answer adds to the REST body. */
const sliceFields = {
  offset: z.number().int().describe('Where this slice starts in the whole text'),
  total_chars: z.number().int().describe("The whole text's length"),
  next_offset: z.number().int().nullable().describe('offset of the next slice; null: this slice ends the text'),
};

/** A tool's long text read in slices: the fields it adds and how it cuts the REST body. */
export interface TextSlicer {
  /** What the text is, as the tool's offset argument describes it. */
  text: string;
  fields: typeof sliceFields;
  /** The REST body with only the window's part of its text (the body is not modified). */
  apply(body: Json, window: TextWindow): Json;
}

/** The end of the window in `text`, never between the two halves of a surrogate pair. */
function windowEnd(text: string, { offset, maxChars }: TextWindow): number {
  const end = Math.min(text.length, offset + maxChars);
  const code = text.charCodeAt(end - 1);
  // max_chars is at least 100, so stepping back one never empties the slice.
  return end < text.length && end - 1 > offset && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

const sliceOf = (window: TextWindow, end: number, total: number) => ({ offset: window.offset, total_chars: total, next_offset: end < total ? end : null });

/** A 10-K section: `text` is the slice; char_start and char_end still locate the whole section. */
export const SECTION_TEXT: TextSlicer = {
  text: "the section's text",
  fields: sliceFields,
  apply(body, window) {
    if (typeof body.text !== 'string') return { ...body, ...sliceOf(window, 0, 0) };
    const end = Math.max(window.offset, windowEnd(body.text, window));
    return { ...body, text: body.text.slice(window.offset, end), ...sliceOf(window, end, body.text.length) };
  },
};

/**
 * A transcript: its text is the turns' texts in order. The answer holds the turns the window
 * touches; a turn cut at an edge of the window holds its part, with char_start and char_end
 * narrowed to it (its text stays the document text's slice(char_start, char_end)).
 */
export const TRANSCRIPT_TURNS: TextSlicer = {
  text: "the turns' texts, in order",
  fields: sliceFields,
  apply(body, window) {
    const turns = body.turns as (Json & { text: string; char_start: number; char_end: number })[];
    const whole = turns.map((turn) => turn.text).join('');
    const end = Math.max(window.offset, windowEnd(whole, window));
    const sliced: Json[] = [];
    let at = 0;
    for (const turn of turns) {
      const from = Math.max(0, window.offset - at);
      const to = Math.min(turn.text.length, end - at);
      // An empty turn belongs to the slice its position falls in (the last one at the very end).
      const touched = turn.text.length === 0 ? at >= window.offset && (at < end || end === whole.length) : from < to;
      if (touched) sliced.push({ ...turn, text: turn.text.slice(from, to), char_start: turn.char_start + from, char_end: turn.char_start + to });
      at += turn.text.length;
    }
    return { ...body, turns: sliced, ...sliceOf(window, end, whole.length) };
  },
};
