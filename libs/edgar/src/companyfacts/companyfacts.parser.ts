import { EdgarParseError } from '../edgar.parse-error';
import { isRecord, parseJsonBytes, textOrNull } from '../json-bytes';

/**
 * data.sec.gov `api/xbrl/companyfacts/CIK##########.json`: every fact a company has filed, by
 * taxonomy (`us-gaap`, `dei`, `srt`, `ifrs-full`, ...), concept and unit.
 *
 * Segments are NOT here: companyfacts keeps only facts of contexts without dimensions. Every
 * dimensional fact (a business segment, a product line, a geography, any `xbrldi:explicitMember`)
 * is dropped by SEC when the frames are built, so a company's segment revenue and segment operating
 * income never appear in this file. That is why segment figures come from the filing's own inline
 * XBRL (libs/edgar/src/ixbrl) or its instance document (libs/edgar/src/xbrl-instance); companyfacts
 * serves consolidated, undimensioned series only.
 */

export interface CompanyFactEntry {
  /** YYYY-MM-DD: end of the duration, or the instant. */
  end: string;
  /** YYYY-MM-DD start of a duration; absent for instants. */
  start?: string;
  val: number;
  /** Accession number of the filing that reported it, `0001640147-25-000052`. */
  accn: string;
  /** Fiscal year / period of the FILING (not of the fact), as SEC derives them; null when SEC has none. */
  fy: number | null;
  fp: string | null;
  form: string;
  /** YYYY-MM-DD the filing was accepted. */
  filed: string;
  /** SEC calendar frame (`CY2024`, `CY2024Q3`, `CY2024Q4I`) when this entry is the one SEC chose for it. */
  frame?: string;
}

export interface CompanyConcept {
  label: string | null;
  description: string | null;
  /** unit (`USD`, `shares`, `USD/shares`) -> entries in the order SEC lists them. */
  units: Map<string, CompanyFactEntry[]>;
}

/** taxonomy -> concept local name -> concept. */
export type CompanyFactsByTaxonomy = Map<string, Map<string, CompanyConcept>>;

export interface CompanyFacts {
  /** 10 digits, zero-padded: `0001640147`. */
  cik: string;
  entityName: string;
  facts: CompanyFactsByTaxonomy;
}

const SOURCE = 'companyfacts';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function fail(message: string): never {
  throw new EdgarParseError(SOURCE, message);
}

function date(value: unknown, where: string): string {
  if (typeof value !== 'string' || !DATE.test(value)) fail(`${where}: not a YYYY-MM-DD date`);
  return value;
}

function cikOf(value: unknown): string {
  const text = textOrNull(value);
  if (!text || !/^\d{1,10}$/.test(text)) fail('cik is missing or not a number');
  return text.padStart(10, '0');
}

function entryOf(raw: unknown, where: string): CompanyFactEntry {
  if (!isRecord(raw)) fail(`${where}: entry is not an object`);
  const val = raw.val;
  if (typeof val !== 'number' || !Number.isFinite(val)) fail(`${where}: val is not a number`);
  const accn = textOrNull(raw.accn);
  if (!accn) fail(`${where}: accn is missing`);
  const entry: CompanyFactEntry = {
    end: date(raw.end, `${where}.end`),
    val,
    accn,
    fy: typeof raw.fy === 'number' && Number.isInteger(raw.fy) ? raw.fy : null,
    fp: textOrNull(raw.fp),
    form: textOrNull(raw.form) ?? '',
    filed: date(raw.filed, `${where}.filed`),
  };
  if (raw.start !== undefined && raw.start !== null) entry.start = date(raw.start, `${where}.start`);
  const frame = textOrNull(raw.frame);
  if (frame) entry.frame = frame;
  return entry;
}

/** Parses companyfacts JSON bytes. Pure. Throws EdgarParseError on a file of another shape. */
export function parseCompanyFacts(bytes: Uint8Array | string): CompanyFacts {
  const root = parseJsonBytes(bytes, SOURCE);
  if (!isRecord(root)) fail('not a JSON object');
  const cik = cikOf(root.cik);
  const entityName = textOrNull(root.entityName);
  if (!entityName) fail('entityName is missing');
  // A company that never filed XBRL has `"facts": {}`; a missing member is a different file.
  if (!isRecord(root.facts)) fail('facts is not an object');

  const facts: CompanyFactsByTaxonomy = new Map();
  for (const [taxonomy, concepts] of Object.entries(root.facts)) {
    if (!isRecord(concepts)) fail(`facts.${taxonomy} is not an object`);
    const byConcept = new Map<string, CompanyConcept>();
    for (const [concept, rawConcept] of Object.entries(concepts)) {
      const where = `${taxonomy}:${concept}`;
      if (!isRecord(rawConcept) || !isRecord(rawConcept.units)) fail(`${where}: units is missing`);
      const units = new Map<string, CompanyFactEntry[]>();
      for (const [unit, rawEntries] of Object.entries(rawConcept.units)) {
        if (!Array.isArray(rawEntries)) fail(`${where} [${unit}]: not an array`);
        units.set(
          unit,
          rawEntries.map((e, i) => entryOf(e, `${where} [${unit}] #${i}`)),
        );
      }
      byConcept.set(concept, { label: textOrNull(rawConcept.label), description: textOrNull(rawConcept.description), units });
    }
    facts.set(taxonomy, byConcept);
  }
  return { cik, entityName, facts };
}

/**
 * The entries of one concept in one unit, sorted by end date (then start date, durations after
 * instants of the same end, then filing date, then accession): every filing's figure, restatements
 * included, oldest period first. Empty when the company never reported the concept in that unit.
 */
export function conceptSeries(facts: CompanyFacts | CompanyFactsByTaxonomy, taxonomy: string, concept: string, unit: string): CompanyFactEntry[] {
  const byTaxonomy = facts instanceof Map ? facts : facts.facts;
  const entries = byTaxonomy.get(taxonomy)?.get(concept)?.units.get(unit) ?? [];
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort(
    (a, b) => cmp(a.end, b.end) || cmp(a.start ?? '', b.start ?? '') || cmp(a.filed, b.filed) || cmp(a.accn, b.accn),
  );
}
