import { newRequestId, requestIdFrom } from './request-id';

describe('request ids', () => {
  it('are req_ + 20 hex', () => {
    expect(newRequestId()).toMatch(/^req_[0-9a-f]{20}$/);
    expect(newRequestId()).not.toBe(newRequestId());
  });
  it('keep a well-formed incoming id and replace anything else', () => {
    expect(requestIdFrom('req_abcdefgh12')).toBe('req_abcdefgh12');
    expect(requestIdFrom('<script>')).toMatch(/^req_[0-9a-f]{20}$/);
    expect(requestIdFrom(['req_abcdefgh12', 'x'])).toMatch(/^req_[0-9a-f]{20}$/);
    expect(requestIdFrom(undefined)).toMatch(/^req_/);
  });
});
