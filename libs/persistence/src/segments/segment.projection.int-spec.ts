// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { RecordEnvelope, SegmentData } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectSegments } from './segment.projection';

const example = (file: string) => JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples', file), 'utf8')) as RecordEnvelope<SegmentData>;
const americas = example('segment@1.aapl-americas-q2-fy2025.json');
const iphoneYtd = example('segment@1.aapl-iphone-ytd-fy2025.json');

// Variants of the real Americas fact (as apps/api's segments int-spec builds them): Apple reported
// Americas net sales of $167,045M for fiscal 2024 and $125,381M for its first nine months.
const annual: RecordEnvelope<SegmentData> = { ...americas, key: 'test-annual', data: { ...americas.data, form: '10-K', value: 167_045_000_000, period: { kind: 'annual', start_date: '2023-10-01', end_date: '2024-09-28', calendar: '2024-Q3', fiscal: 'FY2024' } } };
const nine: RecordEnvelope<SegmentData> = { ...americas, key: 'test-nine', data: { ...americas.data, value: 125_381_000_000, period: { kind: 'ytd', start_date: '2023-10-01', end_date: '2024-06-29', calendar: '2024-Q2', fiscal: 'FY2024-Q3-YTD' } } };

let db: TestDatabase;
let ds: DataSource;
const project = (envelopes: RecordEnvelope<SegmentData>[]): Promise<BatchOutcome> => ds.transaction((m) => projectSegments(m, envelopes));
const derived = () =>
  ds.query<Array<Record<string, string | null>>>(
    `SELECT record_key, value::text AS value, period_kind, to_char(period_start, 'YYYY-MM-DD') AS start, to_char(period_end, 'YYYY-MM-DD') AS "end", period_fiscal, tier, data_hash, reconciliation
       FROM segment_observations WHERE tier = 'derived_q4' ORDER BY record_key`,
  );
const value = async (key: string) => (await ds.query<Array<{ value: string }>>('SELECT value::text AS value FROM segment_observations WHERE record_key = $1', [key]))[0]?.value;

beforeAll(async () => {
  db = await createTestDatabase('segments_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

beforeEach(() => ds.query('TRUNCATE segment_observations'));

describe('projectSegments', () => {
  it('projects a batch idempotently: the same record twice is one row, a replay writes nothing', async () => {
    expect(await project([americas, americas, iphoneYtd])).toEqual({ inserted: [americas.key, iphoneYtd.key], updated: [], unchanged: 1 });
    expect(await project([iphoneYtd, americas])).toEqual({ inserted: [], updated: [], unchanged: 2 });
    expect(await value(americas.key)).toBe('40315000000');
  });

  it("keeps each record's reconciliation; a record written before reconciliations were kept projects null", async () => {
    const { reconciliation: _dropped, ...older } = americas.data;
    const before: RecordEnvelope<SegmentData> = { ...americas, key: 'test-older', data: older };
    await project([americas, before]);
    const rows = await ds.query<Array<{ record_key: string; reconciliation: unknown }>>('SELECT record_key, reconciliation FROM segment_observations ORDER BY record_key');
    expect(rows).toEqual([
      { record_key: americas.key, reconciliation: americas.data.reconciliation },
      { record_key: 'test-older', reconciliation: null },
    ]);
    // Apple's net sales by segment add up alone to total net sales $95,359M.
    expect(americas.data.reconciliation).toMatchObject({ segments_sum: 95_359_000_000, total: 95_359_000_000, method: 'segments_alone', matches: true });
  });

  it('lets the later record of a key win and never lets an older one regress it', async () => {
    const later = { ...americas, observed_at: '2025-06-01T00:00:00.000Z', data: { ...americas.data, value: 40_316_000_000 } };
    const older = { ...americas, observed_at: '2025-01-01T00:00:00.000Z', data: { ...americas.data, value: 1 } };
    expect(await project([americas, later, older])).toEqual({ inserted: [americas.key], updated: [], unchanged: 2 });
    expect(await value(americas.key)).toBe('40316000000');
    expect(await project([older])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await value(americas.key)).toBe('40316000000');
  });

  const q4 = { record_key: 'test-annual#derived_q4', value: '41664000000', period_kind: 'quarter', start: '2024-06-30', end: '2024-09-28', period_fiscal: 'FY2024-Q4', tier: 'derived_q4', reconciliation: null };

  it('derives Q4 = annual - nine months when both facts land in one batch', async () => {
    await project([annual, nine, americas]);
    expect(await derived()).toEqual([{ ...q4, data_hash: expect.any(String) as string }]);
  });

  it('derives the same Q4 whichever lands first, across batches, and a replay leaves it alone', async () => {
    await project([nine]);
    expect(await derived()).toEqual([]);
    await project([annual]);
    const first = await derived();
    expect(first).toEqual([{ ...q4, data_hash: expect.any(String) as string }]);
    await ds.query('TRUNCATE segment_observations');
    await project([annual]);
    await project([nine, nine]);
    expect(await derived()).toEqual(first);
    // a restated nine-month figure, observed later, re-derives it
    const restated = { ...nine, key: 'test-nine-restated', observed_at: '2025-06-01T00:00:00.000Z', data: { ...nine.data, value: 125_000_000_000 } };
    await project([restated]);
    expect((await derived()).map((r) => r.value)).toEqual(['42045000000']);
  });
});
