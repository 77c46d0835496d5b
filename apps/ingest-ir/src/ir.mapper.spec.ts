import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord, type TopicDefinition } from '@app/contracts';
import { extractIssuerPage } from '@app/issuer-pages';
import { defaultFixturesDir } from '@app/testing';
import { irSiteSchema, type IrSite } from './ingest-ir.config';
import { siteRecordsOf, type PageRole, type ReadPage } from './ir.mapper';

const FRPH: IrSite = irSiteSchema.parse({ cik: '844059', ticker: 'FRPH', name: 'FRP Holdings, Inc.', landing_url: 'http://www.frpholdings.com/investor-relations.html' });
// BRAI (Braiin Limited, listed 2025) is not in the fixture ticker maps: 9999001 is a placeholder CIK
// outside SEC's assigned range, not Braiin's real one.
const BRAI: IrSite = irSiteSchema.parse({ cik: '9999001', ticker: 'BRAI', name: 'Braiin Limited', landing_url: 'https://braiin.com/investors' });
const CTX = { runId: 'run_example', origin: 'live' as const, extractedAt: '2026-02-20T10:00:00.000Z' };
const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');

function read(site: IrSite, role: PageRole, file: string, url: string): ReadPage {
  const bytes = readFileSync(join(defaultFixturesDir(), 'ir-pages', file));
  const issuer = { cik: site.cik, name: site.name, ...(site.ticker ? { ticker: site.ticker } : {}) };
  return { role, url, contentHash: contentHash(bytes), fetchedAt: '2026-02-20T09:59:00.000Z', extract: extractIssuerPage(bytes, url, issuer) };
}

const frphPages = [
  read(FRPH, 'landing', 'FRPH-investor-relations.html', 'http://www.frpholdings.com/investor-relations.html'),
  read(FRPH, 'contact', 'FRPH-contactus.html', 'http://www.frpholdings.com/contactus.html'),
  read(FRPH, 'management', 'FRPH-executive-team.html', 'http://www.frpholdings.com/executive-team.html'),
  read(FRPH, 'presentations', 'FRPH-frppresent.html', 'http://www.frpholdings.com/frppresent.html'),
];
const braiPages = [read(BRAI, 'landing', 'BRAI-investors.html', 'https://braiin.com/investors')];

/**
 * Example records in libs/contracts/src/examples are this mapper's output on the fixtures.
 * UPDATE_EXAMPLES=1 rewrites them; otherwise they must equal what the mapper makes now.
 */
function expectExample(name: string, record: unknown): void {
  const path = join(EXAMPLES, name);
  const json = `${JSON.stringify(record, null, 2)}\n`;
  if (process.env.UPDATE_EXAMPLES === '1') writeFileSync(path, json);
  expect(readFileSync(path, 'utf8')).toBe(json);
}

describe('IR records from the fixture pages', () => {
  const frph = siteRecordsOf(FRPH, frphPages, CTX);
  const brai = siteRecordsOf(BRAI, braiPages, CTX);

  it('are all valid against their topics', () => {
    const all: Array<[TopicDefinition, unknown]> = [
      ...[...frph.rosters, ...brai.rosters].map((r) => [TOPICS.issuerRoster, r] as [TopicDefinition, unknown]),
      ...[...frph.documents, ...brai.documents].map((r) => [TOPICS.issuerDocuments, r] as [TopicDefinition, unknown]),
      [TOPICS.companyDescriptions, frph.description],
    ];
    for (const [topic, record] of all) {
      const result = validateRecord(topic, record);
      expect(result.ok ? 'ok' : result.error).toBe('ok');
    }
  });

  it('FRPH: executives (management page read) and ir (contact page read); no analysts record', () => {
    expect(frph.rosters.map((r) => r.key)).toEqual(['0000844059|executives', '0000844059|ir']);
    const executives = frph.rosters[0]!;
    expect(executives.data.entries.map((e) => [e.rank, e.name])).toEqual([
      [1, 'Thompson S. Baker'],
      [2, 'John D. Baker II'],
      [3, 'David H. deVilliers Jr.'],
      [4, 'John D. Milton Jr.'],
      [5, 'John D. Klopfenstein'],
    ]);
    expect(executives.provenance).toMatchObject({ source_provider: 'issuer_page', source_url: 'http://www.frpholdings.com/executive-team.html', accession: null });
    expect(frph.rosters[1]!.data.entries).toMatchObject([{ name: 'John Milton', phone: '(877) 704-1776', rank: 1, citation: { source_url: 'http://www.frpholdings.com/contactus.html' } }]);
  });

  it('FRPH: one document per URL (16 = 12 landing + 4 only on the presentations page), the dated landing listing wins', () => {
    expect(frph.documents).toHaveLength(16);
    expect(new Set(frph.documents.map((d) => d.key)).size).toBe(16);
    const deck = frph.documents.find((d) => d.key === 'http://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf')!;
    expect(deck.data).toMatchObject({ published_on: '2017-09-28', citation: { source_url: 'http://www.frpholdings.com/investor-relations.html' } });
    expect(deck.provenance.citation_url).toBe(deck.key);
    expectExample('ir-document@1.frph-presentation.json', deck);
  });

  it('FRPH: description from the executive-team page', () => {
    expect(frph.description?.data.description).toMatch(/^FRP Holdings, Inc., is a publicly traded company/);
    expect(frph.description?.key).toBe('0000844059');
    expectExample('company-description@1.frph.json', frph.description);
  });

  it('BRAI: the IR roster (Scott Gordon, Core IR) from the landing page; no executives, no description', () => {
    expect(brai.rosters.map((r) => r.key)).toEqual(['0009999001|ir']);
    expect(brai.rosters[0]!.data.entries).toMatchObject([{ name: 'Scott Gordon', affiliation: 'Core IR', email: 'scottg@coreir.com', phone: '+1 212-655-0924', rank: 1 }]);
    expect(brai.description).toBeNull();
    expectExample('ir-roster@1.brai-ir.json', brai.rosters[0]);
  });

  it('is deterministic: the same pages give the same record ids', () => {
    const again = siteRecordsOf(FRPH, frphPages, { runId: 'run_other', origin: 'live' as const, extractedAt: '2026-03-01T00:00:00.000Z' });
    expect(again.documents.map((d) => d.id)).toEqual(frph.documents.map((d) => d.id));
    expect(again.rosters.map((d) => d.id)).toEqual(frph.rosters.map((d) => d.id));
  });

  it('adds registry documents not linked from any page', () => {
    const site = irSiteSchema.parse({ ...FRPH, documents: [{ url: 'http://www.frpholdings.com/assets/FRP_2019_Annual_Report.pdf#p1', title: 'FRP 2019 Annual Report', kind: 'annual_report' }] });
    const records = siteRecordsOf(site, frphPages, CTX);
    expect(records.documents.at(-1)!.data).toMatchObject({ url: 'http://www.frpholdings.com/assets/FRP_2019_Annual_Report.pdf', kind: 'annual_report', is_pdf: true, published_on: null });
  });

  describe('partial rosters', () => {
    // A landing page that names the CEO and CFO, as many do beside the management page.
    const landingWithOfficers: ReadPage = {
      ...frphPages[0]!,
      extract: {
        ...frphPages[0]!.extract,
        executives: [
          { name: 'Thompson S. Baker', role: 'Chief Executive Officer', affiliation: 'FRP Holdings, Inc.', email: null, phone: null, quote: 'Thompson S. Baker, Chief Executive Officer' },
          { name: 'John D. Milton Jr.', role: 'Chief Financial Officer', affiliation: 'FRP Holdings, Inc.', email: null, phone: null, quote: 'John D. Milton Jr., Chief Financial Officer' },
        ],
      },
    };
    const withoutManagement = [landingWithOfficers, frphPages[1]!, frphPages[3]!];

    it('publishes no executives when the management page exists but was not read (404, robots.txt)', () => {
      const records = siteRecordsOf(FRPH, withoutManagement, CTX, new Set<PageRole>(['management']));
      expect(records.rosters.map((r) => r.key)).toEqual(['0000844059|ir']);
      // Documents and the description do not replace anything whole: they are still published.
      expect(records.documents.length).toBeGreaterThan(0);
    });

    it('publishes no ir roster when the contact page exists but was not read', () => {
      const records = siteRecordsOf(FRPH, [frphPages[0]!, frphPages[2]!], CTX, new Set<PageRole>(['contact']));
      expect(records.rosters.map((r) => r.key)).toEqual(['0000844059|executives']);
    });

    it('publishes executives from other pages when the site has no management page at all', () => {
      const records = siteRecordsOf(FRPH, withoutManagement, CTX);
      expect(records.rosters.find((r) => r.key === '0000844059|executives')!.data.entries.map((e) => e.name)).toEqual(['Thompson S. Baker', 'John D. Milton Jr.']);
    });
  });
});
