import type { CompanyCoverageRecord, CompanyRecord } from '@app/persistence';
import { toCoverage, type CompanyCoverage } from './coverage.resource';

// The gap rules on read models the int-spec's real records do not reach (a fund, no N-PORT data at
// all, an IR site with no documents or contacts). The int-spec covers the others on real data.

const empty: CompanyCoverageRecord = {
  filings: { count: 0, amendments: 0, firstDate: null, latestDate: null, latestReportPeriod: null, forms: [], lastObservedAt: null },
  form4: { filings: 0, undatedFilings: 0, latestFiledDate: null, rows: 0, supersededRows: 0, firstDate: null, latestDate: null, lastObservedAt: null },
  segments: { count: 0, derivedQ4: 0, annual: 0, filings: 0, firstDate: null, latestDate: null, latestPeriod: null, lastObservedAt: null },
  fundExposure: { funds: 0, etfs: 0, holdings: 0, otherHoldings: 0, firstDate: null, latestDate: null, lastExtractedAt: null, anyFundHeld: true },
  documents: { count: 0, withText: 0, pages: 0, docTypes: [], firstDate: null, latestDate: null, lastObservedAt: null },
  transcripts: { count: 0, firstDate: null, latestDate: null, lastObservedAt: null },
  rosters: { groups: [], lastObservedAt: null },
  hasIssuerDescription: false,
  irSite: null,
};

const company = { symbol: 'SPY:US', cik: '0000884394', name: 'SPDR S&P 500 ETF TRUST', isFund: false, isEtf: false, secDetail: null } as unknown as CompanyRecord;

function coverageOf(record: Partial<CompanyCoverageRecord>, over: Partial<CompanyRecord> = {}): CompanyCoverage {
  return { company: { ...company, ...over }, record: { ...empty, ...record }, executives: { current: 0, total: 0 }, generatedAt: new Date('2026-01-20T00:00:00Z') };
}

const codes = (c: CompanyCoverage) => Object.fromEntries(Object.entries(toCoverage(c).datasets).map(([k, d]) => [k, d.gaps.map((g) => g.code)]));

describe('toCoverage gaps', () => {
  it('a fund reports no segments: not_applicable_to_funds instead of no_segments_reported', () => {
    expect(codes(coverageOf({}, { isEtf: true })).segments).toEqual(['not_applicable_to_funds']);
    expect(codes(coverageOf({}, { isFund: true })).segments).toEqual(['not_applicable_to_funds']);
    expect(codes(coverageOf({})).segments).toEqual(['no_segments_reported']);
  });

  it('no N-PORT filing ingested at all is not the same as no holder', () => {
    expect(codes(coverageOf({ fundExposure: { ...empty.fundExposure, anyFundHeld: false } })).fund_exposure).toEqual(['no_nport_filings']);
    expect(codes(coverageOf({})).fund_exposure).toEqual(['no_nport_holders']);
  });

  it('an IR site crawled (a description held) without documents, contacts or analysts', () => {
    const c = codes(coverageOf({ hasIssuerDescription: true }));
    expect(c.documents).toEqual(['no_ir_documents']);
    expect(c.rosters).toEqual(['no_current_executives', 'no_ir_contacts', 'no_analysts']);
    expect(toCoverage(coverageOf({ hasIssuerDescription: true })).gaps).toEqual([]);
  });

  it('no IR data: the gap says the IR crawler\'s outcome, and ir_site carries it', () => {
    expect(toCoverage(coverageOf({})).datasets.documents.gaps[0]!.detail).toBe("No IR roster or documents held: the issuer's IR site has not been found or crawled yet (see ir_site).");
    const irSite = { status: 'no_website' as const, source: null, landingUrl: null, detail: 'SEC lists neither investorWebsite nor website', checkedAt: new Date('2026-01-19T08:00:00Z') };
    const body = toCoverage(coverageOf({ irSite }));
    expect(body.ir_site).toEqual({ status: 'no_website', source: null, landing_url: null, detail: 'SEC lists neither investorWebsite nor website', checked_at: '2026-01-19T08:00:00.000Z' });
    expect(body.datasets.documents.gaps).toEqual([
      { code: 'ir_site_not_configured', detail: "No IR roster or documents held: the IR site crawler's outcome is no_website: SEC lists neither investorWebsite nor website (see ir_site)." },
    ]);
    expect(body.datasets.rosters.gaps[0]).toEqual(body.datasets.documents.gaps[0]);
  });

  it('executives: count is the merged roster, by_source counts each source', () => {
    const c = coverageOf({
      rosters: {
        groups: [
          { category: 'executives', sourceProvider: 'issuer_page', current: 5, total: 6 },
          { category: 'executives', sourceProvider: 'sec', current: 3, total: 4 },
        ],
        lastObservedAt: new Date('2026-01-15T10:00:00Z'),
      },
    });
    c.executives = { current: 6, total: 8 };
    const rosters = toCoverage(c).datasets.rosters;
    expect(rosters.executives).toEqual({ count: 6, total: 8, by_source: { issuer_page: 5, sec: 3 } });
    expect(rosters.count).toBe(6);
    expect(rosters.last_ingested_at).toBe('2026-01-15T10:00:00.000Z');
    expect(rosters.gaps.map((g) => g.code)).toEqual(['no_ir_contacts', 'no_analysts']);
  });
});
