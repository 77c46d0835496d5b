import { TOPICS, type FilingData, type RecordEnvelope, type RecordOrigin } from '@app/contracts';
import { PermanentError, type RecordBatch } from '@app/messaging';
import { Form4FollowController } from './form4-follow.controller';
import type { Form4FilingOutcome, Form4IngestService } from './form4-ingest.service';

/** A filing@1 batch of the given accessions, in offset order; an accession ending in h is a backfilled filing (history). */
function batchOf(...accessions: string[]): RecordBatch {
  return {
    topic: TOPICS.filings.name,
    partition: 0,
    records: accessions.map((accession, i) => ({
      envelope: { schema: 'filing@1', key: accession, origin: accession.endsWith('h') ? 'backfill' : 'live', data: { accession, form: '4' } } as unknown as RecordEnvelope,
      meta: { topic: TOPICS.filings.name, partition: 0, offset: String(i) },
    })),
  };
}

/** The use case's follow effect, scripted per accession: published, ignored (null), or an error. */
function serviceOf(script: Record<string, 'published' | null | Error>, calls: string[] = []): Form4IngestService {
  return {
    handleFilingRecord: (filing: FilingData, origin: RecordOrigin, runId: string) => {
      calls.push(`${runId}:${origin}:${filing.accession}`);
      const step = script[filing.accession];
      if (step instanceof Error) return Promise.reject(step);
      return Promise.resolve(step === 'published' ? ({ status: 'published' } as Form4FilingOutcome) : null);
    },
  } as unknown as Form4IngestService;
}

describe('Form4FollowController', () => {
  it('hands every filing record of a batch to the use case in offset order and counts published and ignored', async () => {
    const calls: string[] = [];
    const controller = new Form4FollowController(serviceOf({ a: 'published', b: null, ch: 'published' }, calls), 'run_t');
    await controller.onFilings(batchOf('a', 'b', 'ch'));
    await controller.onFilings(batchOf('b'));
    expect(calls).toEqual(['run_t:live:a', 'run_t:live:b', 'run_t:backfill:ch', 'run_t:live:b']);
    expect(controller.counts).toEqual({ published: 2, ignored: 2 });
  });

  it('lets a PermanentError through (the runner isolates the record) and counts nothing of the failed batch', async () => {
    const bad = new PermanentError('Form 4 b: not found');
    const controller = new Form4FollowController(serviceOf({ a: 'published', b: bad }), 'run_t');
    await expect(controller.onFilings(batchOf('a', 'b'))).rejects.toBe(bad);
    expect(controller.counts).toEqual({ published: 0, ignored: 0 });
    // The runner applies the half without the bad record again: it is counted once, then.
    await controller.onFilings(batchOf('a'));
    expect(controller.counts).toEqual({ published: 1, ignored: 0 });
  });

  it('lets a transient error through, for the runner to retry the batch', async () => {
    const down = new Error('EDGAR unavailable');
    const controller = new Form4FollowController(serviceOf({ a: down }), 'run_t');
    await expect(controller.onFilings(batchOf('a'))).rejects.toBe(down);
    expect(controller.counts).toEqual({ published: 0, ignored: 0 });
  });
});
