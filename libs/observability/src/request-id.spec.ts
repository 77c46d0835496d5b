import { newRequestId, requestIdFrom, traceIdFrom } from './request-id';

describe('request ids', () => {
  it('are req_ + 20 hex', () => {
    expect(newRequestId()).toMatch(/^req_[0-9a-f]{20}$/);
    expect(newRequestId()).not.toBe(newRequestId());
  });

  it('keep a well-formed incoming X-Request-Id (ours, a UUID, a proxy token) and replace anything else', () => {
    expect(requestIdFrom('req_abcdefgh12')).toBe('req_abcdefgh12');
    expect(requestIdFrom('3f2b8c1e-8d4a-4c5e-9a7b-1c2d3e4f5a6b')).toBe('3f2b8c1e-8d4a-4c5e-9a7b-1c2d3e4f5a6b');
    expect(requestIdFrom('Root=1-67891233-abcdef012345678912345678')).toMatch(/^req_[0-9a-f]{20}$/);
    for (const bad of ['<script>', 'short', 'has space in it', 'x'.repeat(129), '-leading-dash', 'new\nline-injection', '']) {
      expect(requestIdFrom(bad)).toMatch(/^req_[0-9a-f]{20}$/);
    }
    expect(requestIdFrom(['req_abcdefgh12', 'x'])).toMatch(/^req_[0-9a-f]{20}$/);
    expect(requestIdFrom(undefined)).toMatch(/^req_/);
  });

  it('take the trace id of a well-formed traceparent when no X-Request-Id is kept', () => {
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(requestIdFrom(undefined, tp)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(requestIdFrom('<bad>', tp)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(requestIdFrom('req_abcdefgh12', tp)).toBe('req_abcdefgh12');
  });

  it('read traceparent as W3C Trace Context defines it', () => {
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    // A later version may carry more fields; version 00 may not; ff is invalid.
    expect(traceIdFrom('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBeUndefined();
    expect(traceIdFrom('ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdFrom('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01')).toBeUndefined();
    expect(traceIdFrom('00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdFrom(['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'])).toBeUndefined();
    expect(traceIdFrom(undefined)).toBeUndefined();
  });
});
