import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';
import { decodeXml, xmlLocalName } from '../xml-text';

/** Decoded, trimmed text; null when empty. */
export function cleanText(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const v = decodeXml(raw).trim();
  return v === '' ? null : v;
}

/** A number as filed; thousands separators and an exponent (1.2E+5) are tolerated (not valid xsd, but unambiguous). */
export function numberText(raw: string | undefined): number | null {
  const v = cleanText(raw)?.replace(/,/g, '');
  if (v === undefined || v === null || !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/.test(v)) return null;
  return Number(v);
}

// The prolog a document may open with: declaration, processing instructions, comments, doctype.
const ROOT = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<([A-Za-z_][\w.:-]*)/;

/** Local name of a document's root element, read from its first tag; null when the text opens with no element. */
export function xmlRootName(text: string): string | null {
  const m = ROOT.exec(text.slice(0, 4096));
  return m ? xmlLocalName(m[1]!) : null;
}

export interface XmlVisitor {
  /** An element opened; `path` holds the local names from the root through it; `start` is the offset of its `<`. */
  open?(path: readonly string[], start: number): void;
  /** A leaf element closed, with its text undecoded (entities as written). */
  leaf?(path: readonly string[], raw: string): void;
  /** An element closed; `end` is the offset of the last `>` of its end tag. */
  close?(path: readonly string[], end: number): void;
}

/**
 * One pass of htmlparser2's tokenizer (xmlMode, entities left raw so offsets and quotes are the
 * source's own) over an XML text, calling the visitor with namespace prefixes dropped.
 * Returns the local name of the root element; throws EdgarParseError when there is none.
 */
export function walkXml(xml: string, source: string, visitor: XmlVisitor): string {
  const path: string[] = [];
  let root: string | null = null;
  let text = '';
  let textDepth = -1;
  let inCdata = false;
  const parser: Parser = new Parser(
    {
      onopentagname: (name) => {
        const local = xmlLocalName(name);
        if (path.length === 0) root ??= local;
        path.push(local);
        text = '';
        textDepth = path.length;
        visitor.open?.(path, parser.startIndex);
      },
      ontext: (t) => {
        // CDATA text arrives raw; escape `&` so the one decoding step in cleanText() gives it back unchanged.
        if (textDepth === path.length) text += inCdata ? t.replace(/&/g, '&amp;') : t;
      },
      oncdatastart: () => {
        inCdata = true;
      },
      oncdataend: () => {
        inCdata = false;
      },
      onclosetag: () => {
        if (textDepth === path.length) visitor.leaf?.(path, text);
        visitor.close?.(path, parser.endIndex);
        path.pop();
        text = '';
        textDepth = -1;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.end(xml);
  if (root === null) throw new EdgarParseError(source, 'no XML element found');
  return root;
}
