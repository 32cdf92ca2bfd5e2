import { BlockList, isIP } from 'node:net';

// Addresses a fetch must not reach unless the person named the host in an allow rule: loopback
// (the panel's own port, local services), private networks, link-local (cloud metadata at
// 169.254.169.254), carrier-grade NAT, multicast and the reserved ranges. An IPv6 address that
// carries an IPv4 one (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4
// 2002::/16) is judged by that one.

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** True for an IP address a fetch may not reach without a rule naming its host; false for a public one. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return false;
  const words = ipv6Words(address);
  if (!words) return true;
  const embedded = embeddedIpv4(words);
  if (embedded) return PRIVATE.check(embedded, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included), or null. */
function ipv6Words(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const words = [...left, ...Array<string>(missing).fill('0'), ...right].map((word) => Number.parseInt(word, 16));
  return words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : null;
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(words: readonly number[]): string | null {
  const word = (index: number): number => words[index] ?? 0;
  const zero = (from: number, to: number): boolean => words.slice(from, to).every((each) => each === 0);
  const quad = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (zero(0, 5) && (word(5) === 0xffff || word(5) === 0)) return quad(word(6), word(7));
  if (word(0) === 0x64 && word(1) === 0xff9b && zero(2, 6)) return quad(word(6), word(7));
  if (word(0) === 0x2002) return quad(word(1), word(2));
  return null;
}
