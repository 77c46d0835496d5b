import { backoffDelay } from './backoff.policy';

describe('backoffDelay', () => {
  const policy = { initialMs: 100, maxMs: 1_000 };

  it('starts at initialMs and doubles', () => {
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, policy))).toEqual([100, 200, 400, 800]);
  });

  it('is capped at maxMs, however many attempts', () => {
    expect(backoffDelay(4, policy)).toBe(1_000);
    expect(backoffDelay(1_000, policy)).toBe(1_000);
  });

  it('treats a maxMs below initialMs as initialMs and negative input as 0', () => {
    expect(backoffDelay(5, { initialMs: 300, maxMs: 10 })).toBe(300);
    expect(backoffDelay(-1, policy)).toBe(100);
    expect(backoffDelay(0, { initialMs: -5, maxMs: 10 })).toBe(0);
  });
});
