/**
 * The push part of /api/user.php (a helper of that route: `_`-prefixed files are not routes) (PUSH-01, SPEC §7): `POST ?push=1` registers the browser's
 * subscription for the signed-in member, `DELETE ?push=1` ends it. The endpoint file checks the client
 * request-type header first, as for every state-changing user.php call.
 */
import type { APIContext } from 'astro';
import { ApiError, json, readJson } from '../../server/web/api';
import { pushSubscriptionSchema, pushUnsubscribeSchema } from '../../server/push/subscription';
import type { PushRegisterAnswer, PushUnregisterAnswer } from '../../shared/api/user';

/** Whether a user.php request is a push call (`?push=1`). */
export function isPushCall(url: URL): boolean {
  return url.searchParams.has('push');
}

/**
 * `POST /api/user.php?push=1` {endpoint, keys: {p256dh, auth}} → 201 {ok: true}; 400 `validation_failed`
 * for an endpoint on no known push service; 409 `push_endpoint_in_use` for another member's endpoint.
 */
export async function registerPushSubscription({ locals, request }: Pick<APIContext, 'locals' | 'request'>): Promise<Response> {
  if (!locals.user) throw new ApiError('authentication_required');
  const input = await readJson(request, pushSubscriptionSchema);
  const result = await locals.app.push.subscribe(locals.user.id, input);
  // Another member's endpoint stays theirs (SEC-06); the answer does not say whose it is.
  if (result.type === 'error' && result.reason === 'endpoint_in_use') throw new ApiError('push_endpoint_in_use');
  if (result.type === 'error') throw new ApiError('validation_failed', { endpoint: result.reason });
  return json({ ok: true } satisfies PushRegisterAnswer, { status: 201 });
}

/** `DELETE /api/user.php?push=1` {endpoint?} → {ok: true, removed}. Without an endpoint every subscription of the member ends. */
export async function removePushSubscription({ locals, request }: Pick<APIContext, 'locals' | 'request'>): Promise<Response> {
  if (!locals.user) throw new ApiError('authentication_required');
  const { endpoint } = await readJson(request, pushUnsubscribeSchema);
  const removed = await locals.app.push.unsubscribe(locals.user.id, endpoint);
  return json({ ok: true, removed } satisfies PushUnregisterAnswer);
}
