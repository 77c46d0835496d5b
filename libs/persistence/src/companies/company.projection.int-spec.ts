// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { CompanyRecordV1 } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectCompanies } from './company.projection';

const example = (file: string): CompanyRecordV1 => JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples', file), 'utf8')) as CompanyRecordV1;
const msft = example('company@1.msft.json');
const brk = example('company@1.brk-b.json');
const renamed = (observed_at: string, name: string): CompanyRecordV1 => ({ ...msft, observed_at, data: { ...msft.data, name } });

let db: TestDatabase;
let ds: DataSource;
const project = (envelopes: CompanyRecordV1[]): Promise<BatchOutcome> => ds.transaction((m) => projectCompanies(m, envelopes));
const name = async () => (await ds.query<Array<{ name: string }>>(`SELECT name FROM companies WHERE symbol = 'MSFT:US'`))[0]?.name;

beforeAll(async () => {
  db = await createTestDatabase('companies_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('projectCompanies', () => {
  it('projects a batch idempotently: the same record twice is one row, a replay writes nothing', async () => {
    expect(await project([msft, brk, msft])).toEqual({ inserted: [msft.key, brk.key], updated: [], unchanged: 1 });
    expect(await project([brk, msft])).toEqual({ inserted: [], updated: [], unchanged: 2 });
    expect(await ds.query(`SELECT symbol, provenance = $1::jsonb AS provenance FROM companies ORDER BY symbol`, [JSON.stringify(msft.provenance)])).toEqual([
      { symbol: 'BRK-B:US', provenance: false },
      { symbol: 'MSFT:US', provenance: true },
    ]);
  });

  it('lets the later record of a key win and never lets an older one regress it', async () => {
    const later = renamed('2025-08-03T00:00:00.000Z', 'MICROSOFT CORPORATION');
    const older = renamed('2025-08-01T00:00:00.000Z', 'MSFT OLD');
    expect(await project([renamed('2025-08-02T12:00:00.000Z', 'MICROSOFT'), later, older])).toEqual({ inserted: [], updated: [msft.key], unchanged: 2 });
    expect(await name()).toBe('MICROSOFT CORPORATION');
    expect(await project([older])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await name()).toBe('MICROSOFT CORPORATION');
  });
});
