import {
  deadLetterHeaders,
  deadLetterInfo,
  headersToStrings,
  PREVIOUS_ERRORS_HEADER,
  previousErrors,
  REQUEUED_AT_HEADER,
  REQUEUED_FROM_HEADER,
  requeueHeaders,
} from './dead-letter.headers';

describe('deadLetterHeaders', () => {
  const source = { topic: 'edgar.companies.v1', partition: 2, offset: '41' };
  const at = new Date('2025-01-02T03:04:05.000Z');

  it('names the source, the reason and the time, keeping the original headers', () => {
    expect(deadLetterHeaders(source, 'invalid JSON: x', at, { schema: 'company@1' })).toEqual({
      schema: 'company@1',
      'dlq-reason': 'invalid JSON: x',
      'dlq-source-topic': 'edgar.companies.v1',
      'dlq-source-partition': '2',
      'dlq-source-offset': '41',
      'dlq-failed-at': '2025-01-02T03:04:05.000Z',
    });
  });

  it('truncates very long reasons', () => {
    expect(deadLetterHeaders(source, 'x'.repeat(5000), at)['dlq-reason']).toHaveLength(2001);
  });

  it('an original dlq-* header cannot mask the new one', () => {
    expect(deadLetterHeaders(source, 'now', at, { 'dlq-reason': 'before' })['dlq-reason']).toBe('now');
  });
});

describe('headersToStrings', () => {
  it('decodes buffers, joins arrays and drops undefined', () => {
    expect(headersToStrings({ a: Buffer.from('1'), b: ['x', Buffer.from('y')], c: undefined })).toEqual({ a: '1', b: 'x,y' });
    expect(headersToStrings(undefined)).toEqual({});
  });
});

describe('requeue and dead-letter again', () => {
  const source = { topic: 'ir.documents.v1', partition: 1, offset: '7' };
  const first = deadLetterHeaders(source, 'permanent: relation "documents" does not exist', new Date('2025-01-01T00:00:00.000Z'), { schema: 'ir-document@1', 'record-id': 'r1' });

  it('a requeued record carries its previous error, not the dlq-* headers of a dead letter', () => {
    const requeued = requeueHeaders(first, { topic: 'ir.documents.v1.dlq', partition: 1, offset: '0' }, new Date('2025-01-02T00:00:00.000Z'));
    expect(requeued).toEqual({
      schema: 'ir-document@1',
      'record-id': 'r1',
      [REQUEUED_FROM_HEADER]: 'ir.documents.v1.dlq/1/0',
      [REQUEUED_AT_HEADER]: '2025-01-02T00:00:00.000Z',
      [PREVIOUS_ERRORS_HEADER]: JSON.stringify([{ reason: 'permanent: relation "documents" does not exist', failed_at: '2025-01-01T00:00:00.000Z', source: 'ir.documents.v1/1/7' }]),
    });
  });

  it('failing again, the new dead letter names both errors', () => {
    const requeued = requeueHeaders(first, { topic: 'ir.documents.v1.dlq', partition: 1, offset: '0' }, new Date('2025-01-02T00:00:00.000Z'));
    const second = deadLetterHeaders({ ...source, offset: '9' }, 'permanent: still broken', new Date('2025-01-03T00:00:00.000Z'), requeued);
    const info = deadLetterInfo(second);
    expect(info.reason).toBe('permanent: still broken');
    expect(info.source).toEqual({ topic: 'ir.documents.v1', partition: 1, offset: '9' });
    expect(info.previous.map((e) => e.reason)).toEqual(['permanent: relation "documents" does not exist']);
    expect(info.requeuedFrom).toBe('ir.documents.v1.dlq/1/0');
    // And a third time round: three errors, oldest first.
    const third = deadLetterHeaders(source, 'permanent: third', new Date(), requeueHeaders(second, { topic: 'x.dlq', partition: 0, offset: '3' }, new Date()));
    expect(previousErrors(third).map((e) => e.reason)).toEqual(['permanent: relation "documents" does not exist', 'permanent: still broken']);
  });

  it('a record republished from a DLQ as it was keeps its old reason too', () => {
    expect(previousErrors(deadLetterHeaders(source, 'now', new Date(), first)).map((e) => e.reason)).toEqual(['permanent: relation "documents" does not exist']);
  });

  it('ignores an unreadable history header', () => {
    expect(previousErrors({ [PREVIOUS_ERRORS_HEADER]: 'not json' })).toEqual([]);
    expect(previousErrors({ [PREVIOUS_ERRORS_HEADER]: '[{"nope":1},{"reason":"r","failed_at":"t"}]' })).toEqual([{ reason: 'r', failed_at: 't' }]);
  });
});
