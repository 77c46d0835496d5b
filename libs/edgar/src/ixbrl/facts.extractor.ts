import { isTag, type Element } from 'domhandler';
import { EdgarParseError } from '../edgar.parse-error';
import { documentInfoOf, normalizeWhitespace, parseIxbrl, textContent, type DocumentInfo, type IxDocument, type IxNumericFact } from './ixbrl.document';
import { factValue, IxbrlFormatError } from './ixbrl.numbers';
import { rowOf, rowTexts } from './ixbrl.rows';

/**
 * Every numeric fact of an inline-XBRL document (10-K, 10-Q and their amendments), as the filer
 * tagged it: each `ix:nonFraction` with its concept, unit, period, dimensions, value and decimals,
 * and the table row that holds it. Numeric only: `ix:nonNumeric` (text blocks, dei strings) is not
 * a fact here; the dei strings a filing's records need come back as `document`.
 *
 * - Unit: as SEC writes units in company facts, the local names of the unit's measures
 *   (`iso4217:USD` -> `USD`, `xbrli:shares` -> `shares`, `xbrli:pure` -> `pure`, a custom
 *   `aapl:Vendor` -> `Vendor`), a divide written `<numerator>/<denominator>` (`USD/shares`).
 * - Dimensions: the context's explicit members, axis -> member (canonical QNames), `{}` for a
 *   consolidated fact. A context with a typed member (a date or a number, not a QName: Apple's
 *   remaining performance obligations by expected start date) has no member QName to record: its
 *   facts are skipped and counted in `skipped.typedDimension`.
 * - Value: format, scale and sign applied (factValue); `decimals` as written (`-6`, `INF`).
 * - Duplicates: the same fact (concept, unit, period, dimensions) printed more than once is one
 *   fact. Two printings are consistent when their values agree at the lesser precision (1,523
 *   millions and 1.5 billion, XBRL 2.1's rule): the more precise one is kept and the other counted
 *   in `duplicates`. Printings that disagree are counted in `conflicts`; the first is kept.
 * - Nil facts (`xsi:nil="true"`) have no value: skipped and counted.
 * - Label and quote: a fact in a table row is labelled with the row's first cell and quoted by the
 *   row's text (ixbrl.rows, as segment facts are). A fact outside a table is quoted by its paragraph
 *   (the nearest `p` or `div`) when that is at most QUOTE_MAX characters, else by its own displayed
 *   text, and has no label. Every quote is a substring of the document's normalized text.
 */

export interface InlineFact {
  /** Canonical QName: `us-gaap:Revenues`, `dei:EntityCommonStockSharesOutstanding`, `aapl:...`. */
  concept: string;
  unit: string;
  /** YYYY-MM-DD; null for an instant. */
  startDate: string | null;
  /** End of the duration, or the instant. */
  endDate: string;
  /** Axis -> member QName, axes in sorted order; `{}` for a consolidated fact. */
  dimensions: Record<string, string>;
  value: number;
  decimals: string | null;
  /** The row's first cell as printed; null outside a table. */
  label: string | null;
  quote: string;
  contextId: string;
  factId: string | null;
}

export interface FactsExtraction {
  document: DocumentInfo;
  facts: InlineFact[];
  /** Printings of facts not returned, by reason (see the file comment). */
  skipped: { duplicates: number; conflicts: number; nil: number; unreadable: number; missingContext: number; missingUnit: number; typedDimension: number };
}

/** A paragraph longer than this is not a quote: the fact's own text is. */
const QUOTE_MAX = 1_000;

/** Parses the document and extracts its numeric facts. Pure. */
export function extractFacts(bytes: Buffer | string): FactsExtraction {
  return extractFactsFrom(parseIxbrl(bytes));
}

export function extractFactsFrom(doc: IxDocument): FactsExtraction {
  // A document without a single xbrli:context is not inline XBRL (an HTML 10-Q of before 2019, a cover page).
  if (doc.contexts.size === 0) throw new EdgarParseError('inline XBRL', 'no xbrli:context in the document: not an inline-XBRL filing');
  const skipped: FactsExtraction['skipped'] = { duplicates: 0, conflicts: 0, nil: 0, unreadable: 0, missingContext: 0, missingUnit: 0, typedDimension: 0 };
  const rowInfo = rowTexts();
  const kept = new Map<string, { fact: IxNumericFact; out: Omit<InlineFact, 'label' | 'quote'> }>();

  for (const fact of doc.facts) {
    const ctx = doc.contexts.get(fact.contextRef);
    if (!ctx) {
      skipped.missingContext += 1;
      continue;
    }
    if (ctx.dimensions.some((d) => d.typed)) {
      skipped.typedDimension += 1;
      continue;
    }
    if (fact.nil) {
      skipped.nil += 1;
      continue;
    }
    const unit = fact.unitRef ? doc.units.get(fact.unitRef) : undefined;
    if (!unit) {
      skipped.missingUnit += 1;
      continue;
    }
    let value: number;
    try {
      value = factValue(fact.text, fact);
    } catch (error) {
      if (!(error instanceof IxbrlFormatError)) throw error;
      skipped.unreadable += 1;
      continue;
    }
    const dimensions: Record<string, string> = {};
    for (const d of [...ctx.dimensions].sort((a, b) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0))) dimensions[d.axis] = d.member;
    const key = [fact.concept, unit, ctx.startDate ?? '', ctx.endDate, ...Object.entries(dimensions).map(([a, m]) => `${a}=${m}`)].join('|');
    const out = { concept: fact.concept, unit, startDate: ctx.startDate, endDate: ctx.endDate, dimensions, value, decimals: fact.decimals, contextId: ctx.id, factId: fact.id };
    const prior = kept.get(key);
    if (!prior) {
      kept.set(key, { fact, out });
      continue;
    }
    if (!consistent(prior.out, out)) {
      skipped.conflicts += 1;
      continue;
    }
    skipped.duplicates += 1;
    if (precision(out.decimals) > precision(prior.out.decimals)) kept.set(key, { fact, out });
  }

  const facts: InlineFact[] = [];
  for (const { fact, out } of kept.values()) {
    const tr = rowOf(fact.element);
    const row = tr ? rowInfo(tr) : null;
    facts.push({ ...out, label: row?.label ?? null, quote: row?.quote || paragraphQuote(fact) });
  }
  return { document: documentInfoOf(doc), facts, skipped };
}

/** decimals as a number: INF (or absent, which XBRL reads as exact) is the most precise. */
function precision(decimals: string | null): number {
  if (decimals === null || decimals === 'INF') return Infinity;
  const d = Number(decimals);
  return Number.isInteger(d) ? d : Infinity;
}

/** Rounds to `decimals` places (negative: tens, thousands, ...). */
function roundTo(value: number, decimals: number): number {
  if (decimals === Infinity) return value;
  const f = 10 ** Math.abs(decimals);
  return decimals >= 0 ? Math.round(value * f) / f : Math.round(value / f) * f;
}

/** XBRL 2.1 duplicate consistency: equal when both are rounded to the lesser precision. */
function consistent(a: { value: number; decimals: string | null }, b: { value: number; decimals: string | null }): boolean {
  if (a.value === b.value) return true;
  const d = Math.min(precision(a.decimals), precision(b.decimals));
  return roundTo(a.value, d) === roundTo(b.value, d);
}

/** The text of the fact's paragraph (nearest `p` or `div`) when short enough, else the fact's own text. */
function paragraphQuote(fact: IxNumericFact): string {
  let p: Element | null = fact.element.parent && isTag(fact.element.parent) ? fact.element.parent : null;
  while (p && !/(^|:)(p|div)$/.test(p.name)) p = p.parent && isTag(p.parent) ? p.parent : null;
  const text = p ? normalizeWhitespace(textContent(p)) : '';
  return text && text.length <= QUOTE_MAX ? text : normalizeWhitespace(fact.text);
}
