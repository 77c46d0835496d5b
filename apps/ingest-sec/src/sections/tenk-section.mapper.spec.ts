import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord } from '@app/contracts';
import { extractTenkSections, tenkText } from '@app/edgar';
import { tenkSectionRecordsOf } from './tenk-section.mapper';
import { SectionsService } from './sections.service';

const FIXTURES = process.env.FIXTURES_DIR ?? join(__dirname, '../../../../../shared/fixtures');
const TSLA = readFileSync(join(FIXTURES, 'tenk/TSLA-tsla-10-k-2025-01-30.html'));
/** Tesla's 10-K for 2024 as EDGAR lists it (the fixture is that primary document, 2,596,459 bytes). */
const FILING = { cik: '1318605', accession: '0001628280-25-003063', form: null, filedDate: null, reportPeriod: null };
const SOURCE = {
  url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm',
  contentHash: contentHash(TSLA),
  fetchedAt: '2025-11-23T10:00:00.000Z',
};
const CTX = { runId: 'run_example', origin: 'live' as const, extractedAt: '2025-11-23T10:00:01.000Z' };

describe('tenkSectionRecordsOf on Tesla\'s 10-K for 2024', () => {
  const records = tenkSectionRecordsOf(extractTenkSections(TSLA), FILING, SOURCE, CTX);

  it('one valid record per item, keyed by accession and item', () => {
    expect(records.map((r) => r.key)).toEqual(['0001628280-25-003063|1', '0001628280-25-003063|1A', '0001628280-25-003063|7']);
    for (const r of records) expect(validateRecord(TOPICS.tenkSections, r)).toMatchObject({ ok: true });
  });

  it('Item 1 carries its text, the description and a provenance quoting it; the period comes from the cover page', () => {
    const [item1, item1a] = records;
    const text = tenkText(TSLA).text;
    expect(item1!.data).toMatchObject({ cik: '0001318605', form: '10-K', period_ended: '2024-12-31', status: 'extracted', char_start: 8281, char_end: 57889 });
    expect(item1!.data.text).toBe(text.slice(8281, 57889));
    expect(item1!.data.description!.text.startsWith('We design, develop, manufacture, sell and lease high-performance fully electric vehicles')).toBe(true);
    expect(item1!.provenance).toMatchObject({ source_provider: 'sec', accession: '0001628280-25-003063', source_url: SOURCE.url, content_hash: SOURCE.contentHash });
    expect(item1!.provenance.quote).toBe(item1!.data.description!.text);
    expect(item1a!.data.description).toBeNull();
    expect(item1a!.provenance.quote).toBe('ITEM 1A. RISK FACTORS');
  });

  it('is the example record of the contracts (made from the fixture, unchanged)', () => {
    const example = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/tenk-section@1.tsla-item-1.json'), 'utf8')) as unknown;
    expect(example).toEqual(records[0]);
  });
});

describe('SectionsService.commandsOf', () => {
  const filing = (accession: string, form: string, filed: string, doc: string | null) => ({
    data: { cik: '0001318605', accession, form, filed_date: filed, report_period: null, primary_document_url: doc },
  });
  it('keeps the newest 10-K of each issuer in a batch, skipping amendments', () => {
    const base = 'https://www.sec.gov/Archives/edgar/data/1318605';
    const commands = SectionsService.commandsOf([
      filing('0000950170-22-000796', '10-K', '2022-02-07', `${base}/000095017022000796/tsla-20211231.htm`),
      filing('0001628280-25-003063', '10-K', '2025-01-30', `${base}/000162828025003063/tsla-20241231.htm`),
      filing('0001564590-22-016871', '10-K/A', '2022-05-02', `${base}/000156459022016871/tsla-10ka_20211231.htm`),
      filing('0001628280-25-035806', '10-Q', '2025-07-24', `${base}/000162828025035806/tsla-20250630.htm`),
    ] as never);
    expect(commands).toEqual([
      { cik: '0001318605', accession: '0001628280-25-003063', form: '10-K', filedDate: '2025-01-30', reportPeriod: null, document: `${base}/000162828025003063/tsla-20241231.htm` },
    ]);
  });
});
