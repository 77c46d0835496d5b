import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Outbound requests to addresses taken from third-party content (links on IR pages, PDFs they
 * point to, webhook URLs) must not reach the service's own network: loopback, private,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and other
 * special-use ranges. Tests and local runs serve fixtures on 127.0.0.1 and allow them explicitly.
 */
export class NonPublicAddressError extends Error {
  constructor(
    readonly url: string,
    readonly address: string,
  ) {
    super(`${url} resolves to ${address}, a loopback, private, link-local or other special-use address`);
    this.name = 'NonPublicAddressError';
  }
}

const IPV4_SPECIAL: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function ipv4ToInt(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function isSpecialIpv4(address: string): boolean {
  const value = ipv4ToInt(address);
  return IPV4_SPECIAL.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipv4ToInt(base);
    return value >= start && value < start + size;
  });
}

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = ipv4ToInt(last);
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups;
}

function isSpecialIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  const allZeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroTo(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  const ipv4At = (i: number) => `${g[i]! >> 8}.${g[i]! & 255}.${g[i + 1]! >> 8}.${g[i + 1]! & 255}`;
  if (allZeroTo(5) && g[5] === 0xffff) return isSpecialIpv4(ipv4At(6)); // IPv4-mapped
  // ::/96 IPv4-compatible (deprecated; some stacks still route it to the embedded IPv4 address).
  if (allZeroTo(6)) return true;
  const first = g[0]!;
  if (first === 0x2002) return isSpecialIpv4(ipv4At(1)); // 2002::/16 6to4 carries an IPv4 address
  if (first === 0x2001 && g[1]! < 0x0200) return true; // 2001::/23 IETF protocol assignments (Teredo among them)
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // 100::/64 discard-only
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // 2001:db8::/32 documentation
  if (first === 0x0064 && g[1] === 0xff9b) return true; // 64:ff9b::/96 NAT64, 64:ff9b:1::/48 local NAT64
  return false;
}

/** True for an IP literal in a loopback, private, link-local or other special-use range. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isSpecialIpv4(address);
  if (family === 6) return isSpecialIpv6(address);
  return false;
}

/**
 * Resolves the URL's host and throws NonPublicAddressError when any of its addresses is not
 * public (unless allowed). Call it before every request and every redirect hop: DNS can change
 * between calls, so the check belongs to each connection, not to registration.
 */
export async function assertPublicUrl(url: string, options: { allowPrivate: boolean }): Promise<void> {
  if (options.allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const bad = addresses.find((a) => isNonPublicAddress(a));
  if (bad !== undefined) throw new NonPublicAddressError(url, bad);
}
