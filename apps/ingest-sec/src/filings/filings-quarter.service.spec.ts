import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TOPICS, validateRecord, type FilingRecordV1, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { fullIndexPath, parseDailyIndex, type EdgarClient, type EdgarFetchResult } from '@app/edgar';
import { createLogger } from '@app/observability';
import type { RecordPublisher } from '../ingest.providers';
import { FilingsQuarterService } from './filings-quarter.service';
import { parseFilingsArgs } from './filings.config';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const daily = readFileSync(join(FIXTURES, 'feeds/form.20200318.idx'));
/**
 * The quarterly full index is the quarter's daily form indexes in one file, its dates dashed
 * (2020-03-18, not 20200318). No real full index is among the fixtures: the real daily index of
 * 2020-03-18, its dates written as the full index writes them, stands for a quarter of one day.
 */
const quarterly = Buffer.from(daily.toString('latin1').replace(/(\s)20200318(\s)/g, '$12020-03-18$2'), 'latin1');

function setup(routes: Record<string, Buffer>) {
  const requested: string[] = [];
  const get = (path: string): Promise<EdgarFetchResult> => {
    requested.push(path);
    const url = `https://www.sec.gov${path}`;
    const bytes = routes[path];
    return Promise.resolve(bytes ? { kind: 'ok', url, status: 200, bytes, fetchedAt: '2026-01-02T12:00:00.000Z' } : { kind: 'not_found', url, status: 404, fetchedAt: '2026-01-02T12:00:00.000Z' });
  };
  const published: RecordEnvelope[][] = [];
  const publisher: RecordPublisher = {
    publish: (_topic: TopicDefinition, records: readonly RecordEnvelope[]) => Promise.resolve(void published.push([...records])),
  };
  const service = new FilingsQuarterService({ getWww: get, withPriority() { return this; } } as unknown as EdgarClient, publisher, TOPICS.filings, createLogger({ level: 'silent' }));
  return { service, published, requested };
}

describe('the quarterly full index (form layout, dashed dates)', () => {
  it('parses as the daily index it compiles: the same rows, dates and accessions', () => {
    const a = parseDailyIndex(daily).entries;
    const b = parseDailyIndex(quarterly).entries;
    expect(b).toHaveLength(a.length);
    expect(b.map(({ line: _, ...e }) => e)).toEqual(a.map(({ line: _, ...e }) => e));
  });
});

describe('FilingsQuarterService', () => {
  it("publishes a quarter's NPORT-P and NPORT-P/A filings as filing@1 records naming the index page, in one request", async () => {
    const { service, published, requested } = setup({ [fullIndexPath(2020, 1)]: quarterly });
    const summary = await service.execute({ year: 2020, quarter: 1, forms: ['NPORT-P', 'NPORT-P/A'], runId: 'run_q' });
    expect(summary).toMatchObject({ index: 'ok', url: 'https://www.sec.gov/Archives/edgar/full-index/2020/QTR1/form.idx', rows: 4084, published: 31 });
    expect(requested).toEqual(['/Archives/edgar/full-index/2020/QTR1/form.idx']);
    const records = published.flat() as FilingRecordV1[];
    expect(records).toHaveLength(31);
    for (const r of records) expect(validateRecord(TOPICS.filings, r)).toMatchObject({ ok: true });
    // Fund registrants no company list names: Goldman Sachs Trust files one NPORT-P per series.
    expect(records.filter((r) => r.data.company_name === 'GOLDMAN SACHS TRUST')).toHaveLength(9);
    const amendment = records.find((r) => r.data.form === 'NPORT-P/A')!;
    expect(amendment.data).toMatchObject({
      accession: '0001752724-20-052530',
      cik: '0001356115',
      company_name: 'NexPoint Strategic Opportunities Fund',
      filed_date: '2020-03-18',
      is_amendment: true,
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1356115/000175272420052530/0001752724-20-052530-index.htm',
    });
    expect(amendment.provenance).toMatchObject({ source_url: 'https://www.sec.gov/Archives/edgar/full-index/2020/QTR1/form.idx', quote: expect.stringMatching(/^NPORT-P\/A\s+NexPoint Strategic Opportunities Fund\s+1356115\s+2020-03-18\s+edgar\/data\/1356115\/0001752724-20-052530\.txt$/) });
  });

  it('says so when the quarter is not published yet', async () => {
    const { service, published } = setup({});
    expect(await service.execute({ year: 2099, quarter: 4, forms: ['NPORT-P'] })).toMatchObject({ index: 'not_published', published: 0 });
    expect(published).toEqual([]);
  });
});

describe('filings quarter: command line', () => {
  it('takes --quarter YYYYQn, N-PORT forms unless --forms names others', () => {
    expect(parseFilingsArgs(['quarter', '--quarter', '2024Q1'])).toEqual({ mode: 'quarter', year: 2024, quarter: 1, forms: ['NPORT-P', 'NPORT-P/A'] });
    expect(parseFilingsArgs(['quarter', '--quarter', '2019q4', '--forms', 'NPORT-P'])).toEqual({ mode: 'quarter', year: 2019, quarter: 4, forms: ['NPORT-P'] });
    for (const bad of [[], ['--quarter', '2024Q5'], ['--quarter', '2024-01']]) expect(parseFilingsArgs(['quarter', ...bad])).toHaveProperty('error');
    for (const help of [['--help'], ['-h'], ['help'], ['quarter', '--help']]) expect(parseFilingsArgs(help)).toEqual({ help: true });
    expect(parseFilingsArgs(['weekly'])).toEqual({ error: 'unknown mode "weekly" (known: backfill, live, quarter)' });
  });
});
