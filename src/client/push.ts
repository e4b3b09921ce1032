/**
 * Web Push's browser glue (PUSH-01): the browser pieces push needs ({@link PushEnv}: service worker,
 * PushManager, Notification, sessionStorage), the service worker's registration (`/sw.js`, once per
 * page), the VAPID key as bytes and a subscription as the JSON the server takes. The push state and its
 * actions (work out the state, subscribe, unsubscribe) live in the `$push` store (src/stores/push.ts).
 *
 * Every function takes a {@link PushEnv} so tests can pass a fake browser.
 */
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
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription's key is `b` (an unknown key counts as the same). */
export function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return true; // unknown: assume it matches
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** Whether this browser can do Web Push at all. */
export function isPushCapable(env: PushEnv): boolean {
  return env.serviceWorker !== undefined && env.hasPushManager && env.notification !== undefined;
}

/** The subscription as the browser gives it (`PushSubscription.toJSON()`). */
export interface SubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** The subscription as the server takes it, or null when the browser gave no keys. */
export function subscriptionJson(subscription: PushSubscriptionLike): SubscriptionJson | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!p256dh || !auth) return null;
  return { endpoint: json.endpoint ?? subscription.endpoint, expirationTime: json.expirationTime ?? null, keys: { p256dh, auth } };
}

let registering: Promise<RegistrationLike> | null = null;

/** Registers the service worker once per page (PUSH-01: "a push service worker is registered"). */
export function registerServiceWorker(env: PushEnv): Promise<RegistrationLike> {
  if (!env.serviceWorker) return Promise.reject(new Error('service workers are not supported'));
  registering ??= env.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  return registering;
}

/** Forgets the page's registration promise (tests start each case fresh). */
export function resetServiceWorkerRegistration(): void {
  registering = null;
}
