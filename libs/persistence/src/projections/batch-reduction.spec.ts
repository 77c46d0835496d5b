import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, recordId, stableStringify, type Form4Data, type RecordEnvelope } from '@app/contracts';
import { latestPerKey, OutcomeTally, type StoredVersion } from './batch-reduction';

type Form4Record = RecordEnvelope<Form4Data>;
const records = JSON.parse(readFileSync(join(__dirname, 'examples/form4.records.json'), 'utf8')) as Record<'dkng' | 'dkngAmendment' | 'tsla', Form4Record>;
const { dkng, dkngAmendment, tsla } = records;

/** The same filing read again with other data, observed at another time: a new deterministic id. */
function reread(e: Form4Record, remarks: string, observedAt: string): Form4Record {
  const data = { ...e.data, remarks };
  return { ...e, data, observed_at: observedAt, id: recordId(data.accession, contentHash(stableStringify(data))) };
}

const byAccession = (e: Form4Record) => e.data.accession;
const stored = (...rows: Array<[Form4Record]>): Map<string, StoredVersion> => new Map(rows.map(([e]) => [e.key, { record_id: e.id, observed_at: new Date(e.observed_at) }]));
const reduce = (batch: Form4Record[], before = new Map<string, StoredVersion>()) => latestPerKey(batch, byAccession, before);

describe('latestPerKey (a batch reduced per accession)', () => {
  const newer = reread(dkng, 'newer', '2025-09-01T00:00:00.000Z');
  const newest = reread(dkng, 'newest', '2025-10-01T00:00:00.000Z');
  const older = reread(dkng, 'older', '2025-01-01T00:00:00.000Z');

  it('keeps one record per key, listed in the offset order of the winning record', () => {
    const { winners, outcome } = reduce([dkng, tsla, dkngAmendment, newer]);
    expect(winners.map((w) => [w.key, w.winner.id])).toEqual([
      [tsla.key, tsla.id],
      [dkngAmendment.key, dkngAmendment.id],
      [dkng.key, newer.id],
    ]);
    expect(winners.find((w) => w.key === dkng.key)!.applied.map((e) => e.id)).toEqual([dkng.id, newer.id]);
    expect(outcome).toEqual({ inserted: [tsla.key, dkngAmendment.key, dkng.key], updated: [], unchanged: 1 });
  });

  it('the stored record again, or the same record twice, writes nothing', () => {
    expect(reduce([dkng], stored([dkng]))).toEqual({ winners: [], outcome: { inserted: [], updated: [], unchanged: 1 } });
    const { winners, outcome } = reduce([newer, newer], stored([dkng]));
    expect(winners.map((w) => [w.winner.id, w.existed, w.applied.length])).toEqual([[newer.id, true, 1]]);
    expect(outcome).toEqual({ inserted: [], updated: [dkng.key], unchanged: 1 });
  });

  it('an older record never replaces a newer one, stored or earlier in the batch', () => {
    expect(reduce([older], stored([dkng])).outcome).toEqual({ inserted: [], updated: [], unchanged: 1 });
    // Newer than the stored row, but older than a record before it in the batch: dropped, as one by one.
    expect(reduce([newest, newer], stored([dkng])).winners.map((w) => w.winner.id)).toEqual([newest.id]);
    expect(reduce([newer, newest], stored([dkng])).winners.map((w) => w.applied.map((e) => e.id))).toEqual([[newer.id, newest.id]]);
    expect(reduce([newer, older]).winners.map((w) => w.winner.id)).toEqual([newer.id]);
  });

  it('a record equal in time to the standing one but of other content is applied; the stored content again after another is too', () => {
    const sameTime = reread(dkng, 'same time', dkng.observed_at);
    expect(reduce([sameTime], stored([dkng])).winners.map((w) => w.winner.id)).toEqual([sameTime.id]);
    const back = { ...dkng, observed_at: '2025-11-01T00:00:00.000Z' };
    expect(reduce([newer, back], stored([dkng])).winners.map((w) => [w.winner.id, w.winner.observed_at])).toEqual([[dkng.id, back.observed_at]]);
  });
});

describe('OutcomeTally', () => {
  it('lists each key once at its last write, inserted when a record created it, and counts the rest unchanged', () => {
    const tally = new OutcomeTally();
    tally.add('a', 'inserted');
    tally.add('b', 'updated');
    tally.add('a', 'updated');
    tally.add('c', 'unchanged');
    tally.add('b', 'unchanged');
    expect(tally.result()).toEqual({ inserted: ['a'], updated: ['b'], unchanged: 3 });
  });
});
