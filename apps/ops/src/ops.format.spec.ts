import { deadLetterDocument, formatBackfill, formatBackfillError, formatDeadLetter, formatDlqDepths, formatLag, formatLagVerdict, lagByTopic, lagDocument, lagVerdict, table } from './ops.format';

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
    const text = formatLag(rows, [{ topic: 'ir.documents.v1.dlq', partitions: [{ partition: 0, low: '0', high: '9' }], depth: 9 }], new Map([['ir.documents.v1.dlq', 2]]));
    expect(text).toBe(
      [
        'GROUP      TOPIC             PARTITIONS         END  LAG',
        'projector  edgar.filings.v1  2 (1 not started)  8    3',
        'projector  ir.roster.v1      1                  2    0',
        'projector: total lag 3',
        '',
        'DEAD-LETTER TOPIC    DEPTH  NOT REQUEUED',
        'ir.documents.v1.dlq  9      2',
        '9 dead letter(s) in all',
      ].join('\n'),
    );
  });

  it('lag verdict: dead letters waiting exit 3 (over lag), a group above the bound 4, else 0', () => {
    const rows = [
      ...lagByTopic('projector', [{ topic: 'edgar.filings.v1', partition: 0, committed: '0', high: '7', lag: 7 }]),
      ...lagByTopic('segments', [{ topic: 'edgar.filings.v1', partition: 0, committed: '7', high: '7', lag: 0 }]),
    ];
    const none = new Map([['a.dlq', 0]]);
    expect(lagVerdict(rows, none, 7)).toEqual({ deadLettersWaiting: 0, groupsOverMaxLag: [], exitCode: 0 });
    expect(lagVerdict(rows, none, 6)).toEqual({ deadLettersWaiting: 0, groupsOverMaxLag: [{ group: 'projector', lag: 7 }], exitCode: 4 });
    const waiting = lagVerdict(rows, new Map([['a.dlq', 2]]), 6);
    expect(waiting).toMatchObject({ deadLettersWaiting: 2, exitCode: 3 });
    expect(formatLagVerdict(waiting, 6)).toEqual(['lag: 2 dead letter(s) not requeued (exit 3): npm run ops -- dlq list', 'lag: group projector has lag 7, above --max-lag 6']);
    expect(formatLagVerdict(lagVerdict(rows, none, 7), 7)).toEqual([]);

    const doc = lagDocument(rows, [{ topic: 'a.dlq', partitions: [], depth: 5 }], new Map([['a.dlq', 2]]), 6, waiting);
    expect(JSON.parse(JSON.stringify(doc))).toEqual({
      groups: [
        { group: 'projector', total_lag: 7, topics: [{ topic: 'edgar.filings.v1', partitions: 1, committed_partitions: 1, not_started_partitions: 0, end_offset: 7, lag: 7 }] },
        { group: 'segments', total_lag: 0, topics: [{ topic: 'edgar.filings.v1', partitions: 1, committed_partitions: 1, not_started_partitions: 0, end_offset: 7, lag: 0 }] },
      ],
      dead_letter_topics: [{ topic: 'a.dlq', depth: 5, not_requeued: 2 }],
      max_lag: 6,
      dead_letters_waiting: 2,
      groups_over_max_lag: ['projector'],
      exit_code: 3,
    });
  });

  it('a dead letter as JSON: the whole value and what its headers say', () => {
    const m = { topic: 'a.dlq', partition: 0, offset: '3', key: 'k', value: 'v'.repeat(700), headers: {} };
    const info = { reason: 'permanent: bad', failedAt: null, source: null, previous: [{ reason: 'first', failed_at: '', source: '' }], requeuedFrom: null };
    expect(deadLetterDocument(m, info)).toEqual({
      topic: 'a.dlq', partition: 0, offset: '3', key: 'k', value: 'v'.repeat(700), failed_at: null, error: 'permanent: bad', source: null,
      earlier_errors: [{ failed_at: null, source: null, error: 'first' }], requeued_from: null, record_id: null,
    });
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
