/**
 * Web Push in the browser (PUSH-01): registers the service worker (`/sw.js`), works out the push state
 * of this browser into `$push` (unsupported; denied; subscribed / not subscribed), subscribes with the
 * site's VAPID key and registers the subscription with `POST /api/user.php?push=1`, and unsubscribes.
 * A subscription switches the member refresh to every 300 s (CLI-08, `setPushSubscribed`).
 *
 * Every function takes a {@link PushEnv} (the browser's by default) so tests can pass a fake browser.
 */
import { $push, deleteSubscription, sendSubscription, type PushError, type PushStatus, type SubscriptionJson } from '../stores/push';
import { $settings, loadSettings } from '../stores/settings';
import { setPushSubscribed } from './boot';

export const SERVICE_WORKER_URL = '/sw.js';

/** The parts of a PushSubscription used here. */
export interface PushSubscriptionLike {
  endpoint: string;
  options?: { applicationServerKey?: ArrayBuffer | null };
  toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> };
  unsubscribe(): Promise<boolean>;
}

export interface PushManagerLike {
  getSubscription(): Promise<PushSubscriptionLike | null>;
  subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }): Promise<PushSubscriptionLike>;
}

export interface RegistrationLike {
  pushManager: PushManagerLike;
}

export interface PushEnv {
  /** `navigator.serviceWorker`, undefined where there is none. */
  serviceWorker: { register(url: string, options?: { scope?: string }): Promise<RegistrationLike>; ready: Promise<RegistrationLike> } | undefined;
  /** `'PushManager' in window`. */
  hasPushManager: boolean;
  /** The `Notification` API, undefined where there is none. */
  notification: { readonly permission: NotificationPermission; requestPermission(): Promise<NotificationPermission> } | undefined;
  /** `sessionStorage` (remembers that this session re-registered its subscription), or null. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** The real browser for {@link initPush}, {@link subscribePush} and {@link unsubscribePush}. */
export function browserPushEnv(win: Window & typeof globalThis = window): PushEnv {
  let storage: Storage | null = null;
  try {
    storage = win.sessionStorage;
  } catch {
    // Storage blocked: the subscription is simply re-registered on each page.
  }
  const nav = win.navigator as Navigator & { serviceWorker?: ServiceWorkerContainer };
  return {
    serviceWorker: nav.serviceWorker as unknown as PushEnv['serviceWorker'],
    hasPushManager: 'PushManager' in win,
    notification: 'Notification' in win ? (win.Notification as unknown as PushEnv['notification']) : undefined,
    storage,
  };
}

/** A VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return true; // unknown: assume it matches
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** Whether this browser can do Web Push at all. */
export function isPushCapable(env: PushEnv): boolean {
  return env.serviceWorker !== undefined && env.hasPushManager && env.notification !== undefined;
}

function setStatus(status: PushStatus, error: PushError | null = null): PushStatus {
  $push.set({ status, busy: false, error });
  setPushSubscribed(status === 'subscribed');
  return status;
}

function toJson(subscription: PushSubscriptionLike): SubscriptionJson | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!p256dh || !auth) return null;
  return { endpoint: json.endpoint ?? subscription.endpoint, expirationTime: json.expirationTime ?? null, keys: { p256dh, auth } };
}

const SYNC_KEY = 'push-registered';

let registering: Promise<RegistrationLike> | null = null;
let initializing: Promise<PushStatus> | null = null;

/** Registers the service worker once per page (PUSH-01: "a push service worker is registered"). */
export function registerServiceWorker(env: PushEnv): Promise<RegistrationLike> {
  if (!env.serviceWorker) return Promise.reject(new Error('service workers are not supported'));
  registering ??= env.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  return registering;
}

/** Forgets the page's registration promise (tests start each case fresh). */
export function resetPushForTests(): void {
  registering = null;
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
  let subscription: PushSubscriptionLike | null = null;
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
  const json = toJson(subscription);
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
  const freshJson = toJson(fresh);
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
    subscription = existing && sameKey(existing.options?.applicationServerKey, serverKey) ? existing : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
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
  let subscription: PushSubscriptionLike | null = null;
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
