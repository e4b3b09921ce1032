/**
 * UX-04: every page fits a 360 px layout viewport without horizontal scrolling. The window is a plain
 * 360 × 740 one, not an emulated phone: an emulated phone (isMobile) widens its layout viewport to the
 * page's content and hides the overflow this test is after. Each page is measured as
 * `document.documentElement.scrollWidth <= 360`, and a page that overflows names the elements that
 * stick out, so the failure says what to fix.
 *
 * The walk covers what a visitor sees (landing page, login, signup, static pages, landers, a member's
 * landing pages, the 404 page), what a member sees (search, profiles, likes, chats, games, credits with
 * a purchase through the simulated checkout, transactions and a receipt, premium, settings and its
 * sub-pages, notifications, photos on the profile, direct debit, complaints) and the back office.
 * The member has the longest name the site allows, with no space in it, as a member may choose.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { staffLogin } from './staff-login';
import { settled } from './settled';

const WIDTH = 360;
test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const LANDERS = ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video', 'tinderswipe'] as const;
/** The languages of the first demo site: all of them. */
const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pl', 'da', 'fi', 'nb', 'sv'] as const;
const STATIC_PAGES = ['faq', 'privacy', 'terms', 'cookies', 'service', 'return-policy', 'ban'] as const;

interface Overflow {
  path: string;
  scrollWidth: number;
  culprits: string[];
}

async function speak(context: BrowserContext, baseURL: string, lang: string) {
  await context.addCookies([
    { name: 'lang', value: lang, url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
}

/**
 * How wide the page at the current address lays out, and, when wider than the window, the outermost
 * elements that reach past its right edge (tag, classes and a little text), so a failure names them.
 */
async function measure(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  await settled(page);
  return page.evaluate((width) => {
    const scrollWidth = document.documentElement.scrollWidth;
    // Content that scrolls sideways inside a box (a table in .table-responsive) is cut off on the
    // screen just the same: the member sees the first columns only.
    const scrolled = [...document.body.querySelectorAll('*')].filter((el) => {
      const x = getComputedStyle(el).overflowX;
      return (x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1;
    });
    if (scrollWidth <= width && scrolled.length === 0) return { scrollWidth, culprits: [] };
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => sticksOut(el) && !(el.parentElement && el.parentElement !== document.body && sticksOut(el.parentElement)))
      .slice(0, 5)
      .map((el) => {
        const r = el.getBoundingClientRect();
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        return `<${el.tagName.toLowerCase()}${cls}> ${Math.round(r.left)}–${Math.round(r.right)} px "${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
      });
    const inside = scrolled.map((el) => `scrolls inside: <${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\s+/).join('.')}> ${el.scrollWidth} px in ${el.clientWidth} px`);
    return { scrollWidth: Math.max(scrollWidth, ...scrolled.map((el) => el.scrollWidth)), culprits: [...culprits, ...inside] };
  }, WIDTH);
}

/**
 * Opens `path`, which must answer `status` (0: any status below 500), and adds it to `overflows` when it
 * is too wide.
 */
async function visit(page: Page, path: string, overflows: Overflow[], status = 200, lang = 'en'): Promise<void> {
  const res = await page.goto(path);
  if (status === 0) expect(res?.status(), `${path} (${lang})`).toBeLessThan(500);
  else expect(res?.status(), `${path} (${lang})`).toBe(status);
  await check(page, `${path} (${lang})`, overflows);
}

/** Adds the page as it is now to `overflows` when it is wider than the window. */
async function check(page: Page, label: string, overflows: Overflow[]): Promise<void> {
  const m = await measure(page);
  if (m.scrollWidth > WIDTH) overflows.push({ path: label, ...m });
}

/** Browser tabs that walk the languages at once: the server answers one while another lays out. */
const TABS = 3;

/**
 * Visits every page in every language, the languages spread over {@link TABS} contexts that share
 * `context`'s cookies (the member's session) with their own `lang` cookie. The walk used to take one
 * language after the other in one tab: 3.3 of the end-to-end suite's 8.5 minutes.
 */
async function walk(browser: Browser, context: BrowserContext, baseURL: string, languages: readonly string[], pages: [path: string, status: number][], overflows: Overflow[]): Promise<void> {
  const storageState = await context.storageState();
  const queue = [...languages];
  await Promise.all(
    Array.from({ length: Math.min(TABS, languages.length) }, async () => {
      const tab = await browser.newContext({ storageState, viewport: { width: WIDTH, height: 740 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });
      try {
        const page = await tab.newPage();
        for (let lang = queue.shift(); lang !== undefined; lang = queue.shift()) {
          await speak(tab, baseURL, lang);
          for (const [path, status] of pages) await visit(page, path, overflows, status, lang);
        }
      } finally {
        await tab.close();
      }
    }),
  );
}

const report = (overflows: Overflow[]) => overflows.map((o) => `${o.path}: ${o.scrollWidth} px\n    ${o.culprits.join('\n    ')}`).join('\n');

test('UX-04 every page a visitor sees fits a 360 px layout viewport, in every language', async ({ browser, page, context, baseURL }) => {
  test.setTimeout(240_000);
  await speak(context, baseURL!, 'en');
  const listed = await (await page.request.get('/api/members.php', { headers: XHR })).json();
  const someone = listed.cards?.[0]?.id as number | undefined;
  expect(someone, 'a listed member').toBeTruthy();
  const pages: [path: string, status: number][] = [
    ...['/', '/login', '/signup', '/reset-password', '/pricing', '/signup-matches', '/account-deleted', '/members'].map((p) => [p, 200] as [string, number]),
    ...STATIC_PAGES.map((p) => [`/pages/${p}`, 200] as [string, number]),
    ...LANDERS.map((l) => [`/landers/${l}`, 200] as [string, number]),
    // A member's own pages as a link from elsewhere opens them.
    ...[`/members/${someone}`, `/members/${someone}/landing`, `/members/${someone}/landing2`, `/members/${someone}/landing3`, `/members/${someone}/signup`].map((p) => [p, 200] as [string, number]),
    ['/no-such-page', 404],
    ['/activate/error', 400],
    // Pages a link in a mail or a refusal leads to, opened without their token or state: their
    // refusal is a page too.
    ['/banned', 403],
    ['/account/reactivate', 0],
    ['/reset-password/do', 0],
    ['/mail-change/do', 0],
    // The development mail and SMS viewers (the demo's outbox).
    ['/dev/mail', 0],
    ['/dev/sms', 0],
  ];
  const overflows: Overflow[] = [];
  await walk(browser, context, baseURL!, LANGUAGES, pages, overflows);
  expect(overflows, report(overflows)).toEqual([]);
});

test('UX-04 every page a member sees fits a 360 px layout viewport, in every language', async ({ browser, page, context, baseURL }) => {
  test.setTimeout(300_000);
  await speak(context, baseURL!, 'en');
  // The longest name the site takes, in one word.
  const name = `Wilhelmina${randomBytes(10).toString('hex')}`;
  const signup = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: { email: `wide-${randomBytes(5).toString('hex')}@example.com`, name, password: 'layout passphrase 2026', date_of_birth: '1988-03-14', gender: 'female', looking_for: 'male' },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const overflows: Overflow[] = [];

  await page.goto('/members');
  const someone = await page.locator('a[href^="/members/"]').first().getAttribute('href');
  expect(someone).toMatch(/^\/members\/\d+$/);
  const someoneId = someone!.split('/')[2];
  expect((await page.request.post('/api/likes.php', { headers: XHR, data: { id: Number(someoneId) } })).ok()).toBe(true);

  // Buying credits: the packages, the confirm step, the simulated checkout, the order. The steps that
  // show state are measured here, the pages with an address of their own in every language below.
  await page.goto('/credits');
  await page.locator('[data-package]').first().click();
  await page.getByLabel(/^iDEAL/).check();
  await page.getByLabel('Your bank (iDEAL)').selectOption({ label: 'ING' });
  await check(page, '/credits (package chosen)', overflows);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('[data-pay]')).toBeVisible();
  const confirm = new URL(page.url()).pathname;
  await page.locator('[data-pay]').click();
  await expect(page).toHaveURL(/\/checkout\/simulated\/sim_/);
  await check(page, '/checkout/simulated/{id}', overflows);
  await page.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(page).toHaveURL(/\/credits\/order\/\d+$/);
  const order = new URL(page.url()).pathname;
  await page.goto('/transactions');
  const receipt = await page.locator('[data-transaction] a').first().getAttribute('href');

  // A chat with long words in it: a new conversation, then the conversation and the list.
  await page.goto(`${someone}/chat`);
  await check(page, `${someone}/chat (new)`, overflows);
  const text = `Hello! ${'Averyveryverylongwordwithoutanyspaceinit'.repeat(2)} and a link https://example.com/${'a'.repeat(60)}`;
  // The composer's island wakes on the first touch: focus it and let it settle before typing.
  await page.getByLabel(/^Message to /).focus();
  await settled(page);
  await page.getByLabel(/^Message to /).fill(text);
  await expect(page.getByLabel(/^Message to /)).toHaveValue(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('[data-messages] [data-state="stored"]')).toHaveCount(1);
  await page.goto('/chats');
  const chat = await page.locator('a[href^="/chats/"]').first().getAttribute('href');
  expect(chat).toMatch(/^\/chats\/\d+$/);

  // Someone blocked: the page about the block.
  await page.goto('/members');
  const listed = await page.locator('a[href^="/members/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  const blockedId = listed.find((href) => /^\/members\/\d+$/.test(href) && href !== someone);
  expect(blockedId).toBeTruthy();
  const blocking = await page.request.post(blockedId!, { form: { action: 'block', next: blockedId! }, headers: { origin: new URL(baseURL!).origin }, maxRedirects: 0 });
  expect(blocking.status()).toBe(303);

  const pages: [path: string, status: number][] = [
    ...[
      '/members',
      someone!,
      blockedId!,
      '/profile',
      '/complete-signup',
      '/likes',
      '/likes/received',
      '/likes/given',
      '/likes/matches',
      `/likes/m/${someoneId}`,
      '/swipe-game',
      '/match-finder',
      '/chats',
      chat!,
      '/credits',
      confirm,
      order,
      '/credits/repeat-order',
      '/transactions',
      receipt!,
      '/premium',
      '/directdebit',
      '/settings',
      '/verify',
      '/settings/delete',
      '/notifications',
      '/complaints',
      '/lang-config',
      // The static pages and /pricing are the visitor walk's: their content is the same for a member,
      // and the member's header and menus are measured on every page above, in every language.
    ].map((p) => [p, 200] as [string, number]),
    ['/no-such-page', 404],
  ];
  await walk(browser, context, baseURL!, LANGUAGES, pages, overflows);
  expect(overflows, report(overflows)).toEqual([]);
});

test('UX-04 the back office fits a 360 px layout viewport', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await speak(context, baseURL!, 'en');
  const overflows: Overflow[] = [];
  await visit(page, '/admin/login', overflows);
  await staffLogin(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/admin\/?$/);
  await page.goto('/admin/members');
  await page.getByLabel('E-mail, name or id').fill('free@demo.test');
  await page.keyboard.press('Enter');
  const member = await page.locator('[data-member-hits] a').first().getAttribute('href');
  await page.goto('/admin/sites');
  const site = await page.locator('a[href^="/admin/sites/"]').first().getAttribute('href');
  const pages = [
    '/admin',
    '/admin/members',
    member!,
    '/admin/complaints',
    '/admin/figures',
    '/admin/audit',
    '/admin/payments',
    '/admin/photos',
    '/admin/verifications',
    '/admin/sites',
    site!,
    '/admin/operator',
  ];
  // Staff texts are written in English and Dutch.
  for (const lang of ['en', 'nl']) {
    await speak(context, baseURL!, lang);
    for (const path of pages) await visit(page, path, overflows, 200, lang);
  }
  expect(overflows, report(overflows)).toEqual([]);
});
