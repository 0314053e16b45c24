/**
 * Addresses an SMTP probe must not connect to unless ALLOW_PRIVATE_MX: loopback, private,
 * link-local, carrier-grade NAT, unspecified, multicast and reserved ranges (IPv4 and IPv6,
 * including IPv4-mapped IPv6). Keeps the service from being used to scan an internal network.
 * IPv6 forms that carry an IPv4 address are judged by it: NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16); the local-use NAT64 prefix (64:ff9b:1::/48), IPv4-compatible addresses (::/96)
 * and site-local fec0::/10 are refused whole.
 */
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a valid one: net.isIP said 6). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address stands for (mapped, NAT64 well-known prefix, 6to4), or null. */
function embeddedIpv4(address: string): string | null {
  const g = groupsOf(address);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64, RFC 6052)
  if (zero(0, 5) && g[5] === 0xffff) return ipv4Of(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return ipv4Of(g[6] ?? 0, g[7] ?? 0);
  // 2002:AABB:CCDD::/48 (6to4, RFC 3056)
  if (g[0] === 0x2002) return ipv4Of(g[1] ?? 0, g[2] ?? 0);
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  const inner = embeddedIpv4(address);
  if (inner !== null) return blocked.check(inner, 'ipv4');
  return blocked.check(address, 'ipv6');
}
