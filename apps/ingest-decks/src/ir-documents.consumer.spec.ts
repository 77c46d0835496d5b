import { TOPICS, type RecordEnvelope } from '@app/contracts';
import { PermanentError, type RecordBatch } from '@app/messaging';
import { DeckRejectedError, type DeckOutcome, type IngestDecksService } from './ingest-decks.service';
import { IrDocumentsConsumer } from './ir-documents.consumer';

const page = 'https://ir.example.com/presentations.html';
const citation = { source_url: page, content_hash: `sha256:${'0'.repeat(64)}`, quote: 'deck' };

function batchOf(...urls: string[]): RecordBatch {
  return {
    topic: TOPICS.issuerDocuments.name,
    partition: 0,
    records: urls.map((url, i) => ({
      envelope: {
        schema: 'ir-document@1',
        key: url,
        data: { cik: '0000844059', ticker: 'FRPH', url, title: 'deck', kind: 'presentation', published_on: null, is_pdf: url.endsWith('.pdf'), event: null, listed_on: 'ir_page', citation },
      } as unknown as RecordEnvelope,
      meta: { topic: TOPICS.issuerDocuments.name, partition: 0, offset: String(i) },
    })),
  };
}

/** The use case, scripted by URL: an outcome status or a rejection. */
function serviceOf(script: Record<string, DeckOutcome['status'] | 'rejected'>, calls: string[] = []): IngestDecksService {
  return {
    execute: ({ link }: { link: { url: string } }) => {
      calls.push(link.url);
      const step = script[link.url];
      if (step === 'rejected') return Promise.reject(new DeckRejectedError('not_found', `GET ${link.url}: HTTP 404`));
      return Promise.resolve({ status: step, url: link.url, contentHash: 'h' });
    },
  } as unknown as IngestDecksService;
}

const A = 'https://ir.example.com/a.pdf';
const B = 'https://ir.example.com/b.pdf';
const HTML = 'https://ir.example.com/news.html';

describe('IrDocumentsConsumer', () => {
  it('downloads the PDF links of a batch in order and counts them; other links are committed without effect', async () => {
    const calls: string[] = [];
    const consumer = new IrDocumentsConsumer(serviceOf({ [A]: 'published', [B]: 'unchanged' }, calls));
    await consumer.onDocuments(batchOf(A, HTML, B));
    expect(calls).toEqual([A, B]);
    expect(consumer.counts).toEqual({ published: 1, unchanged: 1, not_pdf: 1, rejected: 0 });
  });

  it('turns a rejection into a PermanentError and counts it once, when the record stands alone (it is dead-lettered then)', async () => {
    const consumer = new IrDocumentsConsumer(serviceOf({ [A]: 'published', [B]: 'rejected' }));
    // In a larger batch the runner splits first: nothing of that batch is counted.
    await expect(consumer.onDocuments(batchOf(A, B))).rejects.toMatchObject({ name: 'PermanentError', message: `not_found: GET ${B}: HTTP 404` });
    expect(consumer.counts).toEqual({ published: 0, unchanged: 0, not_pdf: 0, rejected: 0 });
    await consumer.onDocuments(batchOf(A));
    await expect(consumer.onDocuments(batchOf(B))).rejects.toBeInstanceOf(PermanentError);
    expect(consumer.counts).toEqual({ published: 1, unchanged: 0, not_pdf: 0, rejected: 1 });
  });

  it('lets any other error through, for the runner to retry the batch', async () => {
    const down = new Error('broker unavailable');
    const consumer = new IrDocumentsConsumer({ execute: () => Promise.reject(down) } as unknown as IngestDecksService);
    await expect(consumer.onDocuments(batchOf(A))).rejects.toBe(down);
    expect(consumer.counts.rejected).toBe(0);
  });
});
