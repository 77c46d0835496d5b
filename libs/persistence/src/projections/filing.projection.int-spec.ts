import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { FilingsRepository } from '../repositories/filings.repository';
import { projectFiling } from './filing.projection';

const example = JSON.parse(
  readFileSync(join(__dirname, '../../../contracts/src/examples/filing@1.msft-10-k.json'), 'utf8'),
) as RecordEnvelope<FilingData>;

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('filings_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('filings read model', () => {
  it('entities and migrations agree (what db:check asks)', async () => {
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('projects filing@1 idempotently and never lets a poorer source overwrite a richer one', async () => {
    expect(await projectFiling(ds, example)).toBe('inserted');
    expect(await projectFiling(ds, example)).toBe('unchanged');
    const feed: RecordEnvelope<FilingData> = {
      ...example,
      observed_at: '2025-08-03T00:00:00.000Z',
      data: { ...example.data, accepted_at: null, primary_document_url: null, source: 'daily_index' },
    };
    expect(await projectFiling(ds, feed)).toBe('unchanged');
    const newer: RecordEnvelope<FilingData> = { ...example, observed_at: '2025-08-03T00:00:00.000Z', data: { ...example.data, size: 34889672 } };
    expect(await projectFiling(ds, newer)).toBe('updated');
    const older: RecordEnvelope<FilingData> = { ...example, observed_at: '2025-08-01T00:00:00.000Z', data: { ...example.data, size: 1 } };
    expect(await projectFiling(ds, older)).toBe('unchanged');

    const row = await new FilingsRepository(ds).findByAccession('0000950170-25-100235');
    expect(row).toMatchObject({
      accession: '0000950170-25-100235',
      cik: '0000789019',
      companyName: 'MICROSOFT CORP',
      form: '10-K',
      filedDate: '2025-07-30',
      reportPeriod: '2025-06-30',
      size: 34889672,
      items: [],
      isAmendment: false,
      source: 'submissions',
      provenance: example.provenance,
    });
    expect(row!.acceptedAt!.toISOString()).toBe('2025-07-30T20:11:40.000Z');
  });
});
