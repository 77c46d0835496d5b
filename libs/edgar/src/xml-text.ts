const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * XML's five entities and character references. The streaming parsers run the tokenizer with
 * `decodeEntities: false` so row quotes stay verbatim, and decode the values they keep here.
 */
export function decodeXml(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (m, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return named ? (NAMED[named] ?? m) : m;
  });
}

/** Local name of an element: `ns1:infoTable`, `nport:invstOrSec` and `infoTable` are the same element. */
export function xmlLocalName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}
