/** The browser's push module against a fake browser (service worker, PushManager, Notification) and a fake API. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { applicationServerKey, type PushEnv, type PushSubscriptionLike } from '../client/push';
import { isPushSubscribed, setPushSubscribed } from '../boot/boot';
import { $push, $pushOffer, $pushSubscribed, initPush, resetPushForTests, subscribePush, unsubscribePush } from './push';

const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const P256DH = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const AUTH = 'tBHItJI5svbpez7KI4CCXg';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

function fakeSubscription(endpoint: string, key?: Uint8Array): PushSubscriptionLike & { unsubscribed: boolean } {
  const sub = {
    endpoint,
    unsubscribed: false,
    options: { applicationServerKey: key ? (key.buffer.slice(0) as ArrayBuffer) : null },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }),
    unsubscribe: async () => {
      sub.unsubscribed = true;
      current = null;
      return true;
    },
  };
  return sub;
}

let current: ReturnType<typeof fakeSubscription> | null;
let sent: Sent[];
let answer: (request: Request) => Response;

function fakeEnv(over: { permission?: NotificationPermission; grant?: NotificationPermission; supported?: Partial<Record<'serviceWorker' | 'push' | 'notification', boolean>> } = {}) {
  const registered: { url: string; scope?: string }[] = [];
  const subscribeCalls: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }[] = [];
  const permissionRequests: number[] = [];
  const notification = {
    permission: over.permission ?? ('default' as NotificationPermission),
    requestPermission: async () => {
      permissionRequests.push(1);
      notification.permission = over.grant ?? 'granted';
      return notification.permission;
    },
  };
  const registration = {
    pushManager: {
      getSubscription: async () => current,
      subscribe: async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }) => {
        subscribeCalls.push(options);
        current = fakeSubscription('https://push.example/send/abc', options.applicationServerKey);
        return current;
      },
    },
  };
  const values = new Map<string, string>();
  const env: PushEnv = {
    serviceWorker:
      over.supported?.serviceWorker === false
        ? undefined
        : {
            register: async (url, options) => {
              registered.push({ url, ...(options?.scope ? { scope: options.scope } : {}) });
              return registration;
            },
            ready: Promise.resolve(registration),
          },
    hasPushManager: over.supported?.push !== false,
    notification: over.supported?.notification === false ? undefined : notification,
    storage: { getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) },
  };
  return { env, registered, subscribeCalls, permissionRequests, notification };
}

beforeEach(() => {
  current = null;
  sent = [];
  answer = () => new Response(JSON.stringify({ ok: true }), { status: 201, headers: { 'content-type': 'application/json' } });
  resetPushForTests();
  $push.set({ status: 'loading', busy: false, error: null });
  installTestApi(async (input) => {
    const request = input as Request;
    const text = await request.clone().text();
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: text ? JSON.parse(text) : null });
    return answer(request);
  });
});
afterEach(() => setApiClient(undefined));

describe('push state', () => {
  it.each([['serviceWorker'], ['push'], ['notification']] as const)('PUSH-01 without %s the browser is not capable', async (missing) => {
    const { env } = fakeEnv({ supported: { [missing]: false } });
    expect(await initPush({}, env)).toBe('unsupported');
    expect($push.get().status).toBe('unsupported');
    expect($pushOffer.get()).toBe(false);
  });

  it('PUSH-01 a capable browser without a subscription registers the service worker and is "not subscribed"', async () => {
    const { env, registered } = fakeEnv();
    setPushSubscribed(true);
    expect(await initPush({ userId: 7 }, env)).toBe('not_subscribed');
    expect(registered).toEqual([{ url: '/sw.js', scope: '/' }]);
    expect($pushOffer.get()).toBe(true);
    expect($pushSubscribed.get()).toBe(false);
    expect(isPushSubscribed()).toBe(false);
  });

  it('PUSH-01 blocked notifications are "denied" (and no offer to turn push on)', async () => {
    const { env, registered } = fakeEnv({ permission: 'denied' });
    expect(await initPush({}, env)).toBe('denied');
    expect(registered).toHaveLength(1);
    expect($pushOffer.get()).toBe(false);
  });

  it('PUSH-01 an existing subscription is "subscribed" and registered with the server once per session', async () => {
    const { env } = fakeEnv({ permission: 'granted' });
    current = fakeSubscription('https://push.example/send/old');
    setPushSubscribed(false);
    expect(await initPush({ userId: 7 }, env)).toBe('subscribed');
    expect($pushSubscribed.get()).toBe(true);
    expect(isPushSubscribed()).toBe(true);
    expect(sent.map((s) => `${s.method} ${new URL(s.url).pathname}${new URL(s.url).search}`)).toEqual(['POST /api/user.php?push=1']);
    resetPushForTests();
    await initPush({ userId: 7 }, env);
    expect(sent).toHaveLength(1);
    // Another member signing in on this browser takes the subscription over.
    resetPushForTests();
    await initPush({ userId: 8 }, env);
    expect(sent).toHaveLength(2);
  });
});

it('PUSH-01 the alerts and the settings block asking at once ask the browser once', async () => {
  const { env, registered } = fakeEnv({ permission: 'granted' });
  current = fakeSubscription('https://push.example/send/both');
  const [a, b] = await Promise.all([initPush({ userId: 7 }, env), initPush({ userId: 7 }, env)]);
  expect([a, b]).toEqual(['subscribed', 'subscribed']);
  expect(registered).toHaveLength(1);
  expect(sent).toHaveLength(1);
});

describe('subscribePush', () => {
  it('PUSH-01 asks permission, subscribes with the VAPID key and registers with POST /api/user.php?push=1 (client header)', async () => {
    const { env, subscribeCalls, permissionRequests } = fakeEnv();
    await initPush({}, env);
    const result = await subscribePush({ publicKey: KEY }, env);
    expect(result).toEqual({ type: 'ok', status: 'subscribed' });
    expect(permissionRequests).toHaveLength(1);
    expect(subscribeCalls).toHaveLength(1);
    expect(subscribeCalls[0]!.userVisibleOnly).toBe(true);
    expect(Buffer.from(subscribeCalls[0]!.applicationServerKey).toString('base64url')).toBe(KEY);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.url).toBe('http://site.test/api/user.php?push=1');
    expect(sent[0]!.headers.get('x-requested-with')).toBe('XMLHttpRequest');
    expect(sent[0]!.body).toEqual({ endpoint: 'https://push.example/send/abc', expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } });
    expect($push.get()).toEqual({ status: 'subscribed', busy: false, error: null });
    // CLI-08: the member refresh slows to 300 s.
    expect(isPushSubscribed()).toBe(true);
  });

  it('PUSH-01 refusing the permission prompt leaves push off ("denied"), nothing is sent', async () => {
    const { env, subscribeCalls } = fakeEnv({ grant: 'denied' });
    await initPush({}, env);
    const result = await subscribePush({ publicKey: KEY }, env);
    expect(result).toMatchObject({ type: 'error', reason: 'permission', status: 'denied' });
    expect(subscribeCalls).toHaveLength(0);
    expect(sent).toHaveLength(0);
  });

  it('PUSH-01 when the server refuses, the browser subscription is ended too', async () => {
    answer = () => new Response(JSON.stringify({ error: 'validation_failed' }), { status: 400, headers: { 'content-type': 'application/json' } });
    const { env } = fakeEnv();
    await initPush({}, env);
    const result = await subscribePush({ publicKey: KEY }, env);
    expect(result).toMatchObject({ type: 'error', reason: 'validation_failed', status: 'not_subscribed' });
    expect(current).toBeNull();
    expect($push.get().error).toBe('validation_failed');
  });

  it('PUSH-01 a subscription made with another key is replaced', async () => {
    const { env, subscribeCalls } = fakeEnv({ permission: 'granted' });
    const old = fakeSubscription('https://push.example/send/old', new Uint8Array(65).fill(4));
    current = old;
    await subscribePush({ publicKey: KEY }, env);
    expect(old.unsubscribed).toBe(true);
    expect(subscribeCalls).toHaveLength(1);
    expect((sent[0]!.body as { endpoint: string }).endpoint).toBe('https://push.example/send/abc');
  });
});

describe('an endpoint registered to another member (SEC-06)', () => {
  const inUseFor = (endpoint: string) => () => {
    const body = sent.at(-1)!.body as { endpoint: string };
    return body.endpoint === endpoint
      ? new Response(JSON.stringify({ error: 'push_endpoint_in_use' }), { status: 409, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ ok: true }), { status: 201, headers: { 'content-type': 'application/json' } });
  };

  it('SEC-06 PUSH-01 turning push on: the browser replaces the subscription with a new one and registers that', async () => {
    const { env, subscribeCalls } = fakeEnv({ permission: 'granted' });
    const key = applicationServerKey(KEY);
    const old = fakeSubscription('https://push.example/send/left-behind', key);
    current = old;
    answer = inUseFor('https://push.example/send/left-behind');
    const result = await subscribePush({ publicKey: KEY }, env);
    expect(result).toEqual({ type: 'ok', status: 'subscribed' });
    expect(old.unsubscribed).toBe(true);
    expect(subscribeCalls).toHaveLength(1);
    expect(sent.map((s) => (s.body as { endpoint: string }).endpoint)).toEqual(['https://push.example/send/left-behind', 'https://push.example/send/abc']);
    expect(current?.endpoint).toBe('https://push.example/send/abc');
  });

  it('SEC-06 PUSH-01 the next page of the member now signed in on that browser does the same', async () => {
    const { env, subscribeCalls } = fakeEnv({ permission: 'granted' });
    current = fakeSubscription('https://push.example/send/left-behind', applicationServerKey(KEY));
    answer = inUseFor('https://push.example/send/left-behind');
    expect(await initPush({ userId: 8 }, env)).toBe('subscribed');
    expect(subscribeCalls).toHaveLength(1);
    expect(sent.map((s) => (s.body as { endpoint: string }).endpoint)).toEqual(['https://push.example/send/left-behind', 'https://push.example/send/abc']);
    // Registered once for this session.
    resetPushForTests();
    await initPush({ userId: 8 }, env);
    expect(sent).toHaveLength(2);
  });

  it('SEC-06 PUSH-01 when no new subscription can be registered either, push is off and the browser keeps none', async () => {
    const { env } = fakeEnv({ permission: 'granted' });
    current = fakeSubscription('https://push.example/send/left-behind', applicationServerKey(KEY));
    answer = () => new Response(JSON.stringify({ error: 'push_endpoint_in_use' }), { status: 409, headers: { 'content-type': 'application/json' } });
    expect(await initPush({ userId: 8 }, env)).toBe('not_subscribed');
    expect(current).toBeNull();
    expect($pushOffer.get()).toBe(true);
  });
});

describe('unsubscribePush', () => {
  it('PUSH-01 ends the subscription on the server (DELETE ?push=1 with its endpoint) and in the browser', async () => {
    answer = () => new Response(JSON.stringify({ ok: true, removed: 1 }), { status: 200, headers: { 'content-type': 'application/json' } });
    const { env } = fakeEnv({ permission: 'granted' });
    const sub = fakeSubscription('https://push.example/send/mine');
    current = sub;
    setPushSubscribed(true);
    const result = await unsubscribePush(env);
    expect(result).toEqual({ type: 'ok', status: 'not_subscribed' });
    expect(sent.map((s) => [s.method, s.url, s.headers.get('x-requested-with'), s.body])).toEqual([
      ['DELETE', 'http://site.test/api/user.php?push=1', 'XMLHttpRequest', { endpoint: 'https://push.example/send/mine' }],
    ]);
    expect(sub.unsubscribed).toBe(true);
    expect(isPushSubscribed()).toBe(false);
  });
});

it('PUSH-01 the VAPID key is decoded from base64url to the 65 bytes the browser expects', () => {
  const bytes = applicationServerKey(KEY);
  expect(bytes).toHaveLength(65);
  expect(bytes[0]).toBe(4);
  expect(Buffer.from(bytes).toString('base64url')).toBe(KEY);
});
