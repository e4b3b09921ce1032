/**
 * Which IP addresses the server may open a connection to when it sends a push message (SEC-06).
 * A push service is a public internet host: anything private, internal or reserved is refused, so a
 * subscription cannot make the server reach its own network (SSRF).
 *
 * IPv4: refused are "this network" 0/8, RFC 1918 (10/8, 172.16/12, 192.168/16), CGNAT 100.64/10,
 * loopback 127/8, link-local 169.254/16 (cloud metadata at 169.254.169.254), the IETF, documentation,
 * 6to4-relay and benchmarking blocks, multicast 224/4 and the reserved 240/4 with broadcast.
 *
 * IPv6: only global unicast 2000::/3 is allowed, without its documentation (2001:db8::/32, 3fff::/20),
 * IETF-protocol (2001::/23, Teredo included) and 6to4 (2002::/16) blocks. That leaves out ::, ::1,
 * IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses, ULA fc00::/7, link-local fe80::/10,
 * multicast ff00::/8 and the local-use NAT64 prefix 64:ff9b:1::/48. The well-known NAT64 prefix
 * 64:ff9b::/96 (RFC 6052) is allowed only when the IPv4 address it embeds is itself allowed: a server on
 * an IPv6-only network reaches IPv4-only push services through it.
 */
import { isIP } from 'node:net';

/** IPv4 blocks (address, prefix length) a push message is never sent to. */
const REFUSED_V4: readonly [string, number][] = [
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

function v4Number(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const REFUSED_V4_RANGES = REFUSED_V4.map(([base, bits]) => {
  const size = 2 ** (32 - bits);
  const start = v4Number(base)!;
  return { start, end: start + size - 1 };
});

function v4Allowed(value: number): boolean {
  return !REFUSED_V4_RANGES.some((r) => value >= r.start && value <= r.end);
}

/** The 16 bytes of an IPv6 address (zone id dropped, a dotted IPv4 tail accepted), or null. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '').toLowerCase();
  if (isIP(text) !== 6) return null;
  let groups = text;
  const lastColon = groups.lastIndexOf(':');
  const tail = groups.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = v4Number(tail);
    if (v4 === null) return null;
    groups = `${groups.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = groups.split('::') as [string, string | undefined];
  const headParts = head ? head.split(':') : [];
  const restParts = rest ? rest.split(':') : [];
  const missing = 8 - headParts.length - restParts.length;
  const all = rest === undefined ? headParts : [...headParts, ...Array<string>(missing).fill('0'), ...restParts];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    const v = Number.parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const i = bit / 8;
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v6Allowed(bytes: Uint8Array): boolean {
  // The well-known NAT64 prefix: decide by the IPv4 address inside.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) {
    return v4Allowed(((bytes[12]! << 24) >>> 0) + (bytes[13]! << 16) + (bytes[14]! << 8) + bytes[15]!);
  }
  if (!startsWith(bytes, [0x20], 3)) return false;
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8], 32)) return false; // documentation
  if (startsWith(bytes, [0x3f, 0xff], 20)) return false; // documentation (RFC 9637)
  if (startsWith(bytes, [0x20, 0x01, 0x00], 23)) return false; // IETF protocol assignments, Teredo
  if (startsWith(bytes, [0x20, 0x02], 16)) return false; // 6to4
  return true;
}

/**
 * Whether a push message may be sent to this address: a public unicast IPv4 or IPv6 address (see the
 * file comment for what is refused). Anything that is not an IP address is refused.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const kind = isIP(text.replace(/%.*$/, ''));
  if (kind === 4) return v4Allowed(v4Number(text)!);
  if (kind === 6) {
    const bytes = ipv6Bytes(text);
    return bytes !== null && v6Allowed(bytes);
  }
  return false;
}

/** Whether the address is the machine itself: 127.0.0.0/8 or ::1 (the test push service listens there). */
export function isLoopbackAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const kind = isIP(text);
  if (kind === 4) return text.startsWith('127.');
  if (kind === 6) {
    const bytes = ipv6Bytes(text);
    return bytes !== null && bytes.every((b, i) => b === (i === 15 ? 1 : 0));
  }
  return false;
}
