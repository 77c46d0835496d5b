import { responseExcerpt, webhookBody } from './delivery.payload';

describe('webhook body', () => {
  it('is {type, timestamp, data} with the stored data spliced in verbatim', () => {
    const data = '{"accession": "0000950170-25-100235", "items": []}';
    const body = webhookBody('filing.created', new Date('2026-11-22T03:00:00.000Z'), data);
    expect(body).toBe('{"type":"filing.created","timestamp":"2026-11-22T03:00:00.000Z","data":{"accession": "0000950170-25-100235", "items": []}}');
    expect(JSON.parse(body)).toEqual({ type: 'filing.created', timestamp: '2026-11-22T03:00:00.000Z', data: { accession: '0000950170-25-100235', items: [] } });
  });

  it('marks sample test events with test: true next to type', () => {
    expect(JSON.parse(webhookBody('webhook.test', '2026-11-22T03:00:00.000Z', '{}', true))).toEqual({
      type: 'webhook.test',
      timestamp: '2026-11-22T03:00:00.000Z',
      test: true,
      data: {},
    });
  });
});

describe('response excerpt', () => {
  it('keeps the first KB as text, without NUL; empty is null', () => {
    expect(responseExcerpt(Buffer.from('ok'))).toBe('ok');
    expect(responseExcerpt(Buffer.alloc(0))).toBeNull();
    expect(responseExcerpt(Buffer.from('a'.repeat(5000)))).toHaveLength(1024);
    expect(responseExcerpt(Buffer.from('a\u0000b'))).toBe('ab');
    // A multi-byte character cut at the limit becomes U+FFFD instead of failing.
    expect(responseExcerpt(Buffer.from(`${'a'.repeat(1023)}é`))).toBe(`${'a'.repeat(1023)}\ufffd`);
  });
});
