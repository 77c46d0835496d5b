import { cleanRunText, layoutPage, type PlacedRun } from './text-layout';

/** A run of upright text at (x, y) in display space (y down), size `size`. */
const run = (str: string, x: number, y: number, size = 10, hasEOL = false): PlacedRun => ({
  str,
  hasEOL,
  transform: [size, 0, 0, -size, x, y],
  width: str.length * size * 0.5,
});

/** A run reading bottom-to-top (rotated 90 degrees counter-clockwise). */
const up = (str: string, x: number, y: number, size = 10, hasEOL = false): PlacedRun => ({
  str,
  hasEOL,
  transform: [0, -size, -size, 0, x, y],
  width: str.length * size * 0.5,
});

const texts = (runs: PlacedRun[]): string[] => layoutPage(runs).lines.map((l) => l.text);

describe('layoutPage', () => {
  it('joins runs of a baseline into a line and breaks at hasEOL (pdfjs empty EOL runs only close)', () => {
    expect(texts([run('Hello', 10, 100), run(' ', 35, 100), run('world', 40, 100, 10, true), run('', 10, 114, 10, true), run('next', 10, 114)])).toEqual([
      'Hello world',
      'next',
    ]);
  });

  it('inserts a space between runs drawn apart, trims lines and drops blank ones', () => {
    expect(texts([run('  Revenue', 10, 100), run('1,234 ', 200, 100), run('   ', 10, 130, 10, true)])).toEqual(['Revenue 1,234']);
  });

  it('keeps a superscript on its line but not a small caption beside a large title', () => {
    // '7' ends at x 55; 'th' (6.6 pt, raised 3 pt) ends at 61.6 where ' floor' starts.
    expect(texts([run('7', 50, 100), run('th', 55, 97, 6.6), run(' floor', 61.6, 100)])).toEqual(['7th floor']);
    expect(texts([run('TITLE', 10, 100, 32), run('caption', 300, 85, 10)])).toEqual(['TITLE', 'caption']);
  });

  it('reads a box drawn last but placed on top first, and a box far below after a box above it', () => {
    const body = [run('body one', 10, 200, 20, true), run('body two', 10, 225, 20, true)];
    expect(texts([...body, run('Title', 10, 80, 32, true)])).toEqual(['Title', 'body one', 'body two']);
    expect(texts([run('header', 10, 20, 18, true), run('list', 10, 400, 18, true), run('Heading', 10, 100, 32, true)])).toEqual(['header', 'Heading', 'list']);
  });

  it('reads two columns column by column even when their lines share baselines', () => {
    const left = [run('left 1', 10, 100, 10, true), run('left 2', 10, 114, 10, true)];
    const right = [run('right 1', 300, 100, 10, true), run('right 2', 300, 114, 10, true)];
    expect(texts([...right, ...left])).toEqual(['left 1', 'left 2', 'right 1', 'right 2']);
  });

  it('measures sideways text in its own frame: lines go left to right, each read bottom to top', () => {
    // The upright page number sits at the top right of the shown page: the end of the sideways lines.
    const layout = layoutPage([up('second', 40, 500, 10, true), up('first', 20, 500, 10, true), run('1', 560, 20)]);
    expect(layout.rotation).toBe(90);
    expect(layout.lines.map((l) => [l.text, l.rotation])).toEqual([
      ['first', 90],
      ['second', 90],
      ['1', 0],
    ]);
  });

  it('sizes a line by its letters and digits, not by a bigger bullet glyph', () => {
    expect(layoutPage([run('•', 10, 100, 24), run('point', 30, 100, 16)]).lines[0]).toEqual({ text: '• point', fontSize: 16, y: 100, rotation: 0 });
    expect(layoutPage([run('•', 10, 100, 24)]).lines[0]!.fontSize).toBe(24);
  });

  it('is empty for a page without text', () => {
    expect(layoutPage([])).toEqual({ lines: [], rotation: 0 });
  });
});

describe('layoutPage and control characters', () => {
  it('drops NUL and other C0 controls from runs, turns a tab into a space, before lines are made', () => {
    const layout = layoutPage([run('Reve\u0000nue\u0001', 10, 100), run('\u0000\u0000', 60, 100), run('1,234\t5', 80, 100, 10, true), run('\u0000\u001f', 10, 130, 10, true)]);
    expect(layout.lines.map((l) => l.text)).toEqual(['Revenue 1,234 5']);
    // eslint-disable-next-line no-control-regex
    expect(layout.lines.every((l) => !/[\u0000-\u0008\u000b-\u001f]/.test(l.text))).toBe(true);
  });

  it('keeps \n and leaves other text alone', () => {
    expect(cleanRunText('a\u0000b\tc\nd\u007fé')).toBe('ab c\nd\u007fé');
  });

  it('replaces lone surrogates (which Postgres refuses in jsonb) and keeps pairs', () => {
    expect(cleanRunText('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
  });
});
