import { TOPICS, type RecordEnvelope } from '@app/contracts';
import type { RecordBatch } from '@app/messaging';
import { SegmentsFollowController } from './segments-follow.controller';
import type { SegmentsFilingCommand, SegmentsService } from './segments.service';

function batchOf(filings: Array<{ accession: string; form: string; primary_document_url: string | null }>): RecordBatch {
  return {
    topic: TOPICS.filings.name,
    partition: 0,
    records: filings.map((f, i) => ({
      envelope: { schema: 'filing@1', key: f.accession, data: { cik: '0000320193', ...f } } as unknown as RecordEnvelope,
      meta: { topic: TOPICS.filings.name, partition: 0, offset: String(i) },
    })),
  };
}

describe('SegmentsFollowController', () => {
  it('reads the 10-Q / 10-K of a batch naming a document or its index page, in offset order, under its run id; nothing else', async () => {
    const calls: Array<{ filings: readonly SegmentsFilingCommand[]; runId?: string }> = [];
    const service = { execute: (command: (typeof calls)[number]) => Promise.resolve(void calls.push(command)) } as unknown as SegmentsService;
    const controller = new SegmentsFollowController(service, 'run_t');
    const doc = (name: string) => `https://www.sec.gov/Archives/edgar/data/320193/${name}`;
    await controller.onFilings(
      batchOf([
        { accession: 'q', form: '10-Q', primary_document_url: doc('q.htm') },
        { accession: 'f4', form: '4', primary_document_url: doc('f4.xml') },
        { accession: 'idx', form: '10-K', primary_document_url: doc('x-index.htm') },
        { accession: 'k', form: '10-K', primary_document_url: doc('k.htm') },
      ]),
    );
    await controller.onFilings(batchOf([{ accession: '8k', form: '8-K', primary_document_url: doc('8k.htm') }]));
    expect(calls).toEqual([
      {
        runId: 'run_t',
        filings: [
          { cik: '0000320193', accession: 'q', form: '10-Q', document: doc('q.htm') },
          { cik: '0000320193', accession: 'idx', form: '10-K', document: doc('x-index.htm') },
          { cik: '0000320193', accession: 'k', form: '10-K', document: doc('k.htm') },
        ],
      },
    ]);
  });
});
