import { deadLetterHeaders, headersToStrings } from './dead-letter.headers';

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
