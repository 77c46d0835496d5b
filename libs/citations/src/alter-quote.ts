const rot = (c: string, first: string, size: number, by: number): string =>
  String.fromCharCode(first.charCodeAt(0) + ((c.charCodeAt(0) - first.charCodeAt(0) + by) % size));

function replacement(c: string): string {
  if (c >= '0' && c <= '9') return rot(c, '0', 10, 5);
  if (c >= 'a' && c <= 'z') return rot(c, 'a', 26, 13);
  if (c >= 'A' && c <= 'Z') return rot(c, 'A', 26, 13);
  return c === '#' ? '%' : '#';
}

/**
 * The quote with one character changed: the ASCII letter or digit nearest the middle, replaced by
 * another of its class (digit +5, letter rot13), else the non-space character nearest the middle
 * replaced by `#`. Same length. For showing that a verification tells a tampered quote apart.
 */
export function alterOneCharacter(quote: string): string {
  const mid = (quote.length - 1) / 2;
  const nearest = (ok: (c: string) => boolean): number => {
    let best = -1;
    for (let i = 0; i < quote.length; i += 1) if (ok(quote[i]!) && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
    return best;
  };
  let at = nearest((c) => /[A-Za-z0-9]/.test(c));
  if (at < 0) at = nearest((c) => !/\s/.test(c) && !/[\uD800-\uDFFF]/.test(c));
  if (at < 0) at = Math.floor(mid);
  if (at < 0) return '#';
  return `${quote.slice(0, at)}${replacement(quote[at]!)}${quote.slice(at + 1)}`;
}
