/**
 * LOOK-01: no serious or critical accessibility violation (axe-core, WCAG 2.0 A/AA and 2.1 AA) on any
 * page type, for a visitor (in Dutch and English), a free member (Dutch), a premium member (English) and
 * staff (an admin, Dutch), and the member pages once more in dark mode on a phone. A failure lists every
 * violation with its rule, the page and the nodes (tests/e2e/axe.ts).
 *
 * Run time is kept small: one browser context and one tab per test, the logins made once through the
 * API (beforeAll) and reused as storage state; each page is checked once it has loaded and its main
 * thread has settled (islands that hydrate on load have hydrated).
 */
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LANDER_PATHS, STATIC_PATHS } from '../../src/server/web/seo';
import { axeViolations, withAxe } from './axe';
import { startOwnServer, type OwnServer } from './own-server';
import { settled } from './settled';
import { staffLogin } from './staff-login';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';
const LANGS = ['nl', 'en'] as const;
type Lang = (typeof LANGS)[number];
type State = Awaited<ReturnType<APIRequestContext['storageState']>>;

/**
 * The spec's own server (own-server.ts): the demo accounts write to each other here, which on the shared
 * server would change what the chat spec finds (its first message between them, the free member's credits).
 */
let server: OwnServer | undefined;
const base = () => server!.baseURL;
const VIEWPORT = { width: 1280, height: 900 };

interface Member {
  id: number;
  state: State;
}

async function signIn(request: APIRequestContext, email: string): Promise<number> {
  const res = await request.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
  expect(res.status(), `sign-in as ${email}`).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

/** Sends a chat message; the answer's status (a free member may be out of credits). */
async function send(request: APIRequestContext, to: number, body: string): Promise<number> {
  return (await request.post('/api/chat.php', { headers: XHR, data: { to, client_id: crypto.randomUUID(), body } })).status();
}

const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

async function newContext(browser: Browser, lang: Lang, options: { state?: State; dark?: boolean; phone?: boolean } = {}): Promise<BrowserContext> {
  const screen = options.phone ? PHONE : { viewport: VIEWPORT };
  const context = await browser.newContext({ baseURL: base(), ...screen, colorScheme: options.dark ? 'dark' : 'light', storageState: options.state });
  await context.addCookies([
    { name: 'lang', value: lang, url: base() },
    { name: 'entry_ok', value: '1', url: base() },
  ]);
  await withAxe(context);
  return context;
}

/** Opens every path in one tab, checks its status and runs axe on it; returns every violation found. */
async function checkPages(page: Page, paths: Array<string | { path: string; status: number }>, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of paths) {
    const { path, status } = typeof entry === 'string' ? { path: entry, status: 200 } : entry;
    const res = await page.goto(path);
    expect(res?.status(), `${path} (${label})`).toBe(status);
    await settled(page);
    found.push(...(await axeViolations(page, `${path} (${label})`)));
  }
  return found;
}

test.describe('LOOK-01 accessibility (axe)', () => {
  let free: Member;
  let premium: Member;
  /** A member of site 1 who is neither demo account (their profile and landing pages). */
  let someone: number;

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(180_000);
    server = await startOwnServer();
    const freeApi = await playwright.request.newContext({ baseURL: base() });
    const premiumApi = await playwright.request.newContext({ baseURL: base() });
    const freeId = await signIn(freeApi, 'free@demo.test');
    const premiumId = await signIn(premiumApi, 'premium@demo.test');
    // A conversation with messages both ways, so the chat pages have something to show. After a failed
    // test Playwright starts a new worker and this runs again: by then the free member may be out of
    // credits for the reply, which the conversation no longer needs.
    expect(await send(premiumApi, freeId, 'Hoi! Hoe gaat het?'), 'the premium member writes').toBeLessThan(300);
    await send(freeApi, premiumId, 'Goed, en met jou?');
    const listed = (await (await freeApi.get('/api/members.php', { headers: XHR })).json()) as { cards?: Array<{ id: number }> };
    someone = listed.cards?.find((c) => c.id !== freeId && c.id !== premiumId)?.id ?? 0;
    expect(someone, 'a listed member').toBeGreaterThan(0);
    free = { id: freeId, state: await freeApi.storageState() };
    premium = { id: premiumId, state: await premiumApi.storageState() };
    await freeApi.dispose();
    await premiumApi.dispose();
  });

  test.afterAll(async () => {
    await server?.stop();
    server = undefined;
  });

  const visitorPages = () => [
    '/',
    ...LANDER_PATHS,
    `/members/${someone}/landing`,
    `/members/${someone}/landing2`,
    `/members/${someone}/landing3`,
    ...STATIC_PATHS,
    '/signup',
    '/login',
    { path: '/this/page/does-not-exist', status: 404 },
  ];

  /** The member's screens; `other` is the member the chat is with. */
  const memberPages = (other: number) => [
    '/members',
    `/members/${someone}`,
    '/profile',
    '/likes',
    '/chats',
    `/members/${other}/chat`,
    '/credits',
    '/transactions',
    '/premium',
    '/settings',
    '/verify',
    '/swipe-game',
    '/match-finder',
  ];

  for (const lang of LANGS) {
    test(`LOOK-01 every visitor page type has no serious or critical axe violation (${lang})`, async ({ browser }) => {
      // Each sweep opens every page type in turn; it took 60–100 s a language and 150 s on a slower day
      // of the same two-core machine (2026-11-27, when every CI step took 1.6–2.5 times as long).
      test.setTimeout(300_000);
      const context = await newContext(browser, lang);
      const found = await checkPages(await context.newPage(), visitorPages(), `visitor, ${lang}`);
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  }

  // The member pages once per member state, each state in one language (free in Dutch, premium in
  // English): the markup a page's state changes is checked, and each language's texts fill every
  // member page once. (Every state in every language took a minute more of CI's 15.)
  for (const [state, lang] of [
    ['free', 'nl'],
    ['premium', 'en'],
  ] as const) {
    test(`LOOK-01 every member page type has no serious or critical axe violation, ${state} member (${lang})`, async ({ browser }) => {
      // The visitor sweep's allowance (one page more since /verify, VER-01).
      test.setTimeout(300_000);
      const [member, other] = state === 'free' ? [free, premium] : [premium, free];
      const context = await newContext(browser, lang, { state: member.state });
      const found = await checkPages(await context.newPage(), memberPages(other.id), `${state} member, ${lang}`);
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  }

  // The back office once, in Dutch.
  for (const lang of ['nl'] as const) {
    test(`LOOK-01 the back office has no serious or critical axe violation, admin (${lang})`, async ({ browser }) => {
      test.setTimeout(90_000);
      // The staff login form is filled in by its English labels; the language changes after it.
      const context = await newContext(browser, 'en');
      const page = await context.newPage();
      await page.goto('/admin/login');
      await staffLogin(page, 'admin@demo.test');
      await page.goto('/admin/members');
      await page.getByLabel('E-mail, name or id').fill('free@demo.test');
      await page.keyboard.press('Enter');
      const member = await page.locator('[data-member-hits] a').first().getAttribute('href');
      expect(member, 'a member found in the back office').toBeTruthy();
      await context.addCookies([{ name: 'lang', value: lang, url: base() }]);
      const found = await checkPages(page, ['/admin', '/admin/members', member!, '/admin/photos', '/admin/verifications', '/admin/operator', '/admin/complaints'], `admin, ${lang}`);
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  }

  // The checker itself: a page with known faults, in the main document and in a frame, is reported, so a
  // sweep that passes has been checked.
  test('LOOK-01 the check reports the faults of a page with them, in a frame too', async ({ browser }) => {
    const context = await browser.newContext();
    await withAxe(context);
    const html = (body: string) => `<!doctype html><html lang="en"><title>Faults</title><body><main>${body}</main></body></html>`;
    await context.route('http://faults.test/frame', (route) => route.fulfill({ contentType: 'text/html', body: html('<input type="text">') }));
    await context.route('http://faults.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: html('<img src="/x.png"><button></button><p style="color:#777;background:#888">Hoi</p><iframe title="Frame" src="/frame"></iframe>') }),
    );
    const page = await context.newPage();
    await page.goto('http://faults.test/');
    const found = await axeViolations(page, 'faults');
    await context.close();
    expect(found.map((line) => line.split(' ')[2]).sort()).toEqual(['button-name', 'color-contrast', 'image-alt', 'label']);
    expect(found.find((line) => line.includes(' label '))).toContain('iframe input');
  });

  // Dark mode once, on a phone: the phone layout (icon-only navigation, stacked tables) gets its turn too.
  test('LOOK-01 every member page type has no serious or critical axe violation in dark mode on a phone (nl)', async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await newContext(browser, 'nl', { state: free.state, dark: true, phone: true });
    const found = await checkPages(await context.newPage(), [...memberPages(premium.id), '/pricing'], 'free member, nl, dark, 360 px');
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  });
});
