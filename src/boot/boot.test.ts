import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $counters } from '../stores/counters';
import { $user, type User } from '../stores/user';
import { createApiClient, setApiClient } from '../client/api';
import { readBootData, registerRefreshTask, startClient, type BootEnv } from './boot';

const user: User = {
  id: 7,
  email: 'anna@example.test',
  status: 'active',
  credits: 3,
  paid_user: false,
  signup_date: '2024-01-01T00:00:00.000Z',
  fictional_icon: false,
  language: 'nl',
  invisible: false,
  notifications_disabled: [],
  profile: { id: 7, name: 'Anna', country: 'NL', status: 'active', main_image: null },
};

function fakeTarget() {
  const listeners = new Map<string, ((event: Event) => void)[]>();
  return {
    addEventListener: (type: string, listener: (event: Event) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    removeEventListener: (type: string, listener: (event: Event) => void) =>
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((l) => l !== listener),
      ),
    fire(type: string, event: object = {}) {
      for (const listener of listeners.get(type) ?? []) listener(event as Event);
    },
  };
}

function fakeEnv() {
  const location = { href: 'http://site.test/members', origin: 'http://site.test', pathname: '/members', search: '' };
  const win = Object.assign(fakeTarget(), { location, navigator: { onLine: true } });
  const banner = { hidden: true, style: { setProperty: () => undefined }, setAttribute: () => undefined };
  const bar = { hidden: true, style: { setProperty: () => undefined }, setAttribute: () => undefined };
  const doc = Object.assign(fakeTarget(), {
    title: 'Leden',
    visibilityState: 'visible' as DocumentVisibilityState,
    getElementById: (id: string) => (id === 'offline-banner' ? banner : id === 'loading-bar' ? bar : null),
  });
  const badge: number[] = [];
  const env: BootEnv = {
    window: win,
    document: doc,
    navigator: { setAppBadge: async (n) => void badge.push(n ?? 0), clearAppBadge: async () => void badge.push(0) },
    location,
    storage: null,
    clock: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
    now: () => Date.now(),
    reload: vi.fn(),
  };
  return { env, win, doc, banner, bar, badge };
}

let userCalls = 0;
let likesCalls = 0;
let chatsCalls = 0;
/** What GET /api/likes.php answers: three likes received, two of them new. */
const likes = {
  type: 'received',
  profiles: [],
  next: null,
  liked_by: [
    { id: 7, like_new: true },
    { id: 8, like_new: false },
    { id: 9, like_new: true },
  ],
};
beforeEach(() => {
  vi.useFakeTimers();
  userCalls = 0;
  likesCalls = 0;
  chatsCalls = 0;
  $counters.set({ unreadMessages: 0, newLikes: 0 });
  setApiClient(
    createApiClient({
      baseUrl: 'http://site.test',
      onAuthenticationRequired: () => undefined,
      fetch: async (input) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('/api/likes.php')) {
          likesCalls++;
          return new Response(JSON.stringify(likes), { headers: { 'content-type': 'application/json' } });
        }
        if (url.includes('/api/chats.php')) {
          chatsCalls++;
          return new Response(JSON.stringify({ chats: [], unread_total: 4 }), { headers: { 'content-type': 'application/json' } });
        }
        userCalls++;
        return new Response(JSON.stringify(user), { headers: { 'content-type': 'application/json' } });
      },
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  setApiClient(undefined);
});

describe('startClient', () => {
  it('CLI-08 for a member, reloads the user and registered tasks 5 s after boot, then every 60 s', async () => {
    const { env } = fakeEnv();
    const chats = vi.fn(async () => undefined);
    const unregister = registerRefreshTask(chats);
    const stop = startClient({ user, lang: 'nl', title: 'Leden' }, env);
    expect($user.get()).toEqual(user);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(userCalls).toBe(1);
    expect(chats).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(userCalls).toBe(2);
    expect(likesCalls).toBe(2);
    expect(chatsCalls).toBe(2);
    stop();
    unregister();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(userCalls).toBe(2);
  });

  it('NAV-06 CLI-09 CLI-08 the new-likes count starts from the page and follows the periodic likes reload', async () => {
    const { env } = fakeEnv();
    const stop = startClient({ user, lang: 'nl', title: 'Leden', newLikes: 5 }, env);
    expect($counters.get().newLikes).toBe(5);
    expect(env.document.title).toBe('(5) Leden');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(likesCalls).toBe(1);
    expect($counters.get().newLikes).toBe(2);
    // The chats reload of the same run brings 4 unread messages: the title counts both (NAV-06).
    expect(chatsCalls).toBe(1);
    expect(env.document.title).toBe('(6) Leden');
    stop();
  });

  it('CLI-08 a visitor gets no periodic refresh', async () => {
    const { env } = fakeEnv();
    const stop = startClient({ user: null, lang: 'nl', title: 'Home' }, env);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(userCalls).toBe(0);
    stop();
  });

  it('NAV-06 CLI-09 CLI-07 binds title, app badge and offline banner', () => {
    const { env, doc, badge, banner, win } = fakeEnv();
    const stop = startClient({ user, lang: 'nl', title: 'Leden' }, env);
    $counters.set({ unreadMessages: 2, newLikes: 1 });
    expect(doc.title).toBe('(3) Leden');
    expect(badge.at(-1)).toBe(3);
    win.navigator.onLine = false;
    win.fire('offline');
    expect(banner.hidden).toBe(false);
    stop();
  });
});

describe('readBootData', () => {
  it('CLI-08 reads the boot JSON and falls back to a visitor when it is missing or broken', () => {
    const json = JSON.stringify({ user, lang: 'de', title: 'Leden', pushSubscribed: true });
    const doc = (text: string | null) => ({ title: 'T', documentElement: { lang: 'nl' }, getElementById: () => (text === null ? null : ({ textContent: text } as HTMLElement)) });
    expect(readBootData(doc(json))).toEqual({ user, lang: 'de', title: 'Leden', pushSubscribed: true });
    expect(readBootData(doc(null))).toEqual({ user: null, lang: 'nl', title: 'T' });
    expect(readBootData(doc('{oops'))).toEqual({ user: null, lang: 'nl', title: 'T' });
  });
});
