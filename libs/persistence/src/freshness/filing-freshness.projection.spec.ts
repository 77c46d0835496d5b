import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { filingSightings } from './filing-freshness.projection';

const example = JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples/filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;
const record = (observed_at: string, data: Partial<FilingData>): RecordEnvelope<FilingData> => ({ ...example, observed_at, data: { ...example.data, ...data } });
const t = (iso: string) => new Date(iso);

describe('filingSightings', () => {
  it('keeps records of live discovery with an acceptance time only', () => {
    const feed = record('2025-07-30T20:11:41.200Z', { source: 'latest_filings' });
    const sightings = filingSightings(
      [
        record('2025-08-02T12:00:00.500Z', { source: 'submissions' }),
        record('2025-07-30T20:11:45.000Z', { source: 'submission_text' }),
        record('2025-07-30T20:11:42.000Z', { source: 'current_events', accepted_at: null, accession: '0000950170-25-000001' }),
        feed,
      ],
      [t('2025-08-02T12:00:01Z'), null, null, t('2025-07-30T20:11:41.300Z')],
    );
    expect(sightings).toEqual([
      {
        accession: feed.data.accession,
        cik: feed.data.cik,
        form: '10-K',
        acceptedAt: '2025-07-30T20:11:40.000Z',
        firstSeenAt: '2025-07-30T20:11:41.200Z',
        firstSeenSource: 'latest_filings',
        publishedAt: t('2025-07-30T20:11:41.300Z'),
      },
    ]);
  });

  it('one per accession: the earliest sighting and the earliest publish, whatever their order in the batch', () => {
    const [s] = filingSightings(
      [record('2025-07-30T20:11:43.000Z', { source: 'latest_filings' }), record('2025-07-30T20:11:42.000Z', { source: 'current_events' })],
      [t('2025-07-30T20:11:43.100Z'), t('2025-07-30T20:11:44.000Z')],
    );
    expect(s).toMatchObject({ firstSeenAt: '2025-07-30T20:11:42.000Z', firstSeenSource: 'current_events', publishedAt: t('2025-07-30T20:11:43.100Z') });
  });

  it('sorts by accession (the lock order) and has no published time when no timestamp was given', () => {
    const a = record('2025-07-30T20:11:43.000Z', { source: 'daily_index', accession: '0000950170-25-000009' });
    const b = record('2025-07-30T20:11:43.000Z', { source: 'daily_index', accession: '0000950170-25-000002' });
    expect(filingSightings([a, b], []).map((s) => [s.accession, s.publishedAt])).toEqual([
      ['0000950170-25-000002', null],
      ['0000950170-25-000009', null],
    ]);
  });
});
