/**
 * What a browser's push subscription must look like before it is stored (PUSH-01). The endpoint is a
 * URL the server will POST to later, so it is checked like any outgoing request target: HTTPS only, no
 * credentials, and in production no loopback or private address literals. Outside production, plain
 * HTTP to a loopback address is allowed, so tests can run a local push service.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

const base64url = /^[A-Za-z0-9_-]+={0,2}$|^[A-Za-z0-9+/]+={0,2}$/;

function decodedLength(value: string): number {
  return Buffer.from(value.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'), 'base64url').length;
}

/** Body of `POST /api/user.php?push=1`: the browser's `PushSubscription.toJSON()`. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().min(10).max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // The client's P-256 public key: 65 bytes, uncompressed (0x04 …).
    p256dh: z
      .string()
      .max(120)
      .regex(base64url)
      .refine((v) => decodedLength(v) === 65 && Buffer.from(v.replace(/=+$/, ''), 'base64url')[0] === 4, 'p256dh must be a 65-byte P-256 point'),
    // The 16-byte authentication secret.
    auth: z
      .string()
      .max(40)
      .regex(base64url)
      .refine((v) => decodedLength(v) === 16, 'auth must be 16 bytes'),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** Body of `DELETE /api/user.php?push=1`: which subscription to end (all of the member's when omitted). */
export const pushUnsubscribeSchema = z.object({ endpoint: z.string().min(10).max(1000).optional() });

export interface EndpointPolicy {
  /** Allow `http://` to loopback hosts (tests and development). */
  allowLoopbackHttp: boolean;
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

function isPrivateLiteral(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(h)) return true;
  const kind = isIP(h);
  if (kind === 4) return /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.)/.test(h);
  if (kind === 6) return /^(fc|fd|fe80:|::$|::ffff:)/.test(h);
  return false;
}

/** Why an endpoint is refused, or null when it may be stored and sent to. */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): 'invalid_url' | 'not_https' | 'private_address' | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'invalid_url';
  }
  if (url.username || url.password || url.hash) return 'invalid_url';
  if (url.protocol === 'http:') return policy.allowLoopbackHttp && isLoopback(url.hostname) ? null : 'not_https';
  if (url.protocol !== 'https:') return 'not_https';
  if (!policy.allowLoopbackHttp && isPrivateLiteral(url.hostname)) return 'private_address';
  return null;
}
