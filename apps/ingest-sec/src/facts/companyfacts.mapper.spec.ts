import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { parseCompanyFacts, type CompanyFacts, type CompanyFactEntry } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { companyFactsEntryUrl, companyFactsPath, companyFactsRecords, XBRL_FACTS_MAX_RECORD_BYTES } from './companyfacts.mapper';

const EXAMPLES = join(__dirname, '../../../../libs/contracts/src/examples');
const FILES = {
  AAPL: 'AAPL-companyfacts-CIK0000320193.json',
  GOOGL: 'GOOGL-companyfacts-CIK0001652044.json',
  SNOW: 'SNOW-companyfacts-CIK0001640147.json',
  LPA: 'LPA-companyfacts-CIK0001997711.json',
} as const;

const ctx = { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: '2026-07-09T12:00:01.000Z' };
const bytesOf = (file: string) => readFileSync(join(defaultFixturesDir(), 'xbrl', file));

function mapFile(file: string, runCtx = ctx) {
  const bytes = bytesOf(file);
  const facts = parseCompanyFacts(bytes);
  const source = { url: `https://data.sec.gov${companyFactsPath(facts.cik)}`, contentHash: contentHash(bytes), fetchedAt: '2026-07-09T12:00:00.000Z' };
  return { bytes, facts, source, ...companyFactsRecords(facts, source, runCtx) };
}

/** What the raw JSON holds, counted without the parser: concepts with at least one report, and reports. */
function rawCounts(bytes: Buffer): { concepts: number; facts: number } {
  const json = JSON.parse(bytes.toString('utf8')) as { facts: Record<string, Record<string, { units: Record<string, unknown[]> }>> };
  let concepts = 0;
  let facts = 0;
  for (const byConcept of Object.values(json.facts)) {
    for (const c of Object.values(byConcept)) {
      const n = Object.values(c.units).reduce((s, entries) => s + entries.length, 0);
      if (n > 0) concepts += 1;
      facts += n;
    }
  }
  return { concepts, facts };
}

describe('companyfacts -> xbrl-facts@1 on the real company facts', () => {
  it.each(Object.entries(FILES))('%s: one valid record per concept holding every report of the file', (_symbol, file) => {
    const { bytes, records, oversized, skippedFacts, source, facts } = mapFile(file);
    const raw = rawCounts(bytes);
    expect(oversized).toEqual([]);
    expect(skippedFacts).toBe(0);
    expect(records).toHaveLength(raw.concepts);
    expect(records.reduce((n, r) => n + r.data.facts.length, 0)).toBe(raw.facts);
    expect(new Set(records.map((r) => r.key)).size).toBe(records.length);
    for (const r of records) {
      expect(validateRecord(TOPICS.xbrlFacts, r)).toMatchObject({ ok: true });
      expect(r.key).toBe(`${facts.cik}|${r.data.concept}`);
      expect(r.provenance).toMatchObject({ source_url: source.url, content_hash: contentHash(bytes), accession: null });
      // The quote stands verbatim in the file: the concept's member name.
      expect(bytes.includes(r.provenance.quote!)).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(XBRL_FACTS_MAX_RECORD_BYTES);
    }
  });

  it("carries each filing's report as SEC lists it: Apple's diluted EPS for fiscal 2024, $6.08 in its 10-K 0000320193-24-000123", () => {
    const { records } = mapFile(FILES.AAPL);
    const eps = records.find((r) => r.key === '0000320193|us-gaap:EarningsPerShareDiluted')!;
    expect(eps.data).toMatchObject({ entity_name: 'Apple Inc.', source: 'companyfacts', accession: null, document_url: null, concept_label: 'Earnings Per Share, Diluted' });
    expect(eps.data.facts.filter((f) => f.accession === '0000320193-24-000123' && f.period_end === '2024-09-28')).toEqual([
      {
        unit: 'USD/shares',
        period_start: '2023-10-01',
        period_end: '2024-09-28',
        dimensions: {},
        value: 6.08,
        decimals: null,
        accession: '0000320193-24-000123',
        form: '10-K',
        filed: '2024-11-01',
        fiscal_year: 2024,
        fiscal_period: 'FY',
        frame: null,
        label: null,
        quote: null,
      },
    ]);
  });

  it('IFRS facts are facts: LPA reports ifrs-full concepts in USD', () => {
    const { records } = mapFile(FILES.LPA);
    expect(records.every((r) => /^(dei|ifrs-full):/.test(r.data.concept))).toBe(true);
    const revenue = records.find((r) => r.data.concept === 'ifrs-full:Revenue')!;
    expect(revenue.data.facts.every((f) => f.unit === 'USD' && f.period_start !== null)).toBe(true);
    const file = join(EXAMPLES, 'xbrl-facts@1.lpa-revenue-companyfacts.json');
    if (process.env.WRITE_EXAMPLES === '1') writeFileSync(file, `${JSON.stringify(revenue, null, 2)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(revenue);
  });

  it('the same file maps to the same keys and ids on another run', () => {
    const first = mapFile(FILES.SNOW);
    const again = mapFile(FILES.SNOW, { runId: 'run_other', origin: 'live' as const, extractedAt: '2027-01-01T00:00:00.000Z' });
    expect(again.records.map((r) => [r.key, r.id])).toEqual(first.records.map((r) => [r.key, r.id]));
  });

  it('refuses a concept whose record would pass the bound, by name and size, and publishes the rest', () => {
    const { facts, source } = mapFile(FILES.AAPL);
    // Apple's every USD report gathered under one concept: a history far longer than any real concept's.
    const usGaap = facts.facts.get('us-gaap')!;
    const everyUsd: CompanyFactEntry[] = [...usGaap.values()].flatMap((c) => c.units.get('USD') ?? []);
    const huge: CompanyFacts = { ...facts, facts: new Map([...facts.facts, ['us-gaap', new Map([...usGaap, ['Revenues', { label: 'Revenues', description: null, units: new Map([['USD', everyUsd]]) }]])]]) };
    const mapped = companyFactsRecords(huge, source, ctx);
    expect(mapped.oversized).toEqual([{ concept: 'us-gaap:Revenues', facts: everyUsd.length, bytes: expect.any(Number) }]);
    expect(mapped.oversized[0]!.bytes).toBeGreaterThan(XBRL_FACTS_MAX_RECORD_BYTES);
    expect(mapped.records.some((r) => r.data.concept === 'us-gaap:Revenues')).toBe(false);
    expect(mapped.records).toHaveLength(mapFile(FILES.AAPL).records.length - 1);
  });

  it('names a zip entry by the data.sec.gov URL of the same file', () => {
    expect(companyFactsEntryUrl('https://data.sec.gov/', 'CIK0000320193.json')).toBe('https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json');
  });
});
