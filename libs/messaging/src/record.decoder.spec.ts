import type { TopicDefinition } from '@app/contracts';
import { z } from 'zod';
import { decodeRecord } from './record.decoder';

const topic: TopicDefinition = {
  name: 't.v1',
  dlq: 't.v1.dlq',
  key: 'k',
  producers: [],
  consumers: [],
  compacted: false,
  partitions: 1,
  schemas: { 'thing@1': z.object({ schema: z.literal('thing@1'), n: z.number() }) },
};

describe('decodeRecord', () => {
  it('accepts a valid record', () => {
    expect(decodeRecord(topic, Buffer.from('{"schema":"thing@1","n":1}'))).toMatchObject({ ok: true });
  });

  it('rejects empty values, bad JSON, unknown schemas and invalid data with a reason', () => {
    expect(decodeRecord(topic, null)).toEqual({ ok: false, error: expect.stringMatching(/^empty message value/) });
    expect(decodeRecord(topic, Buffer.from('{'))).toEqual({ ok: false, error: expect.stringMatching(/^invalid JSON/) });
    expect(decodeRecord(topic, '{"schema":"thing@2"}')).toEqual({ ok: false, error: expect.stringMatching(/thing@2 is not accepted/) });
    expect(decodeRecord(topic, '{"schema":"thing@1","n":"1"}')).toEqual({ ok: false, error: expect.stringMatching(/^invalid thing@1: n:/) });
  });
});
