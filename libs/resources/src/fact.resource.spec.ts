import { scaleFactor, toFactValue } from './fact.resource';

describe('toFactValue', () => {
  it('scales amounts of money to the unit asked, and nothing else (per-share amounts, ratios, share counts)', () => {
    expect(toFactValue('391035000000', 'USD', '-6', 'million')).toMatchObject({ raw: 391035000000, normalized: 391035, conversion_factor: 1e-6 });
    expect(toFactValue('6.08', 'USD/shares', '2', 'million')).toMatchObject({ normalized: 6.08, conversion_factor: 1 });
    expect(toFactValue('0.21', 'pure', '2', 'million')).toMatchObject({ normalized: 0.21, conversion_factor: 1 });
    expect(toFactValue('15408095000', 'shares', '-3', 'million')).toMatchObject({ normalized: 15408095000, conversion_factor: 1 });
  });
});

describe('scaleFactor', () => {
  it('is the factor of value.normalized: 1e-6 for USD in millions, 1 for anything but money', () => {
    expect(scaleFactor('USD', 'million')).toBe(1e-6);
    expect(scaleFactor('EUR', 'thousand')).toBe(1e-3);
    expect(scaleFactor('USD/shares', 'million')).toBe(1);
    expect(scaleFactor('USD', 'as_reported')).toBe(1);
  });
});
