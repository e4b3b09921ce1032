/**
 * What a browser's push subscription must look like before it is stored (PUSH-01, SEC-06). The endpoint
 * is a URL the server will POST to later, so it must be an HTTPS URL of a known browser push service
 * (`PUSH_SERVICE_HOSTS`), without credentials; where its name resolves is checked at send time.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Config } from '../config';
import { isLoopbackAddress, isPublicAddress } from './addresses';
import { isPushServiceHost } from '../config/push-service-hosts';

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

/**
 * Where push messages may go. In production only HTTPS URLs on the default port of a listed push
 * service host; `allowLoopbackHttp` adds plain `http://` to a loopback address literal (127.0.0.0/8,
 * [::1]) for the local push service the tests run (src/server/push/test-push-service.ts). The app turns
 * that on only when NODE_ENV is `test` ({@link pushEndpointPolicy}); docs/decisions/024-push-endpoints.md.
 */
export interface EndpointPolicy {
  /** Host names and `*.suffix` entries of the push services (`PUSH_SERVICE_HOSTS`). */
  serviceHosts: readonly string[];
  /** Test only: allow `http://127.x.x.x:port/…` and `http://[::1]:port/…`. */
  allowLoopbackHttp: boolean;
}

/** The app's endpoint policy from its configuration: the configured hosts; loopback HTTP only under NODE_ENV=test. */
export function pushEndpointPolicy(config: Pick<Config, 'pushServiceHosts' | 'NODE_ENV'>): EndpointPolicy {
  return { serviceHosts: config.pushServiceHosts, allowLoopbackHttp: config.NODE_ENV === 'test' };
}

export type EndpointProblem = 'invalid_url' | 'not_https' | 'private_address' | 'unknown_push_service';

/**
 * Why an endpoint is refused, or null when it may be stored and sent to. Only the form of the URL is
 * checked here; where its host name leads is checked when a message is sent (src/server/push/transport.ts).
 */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): EndpointProblem | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'invalid_url';
  }
  if (url.username || url.password || url.hash) return 'invalid_url';
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:') return policy.allowLoopbackHttp && isIP(literal) !== 0 && isLoopbackAddress(literal) ? null : 'not_https';
  if (url.protocol !== 'https:') return 'not_https';
  if (isIP(literal) !== 0) return isPublicAddress(literal) ? 'unknown_push_service' : 'private_address';
  // Push services answer on 443; a URL naming another port is not one of theirs.
  if (url.port !== '') return 'unknown_push_service';
  return isPushServiceHost(url.hostname, policy.serviceHosts) ? null : 'unknown_push_service';
}
