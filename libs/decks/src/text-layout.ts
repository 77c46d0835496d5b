/**
 * Lines in reading order from positioned text runs (pdfjs `getTextContent` items), without pdfjs:
 * pure geometry, so the rules are testable on small inputs.
 *
 * Coordinates are display space (points, origin top-left, y down): the page as it is shown, after
 * its /Rotate and crop box. pdfjs returns runs in content-stream order, which is the order the
 * authoring tool drew them (PowerPoint draws a slide's title box last; InDesign draws each text
 * frame as one flow), not reading order. So:
 *   1. runs join into lines in stream order: a line ends at a run with hasEOL, when the baseline
 *      moves (see joinsLine), when the text direction changes, or when the next run starts more
 *      than one em before the line's end;
 *   2. consecutive lines form a block while each line lies on or below the previous one (a text
 *      box, a column, a table row by row); a line that moves up starts a new block;
 *   3. blocks are ordered by their top edge, then from the left, in the page's dominant text
 *      direction; lines keep their stream order inside a block, so a column stays whole.
 * Text is measured in the frame of its own direction, so a slide printed rotated onto a portrait
 * page (text running bottom-to-top) reads like the slide.
 */

/** One text run placed on the page. */
export interface PlacedRun {
  str: string;
  hasEOL: boolean;
  /** Text matrix in display space: [a, b, c, d, e, f]; (e, f) is the baseline origin. */
  transform: readonly number[];
  /** Advance of the run along its direction, in points. */
  width: number;
}

/** Direction of text as seen on the page, counter-clockwise degrees: 90 reads bottom-to-top. */
export type TextRotation = 0 | 90 | 180 | 270;

export interface LaidOutLine {
  text: string;
  /** Largest font size of the line's letters and digits (of its symbols when it has none), points (2 decimals). */
  fontSize: number;
  /** Display y of the line's baseline origin: points from the top of the shown page (2 decimals). */
  y: number;
  rotation: TextRotation;
}

export interface PageLayout {
  lines: LaidOutLine[];
  /** Direction of most of the page's characters (0 when it has none; ties go to the lower angle). */
  rotation: TextRotation;
}

interface Frame {
  /** Unit vector along the text. */
  ux: number;
  uy: number;
  /** Unit vector towards the next line (down the text). */
  vx: number;
  vy: number;
}

const FRAMES: Record<TextRotation, Frame> = {
  0: { ux: 1, uy: 0, vx: 0, vy: 1 },
  90: { ux: 0, uy: -1, vx: 1, vy: 0 },
  180: { ux: -1, uy: 0, vx: 0, vy: -1 },
  270: { ux: 0, uy: 1, vx: -1, vy: 0 },
};
const ROTATIONS: readonly TextRotation[] = [0, 90, 180, 270];

interface Run {
  str: string;
  hasEOL: boolean;
  rotation: TextRotation;
  fontSize: number;
  x: number;
  y: number;
  /** Position along the text and down the lines, in the run's own frame. */
  along: number;
  down: number;
  width: number;
}

interface Line {
  runs: Run[];
  rotation: TextRotation;
  down: number;
  alongEnd: number;
  /** Largest size of its letters and digits (a 24 pt bullet does not make a 16 pt line 24 pt). */
  fontSize: number;
}

function rotationOf(transform: readonly number[]): TextRotation {
  const [a = 1, b = 0] = transform;
  // atan2 in y-down space is clockwise; as seen on the page, counter-clockwise is its negation.
  const quarterTurns = Math.round(-Math.atan2(b, a) / (Math.PI / 2));
  return ROTATIONS[((quarterTurns % 4) + 4) % 4]!;
}

/**
 * A run's text without the C0 control characters pdfjs leaves behind for glyphs a broken or Type3
 * font does not map (mostly NUL, which Postgres refuses in text and jsonb): a tab becomes a space,
 * \n stays, the rest is dropped. Done here, before lines and offsets exist, so every later offset
 * counts the text that is stored.
 */
export function cleanRunText(str: string): string {
  // Lone UTF-16 surrogates (broken font encodings) become U+FFFD: Postgres refuses them in jsonb.
  return str
    .replace(/\t/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function toRun(placed: PlacedRun): Run {
  const [, , c = 0, d = 0, x = 0, y = 0] = placed.transform;
  const rotation = rotationOf(placed.transform);
  const f = FRAMES[rotation];
  return {
    str: cleanRunText(placed.str),
    hasEOL: placed.hasEOL,
    rotation,
    fontSize: Math.hypot(c, d),
    x,
    y,
    along: x * f.ux + y * f.uy,
    down: x * f.vx + y * f.vy,
    width: Math.abs(placed.width),
  };
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const isBlank = (s: string): boolean => s.trim().length === 0;

function dominantRotation(runs: readonly Run[]): TextRotation {
  const chars = new Map<TextRotation, number>();
  for (const r of runs) chars.set(r.rotation, (chars.get(r.rotation) ?? 0) + r.str.replace(/\s+/g, '').length);
  let best: TextRotation = 0;
  for (const rotation of ROTATIONS) if ((chars.get(rotation) ?? 0) > (chars.get(best) ?? 0)) best = rotation;
  return best;
}

/**
 * Same direction, same baseline within 0.6 of the smaller font size (a superscript, ~0.6 size
 * raised ~0.33 em, stays on its line; a small caption beside a big title does not join it), and
 * not starting more than an em before the line's end.
 */
function joinsLine(line: Line, run: Run): boolean {
  if (run.rotation !== line.rotation) return false;
  const smaller = Math.max(1, Math.min(line.fontSize || run.fontSize, run.fontSize));
  if (Math.abs(run.down - line.down) > 0.6 * smaller) return false;
  return run.along >= line.alongEnd - Math.max(line.fontSize, run.fontSize, 1);
}

function lineText(line: Line): string {
  let text = '';
  let end: number | undefined;
  for (const run of line.runs) {
    // Runs drawn apart without a space between them (separate text objects) still read as words.
    const gap = end === undefined ? 0 : run.along - end;
    if (text.length > 0 && gap > run.fontSize * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.str)) text += ' ';
    text += run.str;
    end = run.along + run.width;
  }
  return text.trim();
}

function toLines(runs: readonly Run[]): Line[] {
  const lines: Line[] = [];
  let open: Line | undefined;
  for (const run of runs) {
    // pdfjs marks a line break with an empty run placed at the next line's start: it only closes.
    if (run.str.length > 0) {
      if (open && !joinsLine(open, run)) open = undefined;
      if (!open) {
        open = { runs: [], rotation: run.rotation, down: run.down, alongEnd: run.along, fontSize: 0 };
        lines.push(open);
      }
      open.runs.push(run);
      open.alongEnd = Math.max(open.alongEnd, run.along + run.width);
      if (/[\p{L}\p{N}]/u.test(run.str)) open.fontSize = Math.max(open.fontSize, run.fontSize);
    }
    if (run.hasEOL) open = undefined;
  }
  const kept = lines.filter((l) => l.runs.some((r) => !isBlank(r.str)));
  // A line of symbols only (a lone bullet, a rule of dashes) takes its largest glyph's size.
  for (const line of kept) if (line.fontSize === 0) line.fontSize = Math.max(...line.runs.filter((r) => !isBlank(r.str)).map((r) => r.fontSize));
  return kept;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface PlacedBlock {
  lines: Line[];
  box: Box;
}

/** Extent of a line in `frame`: its baseline from start to end, raised by its font size. */
function lineBox(line: Line, frame: Frame): Box {
  const own = FRAMES[line.rotation];
  const first = line.runs.find((r) => !isBlank(r.str)) ?? line.runs[0]!;
  const length = line.alongEnd - first.along;
  const corners: Array<[number, number]> = [];
  for (const along of [0, length]) {
    for (const up of [0, line.fontSize]) corners.push([first.x + own.ux * along - own.vx * up, first.y + own.uy * along - own.vy * up]);
  }
  const alongs = corners.map(([x, y]) => x * frame.ux + y * frame.uy);
  const downs = corners.map(([x, y]) => x * frame.vx + y * frame.vy);
  return { left: Math.min(...alongs), right: Math.max(...alongs), top: Math.min(...downs), bottom: Math.max(...downs) };
}

function union(boxes: readonly Box[]): Box {
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    right: Math.max(...boxes.map((b) => b.right)),
    top: Math.min(...boxes.map((b) => b.top)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}

/**
 * Consecutive lines stay in one block while each lies on or just below the previous one; a line
 * that moves up (a new text box or column) or drops more than 3 em (a box further down the page,
 * drawn before one above it) starts a new block.
 */
function toBlocks(lines: readonly Line[], frame: Frame): PlacedBlock[] {
  const groups: Line[][] = [];
  for (const line of lines) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    const em = Math.max(line.fontSize, previous?.fontSize ?? 0, 1);
    const drop = previous ? line.down - previous.down : 0;
    if (group && previous && previous.rotation === line.rotation && drop >= -em / 2 && drop <= 3 * em) group.push(line);
    else groups.push([line]);
  }
  return groups.map((group) => ({ lines: group, box: union(group.map((l) => lineBox(l, frame))) }));
}

/** Splits blocks sorted by `start` where nothing spans a gap wider than `minGap`. */
function splitAtGaps(sorted: readonly PlacedBlock[], start: (b: Box) => number, end: (b: Box) => number, minGap: number): PlacedBlock[][] {
  const groups: PlacedBlock[][] = [];
  let reach = -Infinity;
  for (const block of sorted) {
    const current = groups[groups.length - 1];
    if (!current || start(block.box) - reach > minGap) groups.push([block]);
    else current.push(block);
    reach = Math.max(reach, end(block.box));
  }
  return groups;
}

const byTopThenLeft = (p: PlacedBlock, q: PlacedBlock): number => round2(p.box.top) - round2(q.box.top) || round2(p.box.left) - round2(q.box.left);

/**
 * Recursive XY-cut: columns first (a vertical gutter at least one em wide that no block crosses),
 * left to right, else bands (a horizontal gap), top to bottom; blocks that overlap both ways are
 * read by their top edge. Columns first keeps a two-column page's columns whole even when their
 * paragraph gaps line up; a full-width title crosses every gutter, so it is cut off as a band.
 */
function readingOrder(blocks: readonly PlacedBlock[]): PlacedBlock[] {
  if (blocks.length <= 1) return [...blocks];
  const sizes = blocks.flatMap((b) => b.lines.map((l) => l.fontSize)).sort((p, q) => p - q);
  const em = Math.max(6, sizes[Math.floor(sizes.length / 2)] ?? 0);
  const byLeft = [...blocks].sort((p, q) => round2(p.box.left) - round2(q.box.left) || byTopThenLeft(p, q));
  const columns = splitAtGaps(byLeft, (b) => b.left, (b) => b.right, em);
  if (columns.length > 1) return columns.flatMap(readingOrder);
  const byTop = [...blocks].sort(byTopThenLeft);
  const bands = splitAtGaps(byTop, (b) => b.top, (b) => b.bottom, 0);
  if (bands.length > 1) return bands.flatMap(readingOrder);
  return byTop;
}

/**
 * Lines of one page in reading order (see the module comment); blank lines dropped, each line
 * trimmed, control characters removed from the runs first (see cleanRunText).
 */
export function layoutPage(placed: readonly PlacedRun[]): PageLayout {
  const runs = placed.map(toRun);
  const rotation = dominantRotation(runs);
  const blocks = readingOrder(toBlocks(toLines(runs), FRAMES[rotation]));
  return {
    rotation,
    lines: blocks.flatMap((block) =>
      block.lines.map((line) => {
        const start = line.runs.find((r) => !isBlank(r.str)) ?? line.runs[0]!;
        return { text: lineText(line), fontSize: round2(line.fontSize), y: round2(start.y), rotation: line.rotation };
      }),
    ),
  };
}
