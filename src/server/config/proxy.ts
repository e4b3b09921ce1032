/**
 * What a request says about its client once the proxies in front are accounted for (SEC-01;
 * docs/decisions/012-proxy-trust.md): the client's address and whether the browser spoke HTTPS.
 *
 * Without TRUST_PROXY nothing a client sends is believed: the address is the socket's peer and HTTPS
 * means a TLS socket. With TRUST_PROXY the proxy's own hop decides. Every proxy appends the address it
 * was connected from to X-Forwarded-For, so only the right end of the list is written by proxies we
 * trust; anything to the left of that may come from the client itself. The client is therefore the
 * right-most address that is not one of our proxies, never the left-most entry.
 */
import { BlockList, isIP } from 'node:net';

/** TRUSTED_PROXIES: a number of hops, or a list of proxy addresses and ranges. */
export type TrustedProxies = { kind: 'hops'; hops: number } | { kind: 'list'; list: BlockList; text: string };

/** Parses TRUSTED_PROXIES (`1`, `2`, or `10.0.0.0/8, 192.0.2.7, ::1`); null when it is neither. */
export function parseTrustedProxies(value: string): TrustedProxies | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? { kind: 'hops', hops } : null;
  }
  const list = new BlockList();
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  for (const part of parts) {
    const [address, prefix] = part.split('/') as [string, string | undefined];
    const family = isIP(address);
    if (family === 0) return null;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else {
      if (!/^\d+$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return null;
      list.addSubnet(address, Number(prefix), type);
    }
  }
  return { kind: 'list', list, text };
}

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) → `192.0.2.1`; other text trimmed, or null. */
export function normaliseAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  const a = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  const plain = mapped ? mapped[1]! : a;
  return isIP(plain) ? plain : null;
}

function isTrusted(address: string, proxies: Extract<TrustedProxies, { kind: 'list' }>): boolean {
  const family = isIP(address);
  return family !== 0 && proxies.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function headerList(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export interface RequestEdge {
  /** The client's address (a valid IP), or null when the socket has none. */
  clientIp: string | null;
  /** The browser's connection was HTTPS (a TLS socket, or a trusted proxy said so). */
  secure: boolean;
  /** A trusted proxy sent this request (forwarded headers were read). */
  viaProxy: boolean;
}

/**
 * The client address and scheme of a request.
 * @param headers the request headers (X-Forwarded-For, X-Forwarded-Proto)
 * @param peer the socket's remote address (the proxy, when there is one)
 * @param tlsSocket the socket itself is TLS
 * @param proxies the parsed TRUSTED_PROXIES, or null when TRUST_PROXY is off
 */
export function requestEdge(headers: Headers, peer: string | null | undefined, tlsSocket: boolean, proxies: TrustedProxies | null): RequestEdge {
  const socketIp = normaliseAddress(peer);
  if (!proxies || !socketIp) return { clientIp: socketIp, secure: tlsSocket, viaProxy: false };
  if (proxies.kind === 'list' && !isTrusted(socketIp, proxies)) return { clientIp: socketIp, secure: tlsSocket, viaProxy: false };

  // Hops from the nearest: the socket's peer, then X-Forwarded-For from the right.
  const forwarded = headerList(headers.get('x-forwarded-for')).map(normaliseAddress);
  const hops = [socketIp, ...forwarded.reverse()];
  let index: number;
  if (proxies.kind === 'hops') {
    index = Math.min(proxies.hops, hops.length - 1);
  } else {
    index = 0;
    while (index < hops.length - 1 && hops[index] && isTrusted(hops[index]!, proxies)) index++;
  }
  // An entry that is not an address (garbage the client put there) ends the chain: the last good hop is kept.
  let clientIp: string | null = null;
  for (let i = index; i >= 0 && !clientIp; i--) clientIp = hops[i] ?? null;

  // X-Forwarded-Proto lines up with the hops the same way: the trusted proxy's entry is the right-most
  // of the ones it and the proxies behind it wrote.
  const protos = headerList(headers.get('x-forwarded-proto')).map((p) => p.toLowerCase());
  const trustedProxyHops = proxies.kind === 'hops' ? proxies.hops : Math.max(index, 1);
  const proto = protos.length > 0 ? protos[Math.max(0, protos.length - trustedProxyHops)] : undefined;
  return { clientIp, secure: tlsSocket || proto === 'https', viaProxy: true };
}
