/**
 * Inline XBRL numeric transformation (the `format` attribute) plus `scale` and `sign`, in exact
 * decimal arithmetic on strings: `1.5` at scale 9 is 1500000000, never 1499999999.9999998.
 */

/** Formats whose displayed text means zero whatever it shows ("—", "-", "nil"). */
const ZERO_FORMATS = new Set(['fixed-zero', 'zerodash', 'numdash', 'fixed-empty']);
/** `1,234.56` / `1 234.56`: group separators are commas, spaces or nbsp; the decimal mark a dot. */
const DOT_DECIMAL_FORMATS = new Set(['num-dot-decimal', 'numdotdecimal', 'numcommadot', 'numspacedot', 'num-dot-decimal-apos']);
/** `1.234,56` / `1 234,56`. */
const COMMA_DECIMAL_FORMATS = new Set(['num-comma-decimal', 'numcommadecimal', 'numdotcomma', 'numspacecomma']);
/** Plain digits as printed (ixt-sec:numunitdecimal etc. are not used by these filers). */
const PLAIN_FORMATS = new Set(['', 'num-unit-decimal', 'numunitdecimal']);

/** ixt-sec:numwordsen: a count written in English words ("two", "twenty-one", "no"). */
const WORD_FORMATS = new Set(['numwordsen', 'num-word-en']);
const SMALL_NUMBERS: Record<string, number> = {
  no: 0, none: 0, zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const MULTIPLIERS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

export class IxbrlFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IxbrlFormatError';
  }
}

/** The local name of a format QName: `ixt:num-dot-decimal` -> `num-dot-decimal`. */
function formatName(format: string | undefined): string {
  if (!format) return '';
  const i = format.indexOf(':');
  return (i >= 0 ? format.slice(i + 1) : format).trim().toLowerCase();
}

/**
 * The displayed text of an ix:nonFraction under its `format`, as a canonical decimal string
 * (`"40315"`, `"0.5"`), before scale and sign. Throws IxbrlFormatError on text the format cannot read.
 */
export function transformNumber(text: string, format: string | undefined): string {
  const name = formatName(format);
  if (ZERO_FORMATS.has(name)) return '0';
  if (WORD_FORMATS.has(name)) return String(numberWords(text));
  let t = text.replace(/[\s\u00a0\u202f]+/g, '');
  if (DOT_DECIMAL_FORMATS.has(name) || PLAIN_FORMATS.has(name)) {
    t = t.replace(/[,'\u2019]/g, '');
  } else if (COMMA_DECIMAL_FORMATS.has(name)) {
    t = t.replace(/[.'\u2019]/g, '').replace(',', '.');
  } else {
    throw new IxbrlFormatError(`unsupported ix format ${format ?? ''}`);
  }
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) throw new IxbrlFormatError(`"${text}" is not a number under ${format ?? 'no format'}`);
  return canonical(t);
}

/** "twenty-one" -> 21, "one hundred and five" -> 105, "two million" -> 2000000. */
function numberWords(text: string): number {
  const words = text.toLowerCase().split(/[\s\u00a0,-]+/).filter((w) => w && w !== 'and');
  if (words.length === 0) throw new IxbrlFormatError(`"${text}" is not a number in words`);
  let total = 0;
  let group = 0;
  for (const w of words) {
    if (w in SMALL_NUMBERS) group += SMALL_NUMBERS[w]!;
    else if (w === 'hundred') group *= 100;
    else if (w in MULTIPLIERS) {
      total += group * MULTIPLIERS[w]!;
      group = 0;
    } else throw new IxbrlFormatError(`"${text}" is not a number in words`);
  }
  return total + group;
}

/** Strips leading/trailing zeros: "040.50" -> "40.5", "0.0" -> "0". */
function canonical(t: string): string {
  let [int = '', frac = ''] = t.split('.');
  int = int.replace(/^0+/, '') || '0';
  frac = frac.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Moves the decimal point of a canonical decimal string by `scale` places (exact). */
export function scaleDecimal(value: string, scale: number): string {
  if (!Number.isInteger(scale)) throw new IxbrlFormatError(`scale ${scale} is not an integer`);
  const [int = '', frac = ''] = value.split('.');
  const digits = int + frac;
  const point = int.length + scale;
  if (point <= 0) return canonical(`0.${'0'.repeat(-point)}${digits}`);
  if (point >= digits.length) return canonical(digits + '0'.repeat(point - digits.length));
  return canonical(`${digits.slice(0, point)}.${digits.slice(point)}`);
}

/** The fact value: format applied, then `scale`, then `sign="-"`. */
export function factValue(text: string, attrs: { format?: string; scale?: string; sign?: string }): number {
  const scale = attrs.scale === undefined || attrs.scale === '' ? 0 : Number(attrs.scale);
  const magnitude = scaleDecimal(transformNumber(text, attrs.format), scale);
  const n = Number(magnitude);
  return attrs.sign === '-' && n !== 0 ? -n : n;
}
