/**
 * Push state of this browser (PUSH-01, SPEC §3 "Push state: isSubscribed", §4 "capable or not;
 * subscribed, not subscribed, denied"), the two server calls behind it and the actions: work out the
 * state (registering the service worker, `/sw.js`), subscribe with the site's VAPID key and register the
 * subscription with `POST /api/user.php?push=1`, unsubscribe. The browser pieces (service worker,
 * PushManager, permission) come through src/client/push.ts. A subscription switches the member refresh
 * to every 300 s (CLI-08, `setPushSubscribed`).
 *
 * Every action takes a {@link PushEnv} (the browser's by default) so tests can pass a fake browser.
 */
import { computed, map } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import {
  applicationServerKey,
  browserPushEnv,
  isPushCapable,
  registerServiceWorker,
  resetServiceWorkerRegistration,
  sameKey,
  subscriptionJson,
  type PushEnv,
  type PushSubscriptionLike,
  type RegistrationLike,
  type SubscriptionJson,
} from '../client/push';
import { setPushSubscribed } from './refresh';
import { $settings, loadSettings } from './settings';

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

/** Push could be turned on here: capable, not subscribed, not denied (when the push alert shows, ALR-02). */
export const $pushOffer = computed($push, (state) => state.status === 'not_subscribed');

export type PushCallResult = { type: 'ok' } | { type: 'error'; reason: FailureReason };

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

function setStatus(status: PushStatus, error: PushError | null = null): PushStatus {
  $push.set({ status, busy: false, error });
  setPushSubscribed(status === 'subscribed');
  return status;
}

const SYNC_KEY = 'push-registered';

let initializing: Promise<PushStatus> | null = null;

/** Forgets the page's registration and detection (tests start each case fresh). */
export function resetPushForTests(): void {
  resetServiceWorkerRegistration();
  initializing = null;
}

/**
 * Registers the service worker and works out the push state of this browser for a signed-in member.
 * A subscription the browser already has is registered with the server again once per browser
 * session (`userId` tells whose session it is), so it follows the member signed in on this browser.
 */
export function initPush(options: { userId?: number } = {}, env: PushEnv = browserPushEnv()): Promise<PushStatus> {
  // The alerts and the settings island both ask on one page: the browser is asked once.
  initializing ??= detectPush(options, env);
  return initializing;
}

async function detectPush(options: { userId?: number }, env: PushEnv): Promise<PushStatus> {
  if (!isPushCapable(env)) return setStatus('unsupported');
  let registration: RegistrationLike;
  try {
    registration = await registerServiceWorker(env);
  } catch {
    return setStatus('unsupported');
  }
  if (env.notification!.permission === 'denied') return setStatus('denied');
  let subscription: PushSubscriptionLike | null;
  try {
    subscription = await registration.pushManager.getSubscription();
  } catch {
    subscription = null;
  }
  if (!subscription || env.notification!.permission !== 'granted') return setStatus('not_subscribed');
  const marker = `${options.userId ?? ''}|${subscription.endpoint}`;
  if (env.storage?.getItem(SYNC_KEY) !== marker) {
    const key = subscription.options?.applicationServerKey ? new Uint8Array(subscription.options.applicationServerKey) : null;
    const registered = await register(registration, subscription, key);
    if (registered.type === 'ok') env.storage?.setItem(SYNC_KEY, `${options.userId ?? ''}|${registered.subscription.endpoint}`);
    // The endpoint stays another member's, or the browser's subscription had to go: push is off here.
    if (registered.type === 'error' && (registered.reason === 'push_endpoint_in_use' || !(await registration.pushManager.getSubscription().catch(() => null)))) {
      return setStatus('not_subscribed');
    }
  }
  return setStatus('subscribed');
}

type Registered = { type: 'ok'; subscription: PushSubscriptionLike } | { type: 'error'; reason: PushError };

/**
 * Registers the browser's subscription with the server. An endpoint never moves between members (SEC-06):
 * when the server answers that it is another member's (this browser was signed in as someone else, who
 * left without turning push off), the browser's subscription is replaced by a new one, with a new
 * endpoint, and that is registered for this member. The old endpoint then stops working for the other
 * member, whose browser this no longer is.
 */
async function register(registration: RegistrationLike, subscription: PushSubscriptionLike, serverKey: Uint8Array<ArrayBuffer> | null): Promise<Registered> {
  const json = subscriptionJson(subscription);
  if (!json) return { type: 'error', reason: 'browser' };
  const sent = await sendSubscription(json);
  if (sent.type === 'ok') return { type: 'ok', subscription };
  if (sent.reason !== 'push_endpoint_in_use') return sent;
  let fresh: PushSubscriptionLike;
  try {
    const key = serverKey ?? (await vapidKey(null).then((k) => (k ? applicationServerKey(k) : null)));
    if (!key) return { type: 'error', reason: 'no_key' };
    await subscription.unsubscribe();
    fresh = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch {
    return { type: 'error', reason: 'push_endpoint_in_use' };
  }
  const freshJson = subscriptionJson(fresh);
  const again = freshJson ? await sendSubscription(freshJson) : ({ type: 'error', reason: 'browser' } as const);
  if (again.type === 'ok') return { type: 'ok', subscription: fresh };
  await fresh.unsubscribe().catch(() => false);
  return again;
}

export type PushActionResult = { type: 'ok'; status: PushStatus } | { type: 'error'; reason: PushError; status: PushStatus };

async function vapidKey(publicKey: string | null | undefined): Promise<string | null> {
  if (publicKey) return publicKey;
  const known = $settings.get()?.push_public_key;
  if (known) return known;
  const loaded = await loadSettings();
  return loaded.type === 'ok' ? loaded.settings.push_public_key : null;
}

/**
 * Turns push on: asks for permission, subscribes with the site's VAPID key (`publicKey`, else the
 * settings' `push_public_key`) and registers the subscription with the server.
 */
export async function subscribePush(options: { publicKey?: string | null } = {}, env: PushEnv = browserPushEnv()): Promise<PushActionResult> {
  if (!isPushCapable(env)) return { type: 'error', reason: 'browser', status: setStatus('unsupported') };
  const before = $push.get().status;
  $push.set({ status: before, busy: true, error: null });
  const fail = (reason: PushError, status: PushStatus = before === 'loading' ? 'not_subscribed' : before): PushActionResult => ({ type: 'error', reason, status: setStatus(status, reason) });
  const key = await vapidKey(options.publicKey);
  if (!key) return fail('no_key');
  const permission = env.notification!.permission === 'granted' ? 'granted' : await env.notification!.requestPermission();
  if (permission === 'denied') return fail('permission', 'denied');
  if (permission !== 'granted') return fail('permission', 'not_subscribed');
  let subscription: PushSubscriptionLike;
  try {
    await registerServiceWorker(env);
    const registration = await env.serviceWorker!.ready;
    const serverKey = applicationServerKey(key);
    const existing = await registration.pushManager.getSubscription();
    // A subscription made with another key (the server's key changed) cannot be used: replace it.
    if (existing && !sameKey(existing.options?.applicationServerKey, serverKey)) await existing.unsubscribe();
    subscription =
      existing && sameKey(existing.options?.applicationServerKey, serverKey) ? existing : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  } catch {
    return fail('browser', 'not_subscribed');
  }
  const registration = await env.serviceWorker!.ready;
  const sent = await register(registration, subscription, applicationServerKey(key));
  if (sent.type === 'error') {
    // Keep browser and server in step: no subscription the server does not know of.
    await (await registration.pushManager.getSubscription().catch(() => null))?.unsubscribe().catch(() => false);
    return fail(sent.reason, 'not_subscribed');
  }
  env.storage?.setItem(SYNC_KEY, '');
  return { type: 'ok', status: setStatus('subscribed') };
}

/** Turns push off for this browser: ends the subscription in the browser and on the server. */
export async function unsubscribePush(env: PushEnv = browserPushEnv()): Promise<PushActionResult> {
  if (!isPushCapable(env)) return { type: 'error', reason: 'browser', status: setStatus('unsupported') };
  const before = $push.get().status;
  $push.set({ status: before, busy: true, error: null });
  let subscription: PushSubscriptionLike | null;
  try {
    const registration = await registerServiceWorker(env);
    subscription = await registration.pushManager.getSubscription();
  } catch {
    subscription = null;
  }
  if (!subscription) return { type: 'ok', status: setStatus(env.notification!.permission === 'denied' ? 'denied' : 'not_subscribed') };
  const removed = await deleteSubscription(subscription.endpoint);
  if (removed.type === 'error') return { type: 'error', reason: removed.reason, status: setStatus(before, removed.reason) };
  await subscription.unsubscribe().catch(() => false);
  env.storage?.setItem(SYNC_KEY, '');
  return { type: 'ok', status: setStatus('not_subscribed') };
}
