/**
 * Push state of this browser (PUSH-01, SPEC §3 "Push state: isSubscribed", §4 "capable or not;
 * subscribed, not subscribed, denied") and the two server calls behind it. The browser side
 * (service worker, PushManager, permission) lives in src/client/push.ts, which keeps this store current.
 */
import { computed, map } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';

/**
 * - `loading`: not known yet (before the browser was asked);
 * - `unsupported`: no service worker, PushManager or Notification API (not capable);
 * - `denied`: the member blocked notifications for this site;
 * - `subscribed` / `not_subscribed`: capable, with or without a subscription on the server.
 */
export type PushStatus = 'loading' | 'unsupported' | 'denied' | 'subscribed' | 'not_subscribed';

/** Why the last subscribe/unsubscribe did not work. */
export type PushError = FailureReason | 'permission' | 'browser' | 'no_key';

export interface PushState {
  status: PushStatus;
  /** A subscribe or unsubscribe is running. */
  busy: boolean;
  error: PushError | null;
}

export const $push = map<PushState>({ status: 'loading', busy: false, error: null });

/** SPEC §3 `isSubscribed`. */
export const $pushSubscribed = computed($push, (state) => state.status === 'subscribed');

/** The browser can do push (whether or not it is on). */
export const $pushCapable = computed($push, (state) => state.status !== 'loading' && state.status !== 'unsupported');

/** Push could be turned on here: capable, not subscribed, not denied (when the push alert shows, ALR-02). */
export const $pushOffer = computed($push, (state) => state.status === 'not_subscribed');

export type PushCallResult = { type: 'ok' } | { type: 'error'; reason: FailureReason };

/** The subscription as the browser gives it (`PushSubscription.toJSON()`). */
export interface SubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

const XHR = { 'X-Requested-With': 'XMLHttpRequest' } as const;

async function call(run: () => Promise<{ error?: unknown; response: Response }>): Promise<PushCallResult> {
  try {
    const { error, response } = await run();
    if (response.ok) return { type: 'ok' };
    return { type: 'error', reason: failureReason(error) };
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return { type: 'error', reason: 'network' };
  }
}

/** `POST /api/user.php?push=1` with the subscription (registers push for the signed-in member). */
export function sendSubscription(subscription: SubscriptionJson): Promise<PushCallResult> {
  return call(() => api.POST('/api/user.php?push=1', { params: { header: XHR }, body: subscription }));
}

/** `DELETE /api/user.php?push=1` for one endpoint (or every subscription of the member). */
export function deleteSubscription(endpoint?: string): Promise<PushCallResult> {
  return call(() => api.DELETE('/api/user.php?push=1', { params: { header: XHR }, body: endpoint ? { endpoint } : {} }));
}
