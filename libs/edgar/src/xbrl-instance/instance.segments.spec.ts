import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalDecimal, parseInstance } from './instance.parser';
import { extractInstanceSegments, type InstanceSegmentExtraction, type InstanceSegmentFact } from './instance.segments';

/*
 * Expected values were read from the fixture itself (grep of TSLA-tsla-20240630_htm.xml, Tesla's
 * 10-Q for the quarter ended 2024-06-30), e.g.
 *   <us-gaap:Revenues contextRef="c-304" decimals="-6" id="f-1085" unitRef="usd">22486000000</us-gaap:Revenues>
 * with context c-304 = StatementBusinessSegmentsAxis / tsla:AutomotiveSegmentMember, 2024-04-01..2024-06-30.
 */
const DIR = join(__dirname, '../../../../../shared/fixtures/xbrl');
const FILE = 'TSLA-tsla-20240630_htm.xml';

let cached: { bytes: Buffer; result: InstanceSegmentExtraction } | undefined;
function load() {
  if (!cached) {
    const bytes = readFileSync(join(process.env.FIXTURES_DIR ? join(process.env.FIXTURES_DIR, 'xbrl') : DIR, FILE));
    cached = { bytes, result: extractInstanceSegments(bytes) };
  }
  return cached;
}

function find(facts: InstanceSegmentFact[], concept: string, member: string, start: string, end: string): InstanceSegmentFact[] {
  return facts.filter((f) => f.concept === concept && f.member === member && f.period.start === start && f.period.end === end);
}

describe('extractInstanceSegments (Tesla 10-Q, quarter ended 2024-06-30, plain instance)', () => {
  it('reads the automotive business segment revenue for the quarter and the six months', () => {
    const { facts } = load().result;
    const q = find(facts, 'us-gaap:Revenues', 'tsla:AutomotiveSegmentMember', '2024-04-01', '2024-06-30');
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({
      axis: 'us-gaap:StatementBusinessSegmentsAxis',
      dimension: 'segment',
      metric: 'revenue',
      metricKey: 'segment_revenue.segment',
      value: '22486000000',
      number: 22_486_000_000,
      unit: 'USD',
      decimals: '-6',
      contextId: 'c-304',
      entity: '0001318605',
      factId: 'f-1085',
      period: { start: '2024-04-01', end: '2024-06-30', kind: 'quarter', calendar: '2024-Q2' },
    });
    const ytd = find(facts, 'us-gaap:Revenues', 'tsla:AutomotiveSegmentMember', '2024-01-01', '2024-06-30');
    expect(ytd.map((f) => [f.value, f.contextId, f.period.kind])).toEqual([['42152000000', 'c-306', 'ytd']]);
    // Prior-year quarter, c-305.
    expect(find(facts, 'us-gaap:Revenues', 'tsla:AutomotiveSegmentMember', '2023-04-01', '2023-06-30')[0]?.value).toBe('23418000000');
  });

  it('reads the energy generation and storage segment revenue', () => {
    const { facts } = load().result;
    const member = 'tsla:EnergyGenerationAndStorageSegmentMember';
    expect(find(facts, 'us-gaap:Revenues', member, '2024-04-01', '2024-06-30').map((f) => [f.value, f.contextId])).toEqual([['3014000000', 'c-308']]);
    expect(find(facts, 'us-gaap:Revenues', member, '2024-01-01', '2024-06-30').map((f) => [f.value, f.contextId])).toEqual([['4649000000', 'c-310']]);
  });

  it('reads the United States and China geographic revenue', () => {
    const { facts } = load().result;
    const us = find(facts, 'us-gaap:Revenues', 'country:US', '2024-04-01', '2024-06-30');
    expect(us.map((f) => [f.value, f.axis, f.dimension, f.contextId])).toEqual([['13256000000', 'srt:StatementGeographicalAxis', 'geography', 'c-312']]);
    expect(find(facts, 'us-gaap:Revenues', 'country:US', '2024-01-01', '2024-06-30')[0]?.value).toBe('23018000000');
    expect(find(facts, 'us-gaap:Revenues', 'country:CN', '2024-04-01', '2024-06-30')[0]?.value).toBe('4636000000');
    expect(find(facts, 'us-gaap:Revenues', 'country:CN', '2024-01-01', '2024-06-30')[0]?.value).toBe('9228000000');
  });

  it('reads product-or-service revenue under RevenueFromContractWithCustomerExcludingAssessedTax', () => {
    const { facts } = load().result;
    const concept = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax';
    // c-9: srt:ProductOrServiceAxis = tsla:AutomotiveSalesMember, 2024-04-01..2024-06-30.
    const sales = find(facts, concept, 'tsla:AutomotiveSalesMember', '2024-04-01', '2024-06-30');
    expect(sales.map((f) => [f.value, f.dimension, f.contextId])).toEqual([['18530000000', 'product_or_service', 'c-9']]);
    // c-25: tsla:EnergyGenerationAndStorageMember, same quarter.
    expect(find(facts, concept, 'tsla:EnergyGenerationAndStorageMember', '2024-04-01', '2024-06-30')[0]?.value).toBe('3014000000');
  });

  it('keeps no undimensioned totals and dedupes facts repeated in the instance', () => {
    const { facts, skipped } = load().result;
    // c-33 (2024-04-01..2024-06-30, no dimension) carries total revenues 25500000000: not a segment fact.
    expect(facts.some((f) => f.contextId === 'c-33')).toBe(false);
    // f-116 and f-499 are the same c-9 fact (18530000000) printed twice: kept once.
    expect(facts.filter((f) => f.contextId === 'c-9')).toHaveLength(1);
    expect(skipped.duplicates).toBeGreaterThan(0);
    expect(skipped.conflicts).toBe(0);
    const keys = facts.map((f) => [f.concept, f.member, f.period.start, f.period.end, f.unit].join('|'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(facts.every((f) => Number.isFinite(f.number) && String(f.number) === f.value)).toBe(true);
  });

  it('parses contexts and units with xbrli as the default namespace', () => {
    const doc = parseInstance(load().bytes);
    expect(doc.contexts.get('c-1')).toEqual({
      id: 'c-1',
      entity: '0001318605',
      startDate: '2024-01-01',
      endDate: '2024-06-30',
      instant: false,
      dimensions: [],
    });
    expect(doc.contexts.get('c-5')).toMatchObject({
      instant: true,
      endDate: '2024-06-30',
      dimensions: [{ axis: 'us-gaap:PropertyPlantAndEquipmentByTypeAxis', member: 'tsla:OperatingLeaseVehiclesMember' }],
    });
    expect(doc.units.get('usd')).toBe('USD');
    expect(doc.units.get('usdPerShare')).toBe('USD/shares');
    expect(doc.units.get('shares')).toBe('shares');
  });
});

describe('canonicalDecimal', () => {
  it('keeps values exact', () => {
    expect(canonicalDecimal('22486000000')).toBe('22486000000');
    expect(canonicalDecimal('-0012.500')).toBe('-12.5');
    expect(canonicalDecimal('+7')).toBe('7');
    expect(canonicalDecimal('.5')).toBe('0.5');
    expect(canonicalDecimal('-0')).toBe('0');
    expect(canonicalDecimal('1e9')).toBeNull();
    expect(canonicalDecimal('')).toBeNull();
  });
});

describe('parseInstance', () => {
  it('resolves prefixed xbrli and canonicalizes taxonomy prefixes', () => {
    const xml = `<?xml version="1.0"?>
<x:xbrl xmlns:x="http://www.xbrl.org/2003/instance" xmlns:gaap="http://fasb.org/us-gaap/2024" xmlns:d="http://xbrl.org/2006/xbrldi" xmlns:s="http://fasb.org/srt/2024" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <x:context id="a"><x:entity><x:identifier scheme="http://www.sec.gov/CIK">1</x:identifier><x:segment><d:explicitMember dimension="s:StatementGeographicalAxis">s:AmericasMember</d:explicitMember></x:segment></x:entity>
    <x:period><x:startDate>2024-01-01</x:startDate><x:endDate>2024-03-31</x:endDate></x:period></x:context>
  <x:unit id="u"><x:measure>iso4217:USD</x:measure></x:unit>
  <gaap:Revenues contextRef="a" unitRef="u" decimals="-3">1000.0</gaap:Revenues>
  <gaap:Revenues contextRef="a" unitRef="u" decimals="-3" xsi:nil="true"/>
</x:xbrl>`;
    const result = extractInstanceSegments(xml);
    expect(result.facts).toHaveLength(1);
    expect(result.facts[0]).toMatchObject({ concept: 'us-gaap:Revenues', axis: 'srt:StatementGeographicalAxis', member: 'srt:AmericasMember', value: '1000', unit: 'USD' });
    expect(result.skipped.nil).toBe(1);
  });

  it('rejects a document that is not an instance', () => {
    expect(() => parseInstance('<html><body/></html>')).toThrow(/not xbrli:xbrl/);
  });
});
