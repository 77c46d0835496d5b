import { EMAIL } from './text-cues';

describe('EMAIL', () => {
  it('finds an address inside a line and takes its whole local part', () => {
    expect(EMAIL.exec('Contact: mailto:ir.team+q1@example.co.uk today')?.[0]).toBe('ir.team+q1@example.co.uk');
    expect(EMAIL.exec('(jane_roe@example.com)')?.[0]).toBe('jane_roe@example.com');
  });

  it('answers on a 200,000-character token without "@" (one scan, not one per start position)', () => {
    const token = 'x'.repeat(200_000);
    expect(EMAIL.test(token)).toBe(false);
    expect(EMAIL.exec(`${token} a@b.io`)?.[0]).toBe('a@b.io');
    expect(`${token}.`.replace(EMAIL, ' ')).toHaveLength(200_001);
  });
});
