import { Parser } from 'htmlparser2';

/**
 * The text of a 10-K's primary document (inline XBRL or plain HTML of any era), the text that
 * section offsets and description quotes refer to: visible text only (no head, script, style,
 * hidden inline-XBRL header), one line per block element (paragraph, div, table row, list item,
 * break, heading), table cells of a row joined by a space, whitespace runs (nbsp included) as one
 * space, lines trimmed, empty lines dropped, lines joined by "\n". Pure and deterministic.
 */
export interface TenkText {
  text: string;
  /** Start offset of every line in `text`, ascending. */
  lineStarts: number[];
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'div', 'dl', 'dt', 'footer', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul',
]);
const CELL_TAGS = new Set(['td', 'th']);
const HIDDEN_TAGS = new Set(['head', 'script', 'style', 'title', 'ix:header', 'noscript', 'template']);
const VOID_TAGS = new Set(['br', 'hr', 'img', 'meta', 'link', 'input', 'col', 'area', 'base', 'wbr', 'param', 'source']);
const WHITESPACE = /[\s\u00a0\u200b\ufeff]+/g;

export function tenkText(bytes: Uint8Array | string): TenkText {
  const source = typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const lines: string[] = [];
  const lineStarts: number[] = [];
  let length = 0;
  let line = '';
  // Open elements: whether each one hides its content (a hidden tag, or display:none).
  const hidden: boolean[] = [];
  let hiddenDepth = 0;

  const flush = (): void => {
    const t = line.trim();
    line = '';
    if (!t) return;
    lineStarts.push(lines.length === 0 ? 0 : length + 1);
    length = lines.length === 0 ? t.length : length + 1 + t.length;
    lines.push(t);
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const hides = HIDDEN_TAGS.has(name) || /display\s*:\s*none/i.test(attribs.style ?? '');
        if (BLOCK_TAGS.has(name) && hiddenDepth === 0) flush();
        else if (CELL_TAGS.has(name) && hiddenDepth === 0 && line && !line.endsWith(' ')) line += ' ';
        if (VOID_TAGS.has(name)) return;
        hidden.push(hides);
        if (hides) hiddenDepth += 1;
      },
      ontext(data) {
        if (hiddenDepth > 0) return;
        const t = data.replace(WHITESPACE, ' ');
        if (t === ' ' && (line === '' || line.endsWith(' '))) return;
        line += line.endsWith(' ') && t.startsWith(' ') ? t.slice(1) : t;
      },
      onclosetag(name) {
        if (VOID_TAGS.has(name)) return;
        const hides = hidden.pop();
        if (hides) hiddenDepth -= 1;
        if (hiddenDepth === 0 && BLOCK_TAGS.has(name)) flush();
        else if (hiddenDepth === 0 && CELL_TAGS.has(name) && line && !line.endsWith(' ')) line += ' ';
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(source);
  parser.end();
  flush();
  return { text: lines.join('\n'), lineStarts };
}
