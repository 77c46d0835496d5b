import { formatBackfill, formatBackfillError, formatDeadLetter, formatDlqDepths, formatLag, lagByTopic, table } from './ops.format';

describe('ops output', () => {
  it('table pads columns', () => {
    expect(table([['A', 'LONG'], ['xyz', '1']])).toBe('A    LONG\nxyz  1');
  });

  it('lag: one row per group and topic, a total per group, then the DLQ depths', () => {
    const rows = lagByTopic('projector', [
      { topic: 'edgar.filings.v1', partition: 0, committed: '5', high: '5', lag: 0 },
      { topic: 'edgar.filings.v1', partition: 1, committed: null, high: '3', lag: 3 },
      { topic: 'ir.roster.v1', partition: 0, committed: '2', high: '2', lag: 0 },
    ]);
    const text = formatLag(rows, [{ topic: 'ir.documents.v1.dlq', partitions: [{ partition: 0, low: '0', high: '9' }], depth: 9 }]);
    expect(text).toBe(
      [
        'GROUP      TOPIC             PARTITIONS         END  LAG',
        'projector  edgar.filings.v1  2 (1 not started)  8    3',
        'projector  ir.roster.v1      1                  2    0',
        'projector: total lag 3',
        '',
        'DEAD-LETTER TOPIC    DEPTH',
        'ir.documents.v1.dlq  9',
        '9 dead letter(s) in all',
      ].join('\n'),
    );
  });

  it('dlq depths with what is not requeued yet', () => {
    const d = [{ topic: 'a.dlq', partitions: [], depth: 4 }];
    expect(formatDlqDepths(d, new Map([['a.dlq', 1]]))).toContain('a.dlq              4      1');
    expect(formatDlqDepths([], null)).toBe('no dead-letter topics on the broker');
  });

  it('a dead letter: where, key, when, error, earlier errors, value (clipped unless --full)', () => {
    const m = { topic: 'ir.documents.v1.dlq', partition: 1, offset: '4', key: 'https://x/deck.pdf', value: 'v'.repeat(700), headers: { 'record-id': 'rec_1' } };
    const info = {
      reason: 'permanent: again',
      failedAt: '2025-01-03T00:00:00.000Z',
      source: { topic: 'ir.documents.v1', partition: 1, offset: '9' },
      previous: [{ reason: 'permanent: first', failed_at: '2025-01-01T00:00:00.000Z', source: 'ir.documents.v1/1/7' }],
      requeuedFrom: 'ir.documents.v1.dlq/1/0',
    };
    const text = formatDeadLetter(m, info, false);
    expect(text).toContain('ir.documents.v1.dlq partition 1 offset 4   (requeue it: --offset 1:4)');
    expect(text).toContain('  key:       https://x/deck.pdf');
    expect(text).toContain('  error:     permanent: again');
    expect(text).toContain('  source:    ir.documents.v1 partition 1 offset 9');
    expect(text).toContain('  earlier error 1: 2025-01-01T00:00:00.000Z at ir.documents.v1/1/7: permanent: first');
    expect(text).toContain('(700 chars; --full shows all)');
    expect(formatDeadLetter(m, info, true)).toContain(`value:     ${'v'.repeat(700)}`);
  });

  it('a backfill checkpoint, finished or not, and an unreadable one', () => {
    const text = formatBackfill('/c/bulk.json', {
      kind: 'submissions-bulk',
      source: 'submissions.zip',
      entries_total: 200,
      entries_done: 50,
      records_published: 1234,
      started_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:01:00Z',
      finished_at: null,
      filings_published: 1200,
      pending_names: { x: 1 },
    });
    expect(text).toContain('  entries:           50 of 200 (25.0 %)');
    expect(text).toContain('  records published: 1234');
    expect(text).toContain('  finished at:       -');
    expect(text).toContain('not finished (a restarted run resumes from here)');
    expect(text).toContain('  filings published: 1200');
    expect(text).not.toContain('pending');
    expect(formatBackfillError('/c/x.json', 'Unexpected token')).toBe('/c/x.json\n  unreadable: Unexpected token');
  });
});
