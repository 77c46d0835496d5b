import { z } from 'zod';
import { verifyCitationBody } from '../citations/citations.schemas';
import { createEndpointBody, testEventBody } from '../webhooks/webhooks.schemas';
import { ValidationError, type ValidationItem } from './api.errors';
import { parseBody, refuseBody } from './body.validation';

/** The 422 items a call throws (fails the test when it does not throw one). */
function itemsOf(run: () => unknown): ValidationItem[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return err.items;
    throw err;
  }
  throw new Error('no ValidationError thrown');
}

const extra = (loc: (string | number)[], input: unknown): ValidationItem => ({ type: 'extra_forbidden', loc, msg: 'Extra inputs are not permitted', input });

describe('parseBody', () => {
  it('an unknown field is extra_forbidden at its loc, one item each, with its value', () => {
    const body = { url: 'https://hooks.example.com/x', topics: ['filing.created'], account_id: 'acct_other', signing_secret: 'whsec_mine', id: 'we_1' };
    expect(itemsOf(() => parseBody(createEndpointBody, body))).toEqual([
      extra(['body', 'account_id'], 'acct_other'),
      extra(['body', 'signing_secret'], 'whsec_mine'),
      extra(['body', 'id'], 'we_1'),
    ]);
  });

  it('in a nested object too, in the same 422 as the other items', () => {
    const body = { provenance: { source_url: 'https://www.sec.gov/x', content_hash: 'md5:1', colour: 'red' }, verbose: true };
    expect(itemsOf(() => parseBody(verifyCitationBody, body))).toEqual([
      { type: 'missing', loc: ['body', 'provenance', 'quote'], msg: 'Field required', input: null },
      expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['body', 'provenance', 'content_hash'] }),
      extra(['body', 'provenance', 'colour'], 'red'),
      extra(['body', 'verbose'], true),
    ]);
  });

  it('an optional body: absent is {}, unknown fields still refused', () => {
    expect(parseBody(testEventBody, undefined, { optional: true })).toEqual({});
    expect(itemsOf(() => parseBody(testEventBody, { topics: ['filing.created'] }, { optional: true }))).toEqual([extra(['body', 'topics'], ['filing.created'])]);
  });

  it('a served provenance, every field of it, is accepted', () => {
    const provenance = {
      src_id: 'src_abc',
      source_provider: 'sec',
      source_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017024087843/msft-20240630.htm',
      citation_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017024087843/',
      accession: '0000950170-24-087843',
      quote: 'Microsoft Corporation',
      content_hash: `sha256:${'a'.repeat(64)}`,
      extracted_at: '2024-07-30T20:00:00Z',
    };
    expect(parseBody(verifyCitationBody, { provenance })).toEqual({ provenance });
  });

  it('a missing body and a non-object are still their own items', () => {
    const s = z.strictObject({ a: z.string() });
    expect(itemsOf(() => parseBody(s, undefined))).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    expect(itemsOf(() => parseBody(s, 'text'))[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'] });
  });
});

describe('refuseBody', () => {
  it('no body is no body; any body at all, even {} or null, is extra_forbidden at ["body"]', () => {
    expect(refuseBody(undefined)).toBeUndefined();
    expect(itemsOf(() => refuseBody({}))).toEqual([extra(['body'], {})]);
    expect(itemsOf(() => refuseBody(null))).toEqual([extra(['body'], null)]);
    expect(itemsOf(() => refuseBody({ reason: 'leaked' }))).toEqual([extra(['body'], { reason: 'leaked' })]);
  });
});
