import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCompanyFacts } from '../companyfacts';
import { normalizeWhitespace, parseIxbrl, textContent } from './ixbrl.document';
import { extractFacts, type FactsExtraction, type InlineFact } from './facts.extractor';

/*
 * Apple's 10-Q for the quarter ended 2025-03-29 (accession 0000320193-25-000057) read two ways: its
 * inline XBRL (AAPL-aapl-20250329.htm) and Apple's company facts (AAPL-companyfacts-CIK0000320193.json,
 * the entries whose accn is that filing). Printed figures named below were read from the 10-Q's
 * condensed consolidated statements (USD millions as printed): "Total net sales $ 95,359 $ 90,753
 * $ 219,659 $ 210,328", "Net income $ 24,780 ...", "Diluted $ 1.65 $ 1.53 $ 4.05 $ 3.71",
 * "Total assets $ 331,233 $ 364,980"; Note 2's iPhone net sales of the quarter 46,841.
 */
const DIR = process.env.FIXTURES_DIR ? join(process.env.FIXTURES_DIR, 'xbrl') : join(__dirname, '../../../../../shared/fixtures/xbrl');
const FILES = {
  AAPL: 'AAPL-aapl-20250329.htm',
  TSLA: 'TSLA-tsla-10-q-2025-07-24.html',
  NVDA: 'NVDA-nvda-10-q-2025-08-27.html',
} as const;
const APPLE_10Q = '0000320193-25-000057';
const M = 1_000_000;

const cache = new Map<string, { bytes: Buffer; result: FactsExtraction }>();
function load(ticker: keyof typeof FILES) {
  let r = cache.get(ticker);
  if (!r) {
    const bytes = readFileSync(join(DIR, FILES[ticker]));
    r = { bytes, result: extractFacts(bytes) };
    cache.set(ticker, r);
  }
  return r;
}

const factKey = (concept: string, unit: string, start: string | null | undefined, end: string): string => [concept, unit, start ?? '', end].join('|');
const consolidated = (facts: InlineFact[]): InlineFact[] => facts.filter((f) => Object.keys(f.dimensions).length === 0);
function one(facts: InlineFact[], concept: string, start: string | null, end: string, dimensions: Record<string, string> = {}): InlineFact {
  const found = facts.filter((f) => f.concept === concept && f.startDate === start && f.endDate === end && JSON.stringify(f.dimensions) === JSON.stringify(dimensions));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('extractFacts against company facts: Apple 10-Q 0000320193-25-000057', () => {
  // The company-facts entries of the filing, by (concept, unit, period): company facts is consolidated only.
  const companyFacts = parseCompanyFacts(readFileSync(join(DIR, 'AAPL-companyfacts-CIK0000320193.json')));
  const reported = new Map<string, number>();
  for (const [taxonomy, concepts] of companyFacts.facts) {
    for (const [concept, { units }] of concepts) {
      for (const [unit, entries] of units) {
        for (const e of entries) if (e.accn === APPLE_10Q) reported.set(factKey(`${taxonomy}:${concept}`, unit, e.start, e.end), e.val);
      }
    }
  }

  it('every fact both hold has the same value, and company facts holds none the document does not', () => {
    const inline = new Map(consolidated(load('AAPL').result.facts).map((f) => [factKey(f.concept, f.unit, f.startDate, f.endDate), f.value]));
    const missing: string[] = [];
    const differing: string[] = [];
    let equal = 0;
    for (const [key, val] of reported) {
      const value = inline.get(key);
      if (value === undefined) missing.push(key);
      else if (value === val) equal += 1;
      else differing.push(`${key}: inline ${value}, company facts ${val}`);
    }
    // Every one of the filing's company-facts entries (us-gaap and the cover page's dei shares
    // outstanding alike) is an ix:nonFraction of the document: none is missing, none differs.
    expect({ missing, differing }).toEqual({ missing: [], differing: [] });
    expect(equal).toBe(reported.size);
    expect(equal).toBeGreaterThan(200);
  });

  it("what the document holds beyond company facts is the filer's own taxonomy (aapl:), which SEC does not keep", () => {
    const taxonomies = new Set([...companyFacts.facts.keys()]);
    const beyond = consolidated(load('AAPL').result.facts).filter((f) => !reported.has(factKey(f.concept, f.unit, f.startDate, f.endDate)));
    expect(beyond.length).toBeGreaterThan(0);
    expect(beyond.filter((f) => taxonomies.has(f.concept.slice(0, f.concept.indexOf(':'))))).toEqual([]);
    expect(new Set(beyond.map((f) => f.concept.split(':')[0]))).toEqual(new Set(['aapl']));
  });

  it('names the printed figures with their rows', () => {
    const facts = load('AAPL').result.facts;
    const sales = one(facts, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', '2024-12-29', '2025-03-29');
    expect(sales).toMatchObject({ unit: 'USD', value: 95_359 * M, decimals: '-6', label: 'Total net sales' });
    expect(sales.quote).toMatch(/^Total net sales ?\$? ?95,359 /);
    expect(one(facts, 'us-gaap:NetIncomeLoss', '2024-09-29', '2025-03-29')).toMatchObject({ value: 61_110 * M, label: 'Net income' });
    expect(one(facts, 'us-gaap:EarningsPerShareDiluted', '2024-12-29', '2025-03-29')).toMatchObject({ unit: 'USD/shares', value: 1.65, decimals: '2', label: 'Diluted' });
    expect(one(facts, 'us-gaap:Assets', null, '2025-03-29')).toMatchObject({ value: 331_233 * M, label: 'Total assets' });
    // Dimensional facts are facts too: Note 2's iPhone net sales.
    expect(one(facts, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', '2024-12-29', '2025-03-29', { 'srt:ProductOrServiceAxis': 'aapl:IPhoneMember' })).toMatchObject({
      value: 46_841 * M,
      label: 'iPhone®',
    });
    // The cover page's shares outstanding, in a sentence: quoted by its paragraph, no row label.
    expect(one(facts, 'dei:EntityCommonStockSharesOutstanding', null, '2025-04-18')).toMatchObject({ unit: 'shares', value: 14_935_826_000, label: null });
  });

  it('reads the dei facts of the filing', () => {
    expect(load('AAPL').result.document).toMatchObject({ entityName: 'Apple Inc.', cik: '0000320193', documentType: '10-Q', fiscalYearFocus: 2025, fiscalPeriodFocus: 'Q2' });
  });

  it('prints a figure twice, keeps it once; typed-member contexts and nil facts are counted, not returned', () => {
    const { facts, skipped } = load('AAPL').result;
    const keys = facts.map((f) => [f.concept, f.unit, f.startDate, f.endDate, JSON.stringify(f.dimensions)].join('|'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(skipped.duplicates).toBeGreaterThan(0);
    expect(skipped.typedDimension).toBeGreaterThan(0);
    expect(skipped.nil).toBeGreaterThan(0);
    // Every nonFraction of the document is returned or counted in exactly one reason.
    const counted = Object.values(skipped).reduce((a, n) => a + n, 0);
    expect(facts.length + counted).toBe(parseIxbrl(load('AAPL').bytes).facts.length);
  });
});

describe.each(Object.keys(FILES) as Array<keyof typeof FILES>)('extractFacts on the %s 10-Q', (ticker) => {
  it('returns every numeric fact, dimensional ones included, each quoted from the document text', () => {
    const { bytes, result } = load(ticker);
    const doc = parseIxbrl(bytes);
    expect(result.document.documentType).toBe('10-Q');
    expect(result.facts.length).toBeGreaterThan(300);
    expect(result.skipped).toMatchObject({ conflicts: 0, unreadable: 0, missingContext: 0, missingUnit: 0 });
    expect(consolidated(result.facts).length).toBeGreaterThan(150);
    expect(result.facts.length - consolidated(result.facts).length).toBeGreaterThan(100);
    const text = normalizeWhitespace(textContent(doc.dom));
    expect(result.facts.filter((f) => !f.quote || !text.includes(f.quote))).toEqual([]);
    const qname = /^[A-Za-z][\w.-]*:[A-Za-z_][\w.-]*$/;
    expect(result.facts.filter((f) => !qname.test(f.concept) || Object.entries(f.dimensions).some(([a, m]) => !qname.test(a) || !qname.test(m)))).toEqual([]);
    expect(result.facts.filter((f) => !Number.isFinite(f.value) || !/^(USD|shares|USD\/shares|pure|[A-Za-z]\w*)$/.test(f.unit))).toEqual([]);
  });
});
