import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode, type Document, type Element } from 'domhandler';

/**
 * One pass over an inline-XBRL (XHTML) document: contexts and units of `ix:resources`, every
 * `ix:nonFraction`, the dei facts, and the table rows facts sit in. Pure: bytes in, values out.
 */

export interface IxContext {
  id: string;
  /** Entity identifier (the CIK for SEC filers). */
  entity: string | null;
  startDate: string | null;
  /** End date of a duration, or the instant. */
  endDate: string;
  instant: boolean;
  /** Explicit members by axis (canonical QNames), in document order; typed members as their text, marked `typed`. */
  dimensions: Array<{ axis: string; member: string; typed?: true }>;
}

export interface IxNumericFact {
  element: Element;
  /** Canonical QName (us-gaap / srt prefixes normalized whatever the document calls them). */
  concept: string;
  contextRef: string;
  unitRef: string | null;
  id: string | null;
  format: string | undefined;
  scale: string | undefined;
  sign: string | undefined;
  decimals: string | null;
  nil: boolean;
  /** Text content of the element (nested facts included), as displayed. */
  text: string;
}

export interface IxDocument {
  dom: Document;
  contexts: Map<string, IxContext>;
  /** unit id -> `USD`, `shares`, `USD/shares`. */
  units: Map<string, string>;
  facts: IxNumericFact[];
  /** dei:* non-numeric facts by local name (first occurrence): DocumentFiscalYearFocus, ... */
  dei: Map<string, string>;
}

const NS = {
  ix: 'http://www.xbrl.org/2013/inlineXBRL',
  xbrli: 'http://www.xbrl.org/2003/instance',
  xbrldi: 'http://xbrl.org/2006/xbrldi',
} as const;

/** Namespaces whose concepts keep a canonical prefix whatever the document's prefix is (taxonomy year varies). */
const CANONICAL_PREFIXES: Array<[RegExp, string]> = [
  [/^http:\/\/fasb\.org\/us-gaap\//, 'us-gaap'],
  [/^http:\/\/fasb\.org\/srt\//, 'srt'],
  [/^http:\/\/xbrl\.sec\.gov\/dei\//, 'dei'],
  [/^http:\/\/xbrl\.sec\.gov\/country\//, 'country'],
];

/** Whitespace runs (nbsp included) -> one space, trimmed: how quotes and labels are compared. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b\ufeff]+/g, ' ').trim();
}

/** Concatenated text of every descendant text node, in document order. */
export function textContent(node: ChildNode | Document): string {
  if (isText(node)) return node.data;
  if (!('children' in node)) return '';
  let out = '';
  const stack: ChildNode[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data;
    else if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

function childElements(el: Element): Element[] {
  return el.children.filter((c): c is Element => isTag(c));
}

export function parseIxbrl(bytes: Buffer | string): IxDocument {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  // XHTML: parse as XML so prefixes, case and self-closing tags are kept as written.
  const dom = parseDocument(text, { xmlMode: true, decodeEntities: true });

  const root = dom.children.find((c): c is Element => isTag(c));
  const prefixOf = new Map<string, string>();
  const canonical = new Map<string, string>();
  if (root) {
    for (const [name, uri] of Object.entries(root.attribs)) {
      if (!name.startsWith('xmlns:')) continue;
      const prefix = name.slice(6);
      prefixOf.set(uri, prefix);
      const c = CANONICAL_PREFIXES.find(([re]) => re.test(uri));
      if (c) canonical.set(prefix, c[1]);
    }
  }
  const ix = prefixOf.get(NS.ix) ?? 'ix';
  const xbrli = prefixOf.get(NS.xbrli) ?? 'xbrli';
  const xbrldi = prefixOf.get(NS.xbrldi) ?? 'xbrldi';
  const tag = {
    nonFraction: `${ix}:nonFraction`,
    nonNumeric: `${ix}:nonNumeric`,
    context: `${xbrli}:context`,
    unit: `${xbrli}:unit`,
  };
  const canon = (qname: string): string => {
    const q = qname.trim();
    const i = q.indexOf(':');
    if (i < 0) return q;
    const c = canonical.get(q.slice(0, i));
    return c ? `${c}${q.slice(i)}` : q;
  };

  const contexts = new Map<string, IxContext>();
  const units = new Map<string, string>();
  const facts: IxNumericFact[] = [];
  const dei = new Map<string, string>();

  const stack: ChildNode[] = [...dom.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const name = node.name;
    if (name === tag.nonFraction) {
      const a = node.attribs;
      facts.push({
        element: node,
        concept: canon(a.name ?? ''),
        contextRef: a.contextRef ?? '',
        unitRef: a.unitRef ?? null,
        id: a.id ?? null,
        format: a.format,
        scale: a.scale,
        sign: a.sign,
        decimals: a.decimals ?? null,
        nil: a['xsi:nil'] === 'true',
        text: textContent(node),
      });
      // Nested nonFractions are facts of their own: keep walking.
    } else if (name === tag.nonNumeric) {
      const concept = canon(node.attribs.name ?? '');
      if (concept.startsWith('dei:')) {
        const local = concept.slice(4);
        if (!dei.has(local)) dei.set(local, normalizeWhitespace(textContent(node)));
      }
    } else if (name === tag.context) {
      const ctx = readContext(node, xbrli, xbrldi, canon);
      if (ctx) contexts.set(ctx.id, ctx);
      continue;
    } else if (name === tag.unit) {
      const id = node.attribs.id;
      if (id) units.set(id, readUnit(node, xbrli));
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return { dom, contexts, units, facts, dei };
}

function readContext(el: Element, xbrli: string, xbrldi: string, canon: (q: string) => string): IxContext | null {
  const id = el.attribs.id;
  if (!id) return null;
  let entity: string | null = null;
  let startDate: string | null = null;
  let endDate: string | null = null;
  let instant = false;
  const dimensions: IxContext['dimensions'] = [];
  const visit = (e: Element): void => {
    for (const c of childElements(e)) {
      switch (c.name) {
        case `${xbrli}:identifier`:
          entity = textContent(c).trim();
          break;
        case `${xbrli}:startDate`:
          startDate = textContent(c).trim().slice(0, 10);
          break;
        case `${xbrli}:endDate`:
          endDate = textContent(c).trim().slice(0, 10);
          break;
        case `${xbrli}:instant`:
          endDate = textContent(c).trim().slice(0, 10);
          instant = true;
          break;
        case `${xbrldi}:explicitMember`:
          dimensions.push({ axis: canon(c.attribs.dimension ?? ''), member: canon(textContent(c)) });
          break;
        case `${xbrldi}:typedMember`:
          dimensions.push({ axis: canon(c.attribs.dimension ?? ''), member: normalizeWhitespace(textContent(c)), typed: true });
          break;
        default:
          visit(c);
      }
    }
  };
  visit(el);
  if (!endDate) return null;
  return { id, entity, startDate: instant ? null : startDate, endDate, instant, dimensions };
}

function readUnit(el: Element, xbrli: string): string {
  const measures = (e: Element): string[] => {
    const out: string[] = [];
    const walk = (n: Element): void => {
      for (const c of childElements(n)) {
        if (c.name === `${xbrli}:measure`) out.push(textContent(c).trim().replace(/^[^:]*:/, ''));
        else walk(c);
      }
    };
    walk(e);
    return out;
  };
  const divide = childElements(el).find((c) => c.name === `${xbrli}:divide`);
  if (divide) {
    const num = childElements(divide).find((c) => c.name === `${xbrli}:unitNumerator`);
    const den = childElements(divide).find((c) => c.name === `${xbrli}:unitDenominator`);
    return `${num ? measures(num).join('*') : ''}/${den ? measures(den).join('*') : ''}`;
  }
  return measures(el).join('*');
}

/** The dei facts of the cover page a filing's records need. */
export interface DocumentInfo {
  /** dei:EntityRegistrantName. */
  entityName: string | null;
  cik: string | null;
  documentType: string | null;
  fiscalYearFocus: number | null;
  fiscalPeriodFocus: string | null;
  periodEndDate: string | null;
  fiscalYearEnd: string | null;
}

export function documentInfoOf(doc: IxDocument): DocumentInfo {
  const fy = doc.dei.get('DocumentFiscalYearFocus');
  return {
    entityName: doc.dei.get('EntityRegistrantName') ?? null,
    cik: doc.dei.get('EntityCentralIndexKey') ?? null,
    documentType: doc.dei.get('DocumentType') ?? null,
    fiscalYearFocus: fy && /^\d{4}$/.test(fy) ? Number(fy) : null,
    fiscalPeriodFocus: doc.dei.get('DocumentFiscalPeriodFocus') ?? null,
    periodEndDate: readDate(doc.dei.get('DocumentPeriodEndDate')),
    fiscalYearEnd: doc.dei.get('CurrentFiscalYearEndDate') ?? null,
  };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** dei:DocumentPeriodEndDate as printed ("March 29, 2025", "2025-03-29") -> YYYY-MM-DD. */
function readDate(text: string | undefined): string | null {
  if (!text) return null;
  const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return iso[0];
  const m = /([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  if (month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}
