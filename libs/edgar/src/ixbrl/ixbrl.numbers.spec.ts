import { factValue, IxbrlFormatError, scaleDecimal, transformNumber } from './ixbrl.numbers';

describe('ixbrl numbers', () => {
  it.each([
    ['40,315', 'ixt:num-dot-decimal', '40315'],
    ['1,234.50', 'ixt:numdotdecimal', '1234.5'],
    ['1 234,5', 'ixt:num-comma-decimal', '1234.5'],
    ['—', 'ixt:fixed-zero', '0'],
    ['-', 'ixt-sec:zerodash', '0'],
    ['\u00a05.47 ', 'ixt:num-dot-decimal', '5.47'],
    ['007', undefined, '7'],
    // Words as Apple, NVIDIA and Tesla print counts in their 10-Qs.
    ['two', 'ixt-sec:numwordsen', '2'],
    ['Seven', 'ixt-sec:numwordsen', '7'],
    ['no', 'ixt-sec:numwordsen', '0'],
    ['twenty-one', 'ixt-sec:numwordsen', '21'],
    ['one hundred and five', 'ixt-sec:numwordsen', '105'],
  ])('%j under %s is %s', (text, format, expected) => {
    expect(transformNumber(text, format)).toBe(expected);
  });

  it('refuses text its format cannot read', () => {
    expect(() => transformNumber('twelve', 'ixt:num-dot-decimal')).toThrow(IxbrlFormatError);
    expect(() => transformNumber('12', 'ixt-sec:numwordsen')).toThrow(IxbrlFormatError);
    expect(() => transformNumber('several', 'ixt-sec:numwordsen')).toThrow(IxbrlFormatError);
  });

  it('scales exactly', () => {
    expect(scaleDecimal('1.5', 9)).toBe('1500000000');
    expect(scaleDecimal('40315', 6)).toBe('40315000000');
    expect(scaleDecimal('5', -2)).toBe('0.05');
    expect(scaleDecimal('0.1', 1)).toBe('1');
  });

  it('applies format, scale and sign', () => {
    expect(factValue('40,315', { format: 'ixt:num-dot-decimal', scale: '6' })).toBe(40_315_000_000);
    expect(factValue('(1,234)'.replace(/[()]/g, ''), { format: 'ixt:num-dot-decimal', scale: '6', sign: '-' })).toBe(-1_234_000_000);
    expect(factValue('—', { format: 'ixt:fixed-zero', scale: '6', sign: '-' })).toBe(0);
    expect(factValue('0.3', { format: 'ixt:num-dot-decimal', scale: '9' })).toBe(300_000_000);
  });
});
