import { pdfDateToIso } from './pdf-date.parser';

describe('pdfDateToIso', () => {
  it.each([
    ["D:20150112150142-05'00'", '2015-01-12T15:01:42-05:00'],
    ["D:20200313071813-04'00'", '2020-03-13T07:18:13-04:00'],
    ['D:20200313071813Z', '2020-03-13T07:18:13Z'],
    ["D:20200313071813+0530", '2020-03-13T07:18:13+05:30'],
    ['D:2015', '2015-01-01T00:00:00Z'],
    ['20150112', '2015-01-12T00:00:00Z'],
  ])('%s -> %s', (raw, iso) => {
    expect(pdfDateToIso(raw)).toBe(iso);
  });

  it.each([null, '', 'yesterday', 'D:20151312000000', 'D:20150132000000'])('%s -> null', (raw) => {
    expect(pdfDateToIso(raw)).toBeNull();
  });
});
