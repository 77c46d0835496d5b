import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FORM4_MAX_ROWS, TOPICS, contentHash, validateRecord, type Form4RecordV1 } from '@app/contracts';
import { parseForm4, type Form4Document } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import {
  Form4RecordTooLargeError,
  completeSubmissionPath,
  form4RecordOf,
  isXmlDocument,
  ownershipXmlPath,
  type Form4Listing,
} from './form4.mapper';

const DIR = join(defaultFixturesDir(), 'form4');
const EXAMPLES = resolve(__dirname, '../../../libs/contracts/src/examples');
const ctx = { runId: 'run_example-fixtures', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };
const noListing: Form4Listing = { filedDate: null, acceptedAt: null };

/** Each fixture at the Archive path the fixture server serves it under (see FIXTURE_ROUTES). */
const FIXTURES = [
  { file: 'BETR-0001493152-25-009612.txt', path: '/Archives/edgar/data/1835856/0001493152-25-009612.txt', accession: '0001493152-25-009612', owners: 8, rows: 2 },
  { file: 'DKNG-0001104659-25-025206.txt', path: '/Archives/edgar/data/1883685/0001104659-25-025206.txt', accession: '0001104659-25-025206', owners: 1, rows: 3 },
  { file: 'GUTS-0000950170-24-012830-ownership.xml', path: '/Archives/edgar/data/1572616/000095017024012830/ownership.xml', accession: '0000950170-24-012830', owners: 6, rows: 8 },
  { file: 'MSFT-0001062993-24-016587-form4.xml', path: '/Archives/edgar/data/789019/000106299324016587/form4.xml', accession: '0001062993-24-016587', owners: 1, rows: 2 },
  { file: 'PLTR-0001321655-24-000181-wk-form4_1727395357.xml', path: '/Archives/edgar/data/1321655/000132165524000181/wk-form4_1727395357.xml', accession: '0001321655-24-000181', owners: 1, rows: 7 },
  { file: 'SCWO-374WaterForm4.xml', path: '/Archives/edgar/data/933972/000093397225990001/374WaterForm4.xml', accession: '0000933972-25-990001', owners: 1, rows: 2 },
  { file: 'SNOW-form4.snow.xml', path: '/Archives/edgar/data/1640147/000164014722990001/form4.snow.xml', accession: '0001640147-22-990001', owners: 1, rows: 15 },
  { file: 'SQ-0001062993-23-020702-form4.xml', path: '/Archives/edgar/data/1512673/000106299323020702/form4.xml', accession: '0001062993-23-020702', owners: 1, rows: 12 },
  { file: 'TSLA-0000899243-21-044060-doc4.xml', path: '/Archives/edgar/data/1318605/000089924321044060/doc4.xml', accession: '0000899243-21-044060', owners: 1, rows: 31 },
];

function recordOf(prefix: string, listing: Form4Listing = noListing, run = ctx): { record: Form4RecordV1; text: string; doc: Form4Document } {
  const f = FIXTURES.find((x) => x.file.startsWith(prefix))!;
  const bytes = readFileSync(join(DIR, f.file));
  const url = `https://www.sec.gov${f.path}`;
  const doc = parseForm4(bytes, { url, accession: f.accession });
  const text = bytes.toString('utf8');
  const source = { url, contentHash: contentHash(bytes), fetchedAt: '2025-08-02T12:00:00.500Z', text };
  return { record: form4RecordOf(doc, source, listing, run), text, doc };
}

describe('form4@1 mapping of every Form 4 fixture', () => {
  it('covers every file in form4/', () => {
    expect(FIXTURES.map((f) => f.file).sort()).toEqual(readdirSync(DIR).sort());
  });

  describe.each(FIXTURES)('$file', ({ file, accession, owners, rows }) => {
    const { record, text } = recordOf(file);

    it('is a valid form4@1 record keyed by the accession, with provenance', () => {
      expect(validateRecord(TOPICS.form4, record)).toMatchObject({ ok: true });
      expect(record.key).toBe(accession);
      expect(record.data.accession).toBe(accession);
      expect(record.provenance).toMatchObject({ source_provider: 'sec', accession, source_url: record.data.source_url, content_hash: contentHash(readFileSync(join(DIR, file))) });
      expect(record.provenance.src_id).toMatch(/^src_/);
      expect(record.data.reporting_owners).toHaveLength(owners);
      expect(record.data.rows).toHaveLength(rows);
      expect(Buffer.byteLength(JSON.stringify(record))).toBeLessThan(110_000);
    });

    it('quotes only text that stands verbatim in the file', () => {
      expect(record.provenance.quote).toBeTruthy();
      expect(text).toContain(record.provenance.quote);
      for (const row of record.data.rows) expect(text).toContain(row.quote);
    });

    it('keeps every number with the text it was read from', () => {
      for (const row of record.data.rows) {
        for (const field of ['shares', 'price_per_share', 'shares_owned_following', 'conversion_or_exercise_price', 'underlying_shares'] as const) {
          const value = row[field];
          const written = row[`${field}_text`];
          if (value !== null) expect(Number(written!.replace(/,/g, ''))).toBe(value);
          if (written === null) expect(value).toBeNull();
        }
      }
    });
  });

  it('TSLA: 30 non-derivative transactions under a 10b5-1 plan stated in a footnote (no aff10b5One)', () => {
    const { record } = recordOf('TSLA');
    const nd = record.data.rows.filter((r) => r.table === 'non_derivative' && r.kind === 'transaction');
    expect(nd).toHaveLength(30);
    expect(record.data.aff10b5one).toBeNull();
    expect(record.data.issuer).toEqual({ cik: '0001318605', name: 'Tesla, Inc.', trading_symbol: 'TSLA' });
    expect(nd.every((r) => r.is_10b5_1 && r.is_10b5_1_reason === 'footnote')).toBe(true);
  });

  it('BETR: 8 SoftBank owners, all 10% owners; filed date and acceptance time from the SGML header', () => {
    const { record } = recordOf('BETR');
    expect(record.data.reporting_owners.every((o) => o.is_ten_percent_owner)).toBe(true);
    expect(record.data.reporting_owners[0]!.name).toMatch(/SoftBank/i);
    expect(record.data.issuer.cik).toBe('0001835856');
    // 20250307210008 US Eastern (EST) = 02:00:08 UTC the next day.
    expect(record.data).toMatchObject({ filed_date: '2025-03-07', accepted_at: '2025-03-08T02:00:08.000Z' });
    expect(record.data.rows.map((r) => r.code)).toEqual(['C', 'C']);
  });

  it('DKNG: acceptance in daylight time; three 10b5-1 sales flagged by the checkbox', () => {
    const { record } = recordOf('DKNG');
    expect(record.data).toMatchObject({ filed_date: '2025-03-18', accepted_at: '2025-03-19T00:01:08.000Z', aff10b5one: true });
    expect(record.data.rows.map((r) => [r.code, r.classification, r.is_open_market, r.is_10b5_1_reason])).toEqual([
      ['S', 'open_market_sale', true, 'flag'],
      ['S', 'open_market_sale', true, 'flag'],
      ['S', 'open_market_sale', true, 'flag'],
    ]);
  });

  it('MSFT: RSU grant and an indirect holding, with footnote ids per field', () => {
    const { record } = recordOf('MSFT', { filedDate: '2024-09-13', acceptedAt: '2024-09-13T22:05:04.000Z' });
    const [holding, grant] = record.data.rows;
    expect(holding).toMatchObject({ table: 'non_derivative', kind: 'holding', shares_owned_following: 15905, direct_indirect: 'I', nature_of_ownership: 'By Living Trust', code: null, is_10b5_1: false });
    expect(grant).toMatchObject({
      table: 'derivative',
      kind: 'transaction',
      sequence: 0,
      code: 'A',
      classification: 'grant',
      shares: 26.8,
      shares_text: '26.80',
      price_per_share: 0,
      conversion_or_exercise_price: null,
      footnotes: { conversionOrExercisePrice: ['F1'], transactionShares: ['F2'], exerciseDate: ['F3'], expirationDate: ['F3'] },
    });
    expect(record.data).toMatchObject({ filed_date: '2024-09-13', accepted_at: '2024-09-13T22:05:04.000Z', signatures: [{ name: 'Keith R. Dolliver, Attorney-in-fact for Reid G. Hoffman', date: '2024-09-13' }] });
    expect(record.data.reporting_owners[0]).toMatchObject({ cik: '0001519339', name: 'Hoffman Reid', is_director: true, is_officer: false });
  });

  it('gives the same id whenever the same file is read, another when the content differs', () => {
    const a = recordOf('PLTR').record;
    const b = recordOf('PLTR', noListing, { runId: 'run_other', origin: 'live' as const, extractedAt: '2026-01-01T00:00:00.000Z' }).record;
    expect(b.id).toBe(a.id);
    expect(recordOf('PLTR', { filedDate: '2024-09-26', acceptedAt: null }).record.id).not.toBe(a.id);
  });

  it('refuses a filing above the row bound with an error naming it', () => {
    const { doc } = recordOf('MSFT');
    const many = { ...doc, rows: Array.from({ length: FORM4_MAX_ROWS + 1 }, (_, i) => ({ ...doc.rows[0]!, sequence: i })) };
    const source = { url: 'https://www.sec.gov/x.xml', contentHash: contentHash('x'), fetchedAt: ctx.extractedAt, text: '' };
    expect(() => form4RecordOf(many, source, noListing, ctx)).toThrow(Form4RecordTooLargeError);
    expect(() => form4RecordOf(many, source, noListing, ctx)).toThrow(`${FORM4_MAX_ROWS + 1} rows`);
  });

  // The example record beside the schemas is this record (UPDATE_EXAMPLES=1 rewrites it).
  it('form4@1.msft.json is what the mapper makes (MSFT, as found in its submissions JSON)', () => {
    const path = join(EXAMPLES, 'form4@1.msft.json');
    const json = `${JSON.stringify(recordOf('MSFT', { filedDate: '2024-09-13', acceptedAt: '2024-09-13T22:05:04.000Z' }).record, null, 2)}\n`;
    if (process.env.UPDATE_EXAMPLES === '1') writeFileSync(path, json);
    expect(readFileSync(path, 'utf8')).toBe(json);
  });
});

describe('Form 4 document paths', () => {
  it('drops the xsl rendering folder of a primary document', () => {
    expect(ownershipXmlPath('0000789019', '0001062993-24-016587', 'xslF345X05/form4.xml')).toBe('/Archives/edgar/data/789019/000106299324016587/form4.xml');
    expect(ownershipXmlPath('0000789019', '0001062993-24-016587', 'https://www.sec.gov/Archives/edgar/data/789019/000106299324016587/xslF345X05/form4.xml')).toBe(
      '/Archives/edgar/data/789019/000106299324016587/form4.xml',
    );
    expect(ownershipXmlPath('1318605', '0000899243-21-044060', '/Archives/edgar/data/1318605/000089924321044060/doc4.xml')).toBe('/Archives/edgar/data/1318605/000089924321044060/doc4.xml');
  });

  it('names the complete submission and tells XML documents apart', () => {
    expect(completeSubmissionPath('0001883685', '0001104659-25-025206')).toBe('/Archives/edgar/data/1883685/0001104659-25-025206.txt');
    expect(isXmlDocument('xslF345X05/form4.xml')).toBe(true);
    expect(isXmlDocument('https://www.sec.gov/Archives/edgar/data/1/000000000125000001/0000000001-25-000001-index.htm')).toBe(false);
  });
});
