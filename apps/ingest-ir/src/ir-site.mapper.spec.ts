import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord, type CompanyData, type IrSiteData, type RecordEnvelope } from '@app/contracts';
import { defaultFixturesDir } from '@app/testing';
import { irCompanyOf, irSiteRecordOf, irSiteSignature, noWebsiteOutcome } from './ir-site.mapper';

const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
const CTX = { runId: 'run_example', origin: 'live' as const, extractedAt: '2026-02-20T10:00:00.000Z' };

/** Examples are this mapper's output (UPDATE_EXAMPLES=1 rewrites them, as in ir.mapper.spec.ts). */
function expectExample(name: string, record: unknown): void {
  const path = join(EXAMPLES, name);
  const json = `${JSON.stringify(record, null, 2)}\n`;
  if (process.env.UPDATE_EXAMPLES === '1') writeFileSync(path, json);
  expect(readFileSync(path, 'utf8')).toBe(json);
}

describe('ir-site@1 records', () => {
  // The company record ingest-sec made from MSFT's submissions JSON, whose website and investorWebsite are empty.
  const msftRecord = JSON.parse(readFileSync(join(EXAMPLES, 'company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;

  it('MSFT: SEC lists no website, so no_website, citing the submissions JSON', () => {
    const submissions = JSON.parse(readFileSync(join(defaultFixturesDir(), 'submissions', 'CIK0000789019.json'), 'utf8')) as { website: string; investorWebsite: string };
    expect([submissions.website, submissions.investorWebsite]).toEqual(['', '']);
    const company = irCompanyOf(msftRecord)!;
    expect(company).toMatchObject({ cik: '0000789019', ticker: 'MSFT', investorWebsite: null, website: null });
    const { detail, evidence } = noWebsiteOutcome(company);
    const data: IrSiteData = {
      cik: company.cik,
      ticker: company.ticker,
      name: company.name,
      status: 'no_website',
      source: null,
      start_url: null,
      landing_url: null,
      pages: { contact: [], management: [], presentations: [], press: [], reports: [] },
      detail,
      checked_at: CTX.extractedAt,
    };
    const record = irSiteRecordOf(data, evidence, CTX);
    expect(validateRecord(TOPICS.irSites, record)).toMatchObject({ ok: true });
    expect(record.provenance).toMatchObject({ source_provider: 'sec', source_url: 'https://data.sec.gov/submissions/CIK0000789019.json', content_hash: msftRecord.provenance.content_hash });
    expectExample('ir-site@1.msft-no-website.json', record);
  });

  it('FRPH: found from its landing page, citing that page', () => {
    const landing = readFileSync(join(defaultFixturesDir(), 'ir-pages', 'FRPH-investor-relations.html'));
    const site = 'http://www.frpholdings.com';
    const data: IrSiteData = {
      cik: '0000844059',
      ticker: 'FRPH',
      name: 'FRP Holdings, Inc.',
      status: 'found',
      source: 'investor_website',
      start_url: `${site}/investor-relations.html`,
      landing_url: `${site}/investor-relations.html`,
      pages: { contact: [`${site}/contactus.html`], management: [`${site}/executive-team.html`], presentations: [`${site}/frppresent.html`], press: [], reports: [] },
      detail: null,
      checked_at: CTX.extractedAt,
    };
    const record = irSiteRecordOf(data, { provider: 'issuer_page', url: data.landing_url, contentHash: contentHash(landing), fetchedAt: '2026-02-20T09:59:00.000Z', quote: null }, CTX);
    expect(validateRecord(TOPICS.irSites, record)).toMatchObject({ ok: true });
    expectExample('ir-site@1.frph-found.json', record);
    // The same outcome checked later is the same record (id) and the same signature: nothing to republish.
    const later = irSiteRecordOf({ ...data, checked_at: '2026-02-21T10:00:00.000Z' }, { provider: 'issuer_page', url: data.landing_url, contentHash: contentHash(landing), fetchedAt: '2026-02-21T09:59:00.000Z', quote: null }, CTX);
    expect(later.id).toBe(record.id);
    expect(irSiteSignature(later.data)).toBe(irSiteSignature(data));
  });

  it('a company record without its submissions detail is not a company to crawl yet', () => {
    expect(irCompanyOf({ ...msftRecord, data: { ...msftRecord.data, detail: null } })).toBeNull();
  });
});
