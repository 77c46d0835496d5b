import { layoutCaptioner } from './page.captioner';

const line = (text: string, fontSize: number) => ({ text, fontSize });

describe('layoutCaptioner', () => {
  it('takes the largest line with a letter, a wrapped title of up to 3 lines, then the first body line', () => {
    expect(layoutCaptioner.caption({ lines: [line('as of 9/30/2014 6', 10), line('2019', 60), line('Spin-off', 32), line('Benefits', 32), line('Why separate?', 20)] })).toBe(
      'Spin-off Benefits — Why separate?',
    );
  });

  it('takes only the first line of a paragraph set at the largest size, and the title alone at the end of a page', () => {
    expect(layoutCaptioner.caption({ lines: [line('a', 20), line('b', 20), line('c', 20.04), line('d', 20)] })).toBe('a — b');
    expect(layoutCaptioner.caption({ lines: [line('small', 10), line('BIG', 68)] })).toBe('BIG');
  });

  it('is empty without text, and the first line when no line has a letter', () => {
    expect(layoutCaptioner.caption({ lines: [] })).toBe('');
    expect(layoutCaptioner.caption({ lines: [line('2019', 40), line('36', 12)] })).toBe('2019');
  });
});
