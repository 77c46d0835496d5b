import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { xbrlFactsRecordV1 } from '@app/contracts';
import { companyFactsRecords, inlineFactsRecord } from '@app/testing';
import { factReportOf, factReportsSql } from './xbrl-facts.repository';
import { factReportRows, mergedReports, mergeReport, reportKey, xbrlConceptRow } from './xbrl-facts.projection';
import { dimensionsText, parseDimensions } from './xbrl-facts.table';

/*
 * Real files: Apple's company facts and its 10-Q for the quarter ended 2025-03-29 (accession
 * 0000320193-25-000057, filed 2025-05-02). Both report net sales (RevenueFromContractWithCustomer
 * ExcludingAssessedTax) of $95,359M for 2024-12-29..2025-03-29; company facts give it frame
 * CY2025Q1, the 10-Q's income statement prints it in the row "Total net sales".
 */
const DIR = join(process.env.FIXTURES_DIR ?? join(__dirname, '../../../../../shared/fixtures'), 'xbrl');
const CONCEPT = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax';
const ACCESSION = '0000320193-25-000057';
const DOC_URL = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';

const companyFacts = companyFactsRecords(readFileSync(join(DIR, 'AAPL-companyfacts-CIK0000320193.json')), {
  url: 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json',
  fetchedAt: '2025-08-01T00:00:00.000Z',
});
const revenueCf = companyFacts.find((r) => r.data.concept === CONCEPT)!;
const revenueInline = inlineFactsRecord(
  readFileSync(join(DIR, 'AAPL-aapl-20250329.htm')),
  { cik: '0000320193', accession: ACCESSION, form: '10-Q', filed: '2025-05-02' },
  CONCEPT,
  { url: DOC_URL, fetchedAt: '2025-08-02T00:00:00.000Z' },
);
const quarter = (r: { period_start: string | null; period_end: string; dimensions: string; accession: string }) =>
  r.period_start === '2024-12-29' && r.period_end === '2025-03-29' && r.dimensions === '' && r.accession === ACCESSION;

describe('the test records', () => {
  it('are valid xbrl-facts@1 records', () => {
    for (const r of [...companyFacts, revenueInline]) expect(xbrlFactsRecordV1.safeParse(r).success).toBe(true);
  });
});

describe('factReportRows', () => {
  it('maps every company-facts entry of a concept to one row, the value as its exact decimal text', () => {
    const rows = factReportRows(revenueCf);
    expect(rows).toHaveLength(revenueCf.data.facts.length);
    expect(rows.find(quarter)).toEqual({
      period_end: '2025-03-29', period_start: '2024-12-29', filed: '2025-05-02', fiscal_year: 2025,
      from_companyfacts: true, from_inline_xbrl: false, cik: '0000320193', concept: CONCEPT, unit: 'USD', dimensions: '',
      accession: ACCESSION, value: '95359000000', decimals: null, form: '10-Q', fiscal_period: 'Q2', frame: 'CY2025Q1',
      label: null, quote: null, document_url: null, document_sha256: null,
    });
  });

  it('gives inline facts their dimensions as canonical text, the row label, the quote and the document', () => {
    const rows = factReportRows(revenueInline);
    const total = rows.find(quarter)!;
    expect(total).toMatchObject({ value: '95359000000', decimals: '-6', label: 'Total net sales', from_inline_xbrl: true, document_url: DOC_URL });
    expect(total.quote).toMatch(/^Total net sales\$?95,359 \$?90,753/);
    expect(total.document_sha256).toBe(revenueInline.provenance.content_hash);
    const dimensional = rows.filter((r) => r.dimensions !== '');
    expect(dimensional.length).toBeGreaterThan(0);
    for (const r of dimensional) expect(dimensionsText(parseDimensions(r.dimensions))).toBe(r.dimensions);
  });
});

describe('dimensionsText', () => {
  it('sorts by axis and reads back', () => {
    const dims = { 'us-gaap:StatementBusinessSegmentsAxis': 'aapl:AmericasSegmentMember', 'srt:ProductOrServiceAxis': 'us-gaap:ProductMember' };
    expect(dimensionsText(dims)).toBe('srt:ProductOrServiceAxis=us-gaap:ProductMember,us-gaap:StatementBusinessSegmentsAxis=aapl:AmericasSegmentMember');
    expect(parseDimensions(dimensionsText(dims))).toEqual(dims);
    expect(dimensionsText({})).toBe('');
    expect(parseDimensions('')).toEqual({});
  });
});

describe('mergeReport', () => {
  const cf = factReportRows(revenueCf).find(quarter)!;
  const inline = factReportRows(revenueInline).find(quarter)!;

  it('makes one row of both reads, in either order: inline value, label and quote; SEC frame and fiscal period', () => {
    const merged = mergeReport(cf, inline);
    expect(merged).toEqual({ ...inline, from_companyfacts: true, frame: 'CY2025Q1', fiscal_year: 2025, fiscal_period: 'Q2' });
    expect(mergeReport(inline, cf)).toEqual(merged);
  });

  it('keeps the inline value when the two sources disagree, whichever lands last', () => {
    const disagreeing = { ...cf, value: '95358000000' };
    expect(mergeReport(inline, disagreeing).value).toBe('95359000000');
    expect(mergeReport(disagreeing, inline).value).toBe('95359000000');
  });

  it('never blanks a known value with null', () => {
    expect(mergeReport(inline, { ...inline, label: null, quote: null })).toMatchObject({ label: 'Total net sales', quote: inline.quote });
  });

  it('merges the same report of two records of a batch into one row', () => {
    const rows = mergedReports([revenueCf, revenueInline]);
    expect(new Set(rows.map(reportKey)).size).toBe(rows.length);
    // The 10-Q states the quarter's net sales twice (the statement and a note): the later one lands last.
    const inlineReads = factReportRows(revenueInline).filter(quarter);
    expect(inlineReads).toHaveLength(2);
    expect(rows.filter(quarter)).toEqual([inlineReads.reduce(mergeReport, cf)]);
  });
});

describe('xbrlConceptRow', () => {
  it('keeps the record key, labels and provenance; its hash follows the content', () => {
    const row = xbrlConceptRow(revenueCf);
    expect(row).toMatchObject({ record_key: `0000320193|${CONCEPT}`, source: 'companyfacts', accession: null, concept_label: 'Revenue from Contract with Customer, Excluding Assessed Tax' });
    const changed = { ...revenueCf, data: { ...revenueCf.data, facts: revenueCf.data.facts.slice(1) } };
    expect(xbrlConceptRow(changed).data_hash).not.toBe(row.data_hash);
  });
});

describe('factReportOf', () => {
  it('parses the dimensions and lists the sources', () => {
    const row = {
      cik: '0000320193', concept: CONCEPT, unit: 'USD', periodStart: '2024-12-29', periodEnd: '2025-03-29',
      dimensions: 'srt:ProductOrServiceAxis=us-gaap:ProductMember', value: '68714000000', decimals: '-6', accession: ACCESSION, form: '10-Q',
      filed: '2025-05-02', fiscalYear: 2025, fiscalPeriod: 'Q2', frame: null, label: 'Products', quote: 'Products $ 68,714',
      fromCompanyfacts: false, fromInlineXbrl: true, documentUrl: DOC_URL, documentSha256: 'sha256:00',
    };
    expect(factReportOf(row)).toEqual({
      cik: '0000320193', concept: CONCEPT, unit: 'USD', periodStart: '2024-12-29', periodEnd: '2025-03-29',
      dimensions: { 'srt:ProductOrServiceAxis': 'us-gaap:ProductMember' }, value: '68714000000', decimals: '-6', accession: ACCESSION,
      form: '10-Q', filed: '2025-05-02', fiscalYear: 2025, fiscalPeriod: 'Q2', frame: null, label: 'Products', quote: 'Products $ 68,714',
      sources: ['inline_xbrl'], documentUrl: DOC_URL, documentSha256: 'sha256:00',
    });
    expect(factReportOf({ ...row, dimensions: '', fromCompanyfacts: true }).sources).toEqual(['companyfacts', 'inline_xbrl']);
  });
});

describe('factReportsSql', () => {
  it('is one named statement per shape, its parameters numbered in order', () => {
    expect(factReportsSql({}).text).toMatch(/WHERE cik = \$1 AND dimensions = ''\s+ORDER BY/);
    const all = factReportsSql({ concepts: [CONCEPT], asOf: '2025-01-01', dimensioned: true });
    expect(all.name).toBe('xbrl_reports_some_asof_dims');
    expect(all.text).toMatch(/WHERE cik = \$1 AND concept = ANY\(\$2::text\[\]\) AND filed <= \$3::date\s+ORDER BY/);
    expect(factReportsSql({ asOf: '2025-01-01' }).text).toMatch(/filed <= \$2::date AND dimensions = ''/);
  });
});
