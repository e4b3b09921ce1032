/**
 * Every page type in a real browser, as a visitor and as a signed-in member (SEC-10, LAY-01): the page
 * loads, its islands hydrate, and nothing goes wrong on the way: no console error, no uncaught page
 * error (React's hydration mismatches such as #418 are reported as one), no Content-Security-Policy
 * violation. The page lists come from the sitemap's own lists (src/server/web/seo.ts), so a lander or
 * static page added there is covered here without editing this file.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { LANDER_PATHS, STATIC_PATHS } from '../../src/server/web/seo';
import { settled, watchRequests } from './settled';

/** The push service worker of src/client/push.ts (that module is browser code: not imported here). */
const SERVICE_WORKER_URL = '/sw.js';
const FREE = { email: 'free@demo.test', password: 'demo-password-1' };
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const base = () => test.info().project.use.baseURL!;

/**
 * Runs in every page before its own scripts: records CSP violations (`securitypolicyviolation`), uncaught
 * errors, unhandled rejections and `console.error` calls in the page itself. The test reads the list
 * with one evaluate at the end, so nothing depends on when Playwright's own events arrive (an error
 * thrown while an island hydrates can reach `pageerror` only after the page was closed).
 */
const RECORD_PROBLEMS = () => {
  const problems: string[] = [];
  Object.defineProperty(window, '__pageProblems', { value: problems });
  document.addEventListener(
    'securitypolicyviolation',
    (e) => problems.push(`CSP violation of ${e.effectiveDirective}: ${e.blockedURI || 'inline'} ${e.sample ? `«${e.sample}» ` : ''}at ${e.sourceFile}:${e.lineNumber}`),
    true,
  );
  window.addEventListener('error', (e) => {
    if (e instanceof ErrorEvent) problems.push(`uncaught error: ${e.message} at ${e.filename}:${e.lineno}`);
  });
  window.addEventListener('unhandledrejection', (e) => problems.push(`unhandled rejection: ${String(e.reason)}`));
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    problems.push(`console.error: ${args.map(String).join(' ')}`);
    consoleError(...args);
  };
};

const recordingContexts = new WeakSet<BrowserContext>();

/**
 * Starts collecting the problems of `page`: the browser's own console errors (failed loads, violations
 * as the browser words them) and page errors as Playwright sees them; {@link recordedProblems} adds what the
 * page recorded itself.
 */
async function watchProblems(context: BrowserContext, page: Page): Promise<string[]> {
  if (!recordingContexts.has(context)) {
    recordingContexts.add(context);
    await context.addInitScript(RECORD_PROBLEMS);
  }
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** What the page recorded itself (see {@link RECORD_PROBLEMS}). */
function recordedProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as unknown as { __pageProblems?: string[] }).__pageProblems ?? [])]);
}

/**
 * Brings every island of the page to life: each one is scrolled into view (`client:visible`); on a
 * desktop the signup modal is opened from its entry and closed again (whatever directive loads it, a
 * pointer and focus on the entry and a click are what a visitor does); then no island may still be
 * waiting for hydration. On a phone the signup entry is a plain link to /signup: its modal island may
 * stay unhydrated.
 */
async function hydrateIslands(page: Page, desktop: boolean, requests: ReturnType<typeof watchRequests>): Promise<void> {
  // First what a reader's first seconds bring: the page's own start-up work has finished before anything
  // scrolls into view, as when a member reads and then scrolls. That is its requests, and on a member's
  // page the push state that the alerts script works out at once (src/client/push.ts: register the
  // service worker, then read this browser's subscription). Registering the same worker again joins the
  // page's own registration (the jobs of one scope run in order), so once this resolves the page's has.
  await requests.quiet();
  if ((await page.locator('[data-alerts]').count()) > 0) {
    await page.evaluate(async (url) => {
      const registration = await navigator.serviceWorker.register(url, { scope: '/' });
      await registration.pushManager.getSubscription();
    }, SERVICE_WORKER_URL);
  }
  // An island is `display: contents`: its first rendered descendant is what the visibility observer sees.
  for (const island of await page.locator('astro-island').all()) {
    await island.evaluate((el) => [...el.querySelectorAll('*')].find((child) => child.getClientRects().length > 0)?.scrollIntoView({ block: 'center' }));
  }
  // Other islands that wait for an interaction (client:interaction) come to life when one of their
  // controls gets the focus, as a keyboard user's would.
  const selectors = await page
    .locator('astro-island[client="interaction"]:not([component-url*="SignupModal"])')
    .evaluateAll((islands) => islands.map((el) => (JSON.parse(el.getAttribute('opts') ?? '{}') as { value?: { selector?: string } }).value?.selector).filter((s): s is string => Boolean(s)));
  // The first of them a keyboard can reach: a control shown only on the other screen size (the search's
  // filter button on a phone, say) cannot take the focus.
  for (const selector of selectors) await page.locator(selector).filter({ visible: true }).first().focus();
  const modalIsland = page.locator('astro-island[component-url*="SignupModal"]');
  const entry = page.locator('[data-signup-entry]').first();
  const modalOpens = desktop && (await modalIsland.count()) > 0 && (await entry.isVisible());
  if (modalOpens) {
    await entry.hover();
    await entry.focus();
    await expect(modalIsland).not.toHaveAttribute('ssr');
    await entry.click();
    const modal = page.locator('dialog[data-signup-modal]');
    await expect(modal).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
  }
  const waiting = modalOpens ? 'astro-island[ssr]' : 'astro-island[ssr]:not([component-url*="SignupModal"])';
  await expect(page.locator(waiting)).toHaveCount(0);
  // Hydration itself runs after the island dropped `ssr` (React works through it in scheduled tasks):
  // a frame and then an idle period mean the main thread has finished what was queued, and reported
  // what went wrong, before the page's own record is read.
  await settled(page);
}

/** Opens `path`, checks the answer and its policy, hydrates the islands and returns what went wrong. */
async function visit(context: BrowserContext, path: string, expected: { status: number }): Promise<string[]> {
  const page = await context.newPage();
  const problems = await watchProblems(context, page);
  const requests = watchRequests(page);
  const response = await page.goto(path);
  expect(response, path).not.toBeNull();
  expect(response!.status(), path).toBe(expected.status);
  expect(new URL(page.url()).pathname, `${path} stays on its page`).toBe(path);
  const policy = response!.headers()['content-security-policy'] ?? '';
  const scriptSrc =
    policy
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src ')) ?? '';
  if (!scriptSrc) problems.push('no script-src in the Content-Security-Policy header');
  if (scriptSrc.includes("'unsafe-inline'")) problems.push(`script-src allows 'unsafe-inline': ${scriptSrc}`);
  // One effective policy: the header, no second one in a <meta> tag.
  const metaPolicies = await page.locator('meta[http-equiv="content-security-policy" i]').count();
  if (metaPolicies > 0) problems.push(`${metaPolicies} policy <meta> tag(s) besides the header`);
  await hydrateIslands(page, (page.viewportSize()?.width ?? 0) >= 992, requests);
  const pageUrl = page.url();
  problems.push(...(await recordedProblems(page)));
  await page.close();
  // The browser reports an error status of the page itself as a failed load: that one is expected.
  const ownStatus = `console error: Failed to load resource: the server responded with a status of ${expected.status}`;
  return problems.filter((p) => !(expected.status >= 400 && p.startsWith(ownStatus) && p.endsWith(`(${pageUrl})`)));
}

/**
 * Runs `visit` for every item, a few at a time: each visit is a page of its own that mostly waits (for
 * the network to go quiet, for islands to hydrate), so three tabs of one browser context overlap those
 * waits. Playwright emulates focus in every tab, so the keyboard and focus steps of each stay its own.
 */
async function inParallel<T>(items: readonly T[], visitOne: (item: T) => Promise<void>, tabs = 3): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(tabs, items.length) }, async () => {
      while (next < items.length) await visitOne(items[next++]!);
    }),
  );
}

async function signIn(request: APIRequestContext, account: { email: string; password: string }): Promise<void> {
  const res = await request.post('/api/user.php', { headers: XHR, data: account });
  expect(res.status(), `sign-in as ${account.email}`).toBe(200);
}

/** The id of a member of site 1 that a visitor's member landing can show (first card of the search). */
async function someMemberId(request: APIRequestContext): Promise<number> {
  const html = await (await request.get('/members')).text();
  const id = /href="\/members\/(\d+)"/.exec(html)?.[1];
  expect(id, 'a member card on /members').toBeDefined();
  return Number(id);
}

/**
 * A desktop (the signup modal opens; most islands start above the fold) and a 360 px phone (islands
 * further down hydrate only after the page's start-up work, when they are scrolled to).
 */
const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 900 } } },
  { name: 'phone', options: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } },
] as const;

const VISITOR_COOKIES = () => [
  { name: 'lang', value: 'en', url: base() },
  { name: 'entry_ok', value: '1', url: base() },
];

test.describe('page types', () => {
  let memberState: Awaited<ReturnType<APIRequestContext['storageState']>>;
  let memberId: number;

  test.beforeAll(async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: base() });
    await signIn(request, FREE);
    memberId = await someMemberId(request);
    memberState = await request.storageState();
    await request.dispose();
  });

  /** The member's own screens, and public pages that look different for a member. */
  const memberPages = () => [
    '/members',
    `/members/${memberId}`,
    '/likes',
    '/profile',
    '/settings',
    '/verify',
    '/notifications',
    '/complete-signup',
    '/signup-matches',
    '/settings/delete',
    '/premium',
    '/pricing',
    '/pages/faq',
  ];

  const visitorPages: Array<{ path: string | (() => string); status?: number }> = [
    { path: '/' },
    ...LANDER_PATHS.map((path) => ({ path })),
    { path: () => `/members/${memberId}/landing` },
    ...STATIC_PATHS.map((path) => ({ path })),
    { path: '/login' },
    { path: '/signup' },
    { path: '/reset-password' },
    { path: '/lang-config' },
    { path: '/this/page/does-not-exist', status: 404 },
  ];

  for (const screen of SCREENS) {
    test(`SEC-10 LAY-01 every page type, logged out, loads without console errors or CSP violations (${screen.name})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ baseURL: base(), ...screen.options });
      await context.addCookies(VISITOR_COOKIES());
      const found: Record<string, string[]> = {};
      await inParallel(visitorPages, async (entry) => {
        const path = typeof entry.path === 'function' ? entry.path() : entry.path;
        const problems = await visit(context, path, { status: entry.status ?? 200 });
        if (problems.length) found[path] = problems;
      });
      await context.close();
      expect(found).toEqual({});
    });

    test(`SEC-10 LAY-01 every member page type, logged in, loads without console errors or CSP violations (${screen.name})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ baseURL: base(), ...screen.options, storageState: memberState });
      await context.addCookies(VISITOR_COOKIES());
      const found: Record<string, string[]> = {};
      await inParallel(memberPages(), async (path) => {
        const problems = await visit(context, path, { status: 200 });
        if (problems.length) found[path] = problems;
      });
      await context.close();
      expect(found).toEqual({});
    });
  }

  test('SEC-10 LAY-01 LAY-02 the landing page with the entry warning, accepted, loads without console errors or CSP violations', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = await watchProblems(context, page);
    const requests = watchRequests(page);
    await page.goto('/');
    await page.locator('[data-entry-warning] button[type="submit"]').click();
    await expect(page.locator('[data-entry-warning]')).toHaveCount(0);
    await hydrateIslands(page, true, requests);
    problems.push(...(await recordedProblems(page)));
    await context.close();
    expect(problems).toEqual([]);
  });

  test('SEC-10 LND-01 dragging the tinderswipe card tilts it and shows the stamp under the policy, without violations', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
    await context.addCookies(VISITOR_COOKIES());
    const page = await context.newPage();
    const problems = await watchProblems(context, page);
    const requests = watchRequests(page);
    await page.goto('/landers/tinderswipe');
    await hydrateIslands(page, true, requests);
    const card = page.locator('[data-swipe-card]');
    const like = card.locator('.swipe-stamp-like');
    // At rest the stamps are hidden by the stylesheet (the server's HTML carries no style attribute).
    await expect(like).toHaveCSS('opacity', '0');
    const box = (await card.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
    // Styles set from script (the DOM's style object) are not inline markup: the policy lets them apply.
    await expect(card).toHaveCSS('transform', /matrix/);
    expect(Number(await like.evaluate((el) => getComputedStyle(el).opacity))).toBeGreaterThan(0.5);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    await expect(like).toHaveCSS('opacity', '0');
    problems.push(...(await recordedProblems(page)));
    await context.close();
    expect(problems).toEqual([]);
  });
});
