import { parseDocument } from 'htmlparser2';
import { isTag, type Element } from 'domhandler';
import { EdgarParseError } from '../edgar.parse-error';
import { textContent, type IxContext } from '../ixbrl/ixbrl.document';
import { scaleDecimal } from '../ixbrl/ixbrl.numbers';

/**
 * One pass over a plain XBRL instance document (`*_htm.xml`, the instance SEC extracts from an
 * inline filing): its contexts, units and every item fact (an element with a `contextRef`).
 *
 * Names are resolved by namespace, not by the prefix the document happens to use: `xbrli` is often
 * the default namespace (`<context>`, `<unit>`), and concept, axis and member QNames are rewritten to
 * the canonical us-gaap / srt / dei / country prefixes whatever year of the taxonomy is declared.
 * Pure: bytes in, values out.
 */

/** Same shape as an inline-XBRL context: entity, period, explicit (and typed) members by axis. */
export type InstanceContext = IxContext;

export interface InstanceFact {
  /** Canonical QName, e.g. `us-gaap:Revenues`. */
  concept: string;
  contextRef: string;
  unitRef: string | null;
  id: string | null;
  decimals: string | null;
  nil: boolean;
  /** The element's text, trimmed, as written. */
  text: string;
}

export interface InstanceDocument {
  contexts: Map<string, InstanceContext>;
  /** unit id -> `USD`, `shares`, `USD/shares`. */
  units: Map<string, string>;
  facts: InstanceFact[];
}

const NS = {
  xbrli: 'http://www.xbrl.org/2003/instance',
  xbrldi: 'http://xbrl.org/2006/xbrldi',
  link: 'http://www.xbrl.org/2003/linkbase',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
} as const;

/** Namespaces whose QNames keep a canonical prefix (the taxonomy year in the URI varies). */
const CANONICAL_PREFIXES: Array<[RegExp, string]> = [
  [/^http:\/\/fasb\.org\/us-gaap\//, 'us-gaap'],
  [/^http:\/\/fasb\.org\/srt\//, 'srt'],
  [/^http:\/\/xbrl\.sec\.gov\/dei\//, 'dei'],
  [/^http:\/\/xbrl\.sec\.gov\/country\//, 'country'],
];

type Scope = ReadonlyMap<string, string>;

/** The scope of `el`: its parent's, plus its own xmlns declarations ('' is the default namespace). */
function scopeOf(el: Element, parent: Scope): Scope {
  let scope: Map<string, string> | null = null;
  for (const [name, uri] of Object.entries(el.attribs)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    scope ??= new Map(parent);
    scope.set(name === 'xmlns' ? '' : name.slice(6), uri);
  }
  return scope ?? parent;
}

function split(qname: string): [prefix: string, local: string] {
  const i = qname.indexOf(':');
  return i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

/** Namespace URI and local name of an element. */
function nameOf(el: Element, scope: Scope): { ns: string; local: string } {
  const [prefix, local] = split(el.name);
  return { ns: scope.get(prefix) ?? '', local };
}

/** A QName written in content or an attribute, under the canonical prefix of its namespace when it has one. */
function canonicalQName(qname: string, scope: Scope): string {
  const q = qname.trim();
  const [prefix, local] = split(q);
  const uri = scope.get(prefix);
  const c = uri ? CANONICAL_PREFIXES.find(([re]) => re.test(uri)) : undefined;
  return c ? `${c[1]}:${local}` : q;
}

function childElements(el: Element): Element[] {
  return el.children.filter((c): c is Element => isTag(c));
}

/** Parses the instance. Throws EdgarParseError when the root is not an `xbrli:xbrl` element. */
export function parseInstance(bytes: Buffer | Uint8Array | string): InstanceDocument {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const dom = parseDocument(text.replace(/^\uFEFF/, ''), { xmlMode: true, decodeEntities: true });
  const root = dom.children.find((c): c is Element => isTag(c));
  if (!root) throw new EdgarParseError('XBRL instance', 'no root element');
  const rootScope = scopeOf(root, new Map());
  const rootName = nameOf(root, rootScope);
  if (rootName.ns !== NS.xbrli || rootName.local !== 'xbrl') {
    throw new EdgarParseError('XBRL instance', `root element is ${root.name}, not xbrli:xbrl`);
  }

  const contexts = new Map<string, InstanceContext>();
  const units = new Map<string, string>();
  const facts: InstanceFact[] = [];

  const walk = (parent: Element, parentScope: Scope): void => {
    for (const el of childElements(parent)) {
      const scope = scopeOf(el, parentScope);
      const { ns, local } = nameOf(el, scope);
      if (ns === NS.xbrli) {
        if (local === 'context') {
          const ctx = readContext(el, scope);
          if (ctx) contexts.set(ctx.id, ctx);
        } else if (local === 'unit') {
          const id = el.attribs.id;
          if (id) units.set(id, readUnit(el, scope));
        }
        continue;
      }
      if (ns === NS.link) continue;
      const contextRef = el.attribs.contextRef;
      if (contextRef !== undefined) {
        facts.push({
          concept: canonicalQName(el.name, scope),
          contextRef,
          unitRef: el.attribs.unitRef ?? null,
          id: el.attribs.id ?? null,
          decimals: el.attribs.decimals ?? null,
          nil: isNil(el, scope),
          text: textContent(el).trim(),
        });
      } else {
        // A tuple: its items are facts of their own.
        walk(el, scope);
      }
    }
  };
  walk(root, rootScope);
  return { contexts, units, facts };
}

function isNil(el: Element, scope: Scope): boolean {
  for (const [name, value] of Object.entries(el.attribs)) {
    const [prefix, local] = split(name);
    if (local === 'nil' && prefix && scope.get(prefix) === NS.xsi) return value.trim() === 'true';
  }
  return false;
}

function readContext(el: Element, scope: Scope): InstanceContext | null {
  const id = el.attribs.id;
  if (!id) return null;
  let entity: string | null = null;
  let startDate: string | null = null;
  let endDate: string | null = null;
  let instant = false;
  const dimensions: InstanceContext['dimensions'] = [];
  const visit = (e: Element, parentScope: Scope): void => {
    for (const c of childElements(e)) {
      const s = scopeOf(c, parentScope);
      const { ns, local } = nameOf(c, s);
      const key = ns === NS.xbrli ? `xbrli:${local}` : ns === NS.xbrldi ? `xbrldi:${local}` : null;
      switch (key) {
        case 'xbrli:identifier':
          entity = textContent(c).trim();
          break;
        case 'xbrli:startDate':
          startDate = textContent(c).trim().slice(0, 10);
          break;
        case 'xbrli:endDate':
          endDate = textContent(c).trim().slice(0, 10);
          break;
        case 'xbrli:instant':
          endDate = textContent(c).trim().slice(0, 10);
          instant = true;
          break;
        case 'xbrldi:explicitMember':
          dimensions.push({ axis: canonicalQName(c.attribs.dimension ?? '', s), member: canonicalQName(textContent(c), s) });
          break;
        case 'xbrldi:typedMember':
          dimensions.push({ axis: canonicalQName(c.attribs.dimension ?? '', s), member: textContent(c).replace(/\s+/g, ' ').trim(), typed: true });
          break;
        case null:
        default:
          visit(c, s);
      }
    }
  };
  visit(el, scope);
  if (!endDate) return null;
  return { id, entity, startDate: instant ? null : startDate, endDate, instant, dimensions };
}

function readUnit(el: Element, scope: Scope): string {
  const measures = (e: Element, parentScope: Scope): string[] => {
    const out: string[] = [];
    const walk = (n: Element, ns: Scope): void => {
      for (const c of childElements(n)) {
        const s = scopeOf(c, ns);
        if (nameOf(c, s).local === 'measure') out.push(split(textContent(c).trim())[1]);
        else walk(c, s);
      }
    };
    walk(e, parentScope);
    return out;
  };
  const divide = childElements(el).find((c) => nameOf(c, scope).local === 'divide');
  if (divide) {
    const num = childElements(divide).find((c) => nameOf(c, scope).local === 'unitNumerator');
    const den = childElements(divide).find((c) => nameOf(c, scope).local === 'unitDenominator');
    return `${num ? measures(num, scope).join('*') : ''}/${den ? measures(den, scope).join('*') : ''}`;
  }
  return measures(el, scope).join('*');
}

/**
 * An xsd:decimal as written in an instance (`-1234.50`, `+7`, `.5`) -> canonical decimal string
 * (`-1234.5`, `7`, `0.5`), exact; null when the text is not a decimal.
 */
export function canonicalDecimal(text: string): string | null {
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)$/.exec(text.trim());
  if (!m) return null;
  const magnitude = scaleDecimal(m[2]!.replace(/\.$/, ''), 0);
  return m[1] === '-' && magnitude !== '0' ? `-${magnitude}` : magnitude;
}
