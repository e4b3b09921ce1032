/**
 * LOOK-02: screenshot baselines of the main screens — the landing page, the search, a profile, the chats
 * list, a chat with messages, likes, credits and transactions — at 360 × 780 (a phone) and 1280 × 860,
 * light and dark, in Dutch and English: 64 pictures in tests/e2e/screens.spec.ts-snapshots/.
 *
 * Deterministic (docs/decisions/080-screenshot-baselines.md):
 * - the spec starts a server of its own (own-server.ts): a fresh in-memory database with the demo seed,
 *   which is the same on every run (seeded PRNG, dates relative to the start), so what the shared
 *   server's other specs did (likes, chats, purchases) never shows; the conversation is written here;
 * - text that changes with the clock is hidden: every <time> element, [data-time] and timers by the
 *   test stylesheet (screens.css, playwright.config.ts), the payment dates by a mask;
 * - animations and transitions are stopped, the caret hidden, one device pixel per CSS pixel, a fixed
 *   time zone and locale; a picture is taken when the fonts and the images in view have loaded and
 *   the main thread has settled;
 * - a difference of up to 1 % of the pixels passes (playwright.config.ts).
 *
 * Regenerate the baselines after a deliberate change of the screens: `npm run screens:update`.
 */
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { startOwnServer, type OwnServer } from './own-server';
import { settled } from './settled';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';
const LANGS = ['nl', 'en'] as const;
const SCREENS = [
  { name: '360', options: { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true } },
  { name: '1280', options: { viewport: { width: 1280, height: 860 } } },
] as const;
const SCHEMES = ['light', 'dark'] as const;

let server: OwnServer;
let state: Awaited<ReturnType<BrowserContext['storageState']>>;
let freeId: number;
/** The member whose profile is shot: the first card of the premium member's search (the same every run). */
let profileId: number;

test.beforeAll(async ({ playwright }) => {
  // Starting and seeding a server takes seconds, or a minute or two on a busy machine.
  test.setTimeout(180_000);
  server = await startOwnServer();
  const premium = await playwright.request.newContext({ baseURL: server.baseURL });
  const free = await playwright.request.newContext({ baseURL: server.baseURL });
  const login = async (api: typeof premium, email: string) => {
    const res = await api.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
    expect(res.status(), `sign-in as ${email}`).toBe(200);
    return ((await res.json()) as { id: number }).id;
  };
  const premiumId = await login(premium, 'premium@demo.test');
  freeId = await login(free, 'free@demo.test');
  // A conversation with messages both ways, written one after the other (the order is the picture).
  const lines: Array<[typeof premium, number, string]> = [
    [premium, freeId, 'Hoi! Ik zag je profiel en je foto bij de zee. Waar was dat?'],
    [free, premiumId, 'Hee! Dat was in Scheveningen, vorige zomer. Leuk dat je schrijft!'],
    [premium, freeId, 'Mooi! Zin om een keer een koffie te drinken aan het strand?'],
  ];
  for (const [api, to, body] of lines) {
    const res = await api.post('/api/chat.php', { headers: XHR, data: { to, client_id: crypto.randomUUID(), body } });
    expect(res.status(), `message to ${to}`).toBeLessThan(300);
  }
  const listed = (await (await premium.get('/api/members.php', { headers: XHR })).json()) as { cards?: Array<{ id: number }> };
  profileId = listed.cards?.[0]?.id ?? 0;
  expect(profileId, 'a member in the search').toBeGreaterThan(0);
  state = await premium.storageState();
  await premium.dispose();
  await free.dispose();
});

test.afterAll(async () => {
  await server?.stop();
});

async function newContext(browser: Browser, lang: string, options: object, loggedIn: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...options,
    baseURL: server.baseURL,
    deviceScaleFactor: 1,
    colorScheme: 'light',
    locale: lang === 'nl' ? 'nl-NL' : 'en-GB',
    timezoneId: 'Europe/Amsterdam',
    // Playwright hides the clock's text with a <style> element of its own (stylePath): the site's policy
    // refuses inline styles, so it is lifted for these pictures (page-types.spec.ts checks the policy).
    bypassCSP: true,
    storageState: loggedIn ? state : undefined,
  });
  await context.addCookies([
    { name: 'lang', value: lang, url: server.baseURL },
    { name: 'entry_ok', value: '1', url: server.baseURL },
  ]);
  return context;
}

/** Waits until the page looks as it will stay: loaded, fonts and the images in view decoded, main thread idle. */
async function ready(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    const inView = [...document.images].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.width > 0 && r.bottom > 0 && r.top < innerHeight;
    });
    await Promise.all(inView.map((img) => img.decode().catch(() => undefined)));
  });
  await settled(page);
}

/** Shoots the page in both colour schemes as `<name>-<lang>-<width>-<scheme>.png`. */
async function shoot(page: Page, name: string, lang: string, width: string, mask: Locator[] = []): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await settled(page);
    await expect.soft(page, `${name} (${lang}, ${width} px, ${scheme})`).toHaveScreenshot(`${name}-${lang}-${width}-${scheme}.png`, { mask });
  }
}

for (const lang of LANGS) {
  for (const screen of SCREENS) {
    test(`LOOK-02 the main screens look as their baselines (${lang}, ${screen.name} px, light and dark)`, async ({ browser }) => {
      test.setTimeout(90_000);
      const visitor = await newContext(browser, lang, screen.options, false);
      const landing = await visitor.newPage();
      await landing.goto('/');
      await ready(landing);
      await shoot(landing, 'landing', lang, screen.name);
      await visitor.close();

      const context = await newContext(browser, lang, screen.options, true);
      const page = await context.newPage();
      const screens: Array<{ name: string; path: string; mask?: (page: Page) => Locator[] }> = [
        { name: 'search', path: '/members' },
        { name: 'profile', path: `/members/${profileId}` },
        { name: 'chats', path: '/chats' },
        { name: 'chat', path: `/members/${freeId}/chat` },
        { name: 'likes', path: '/likes' },
        { name: 'credits', path: '/credits' },
        // The date of each payment is the day the demo was seeded.
        { name: 'transactions', path: '/transactions', mask: (p) => [p.locator('a[href^="/transactions/"]')] },
      ];
      for (const s of screens) {
        const res = await page.goto(s.path);
        expect(res?.status(), s.path).toBe(200);
        await ready(page);
        await shoot(page, s.name, lang, screen.name, s.mask?.(page));
      }
      await context.close();
    });
  }
}
