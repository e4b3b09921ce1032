/**
 * What a member did is kept. UX-02: results loaded with 'More members' and the scroll position survive
 * opening a profile and going back (the list's address counts its pages; the server renders them all and
 * the browser puts the scroll back). UX-03: what a member types or taps before an island hydrates is not
 * lost: the island's code is held back (page.route) while the member types, then let through, and the
 * typed values survive hydration and are the ones used (the search filters, the chat composer).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { settled } from './settled';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';

async function signIn(context: BrowserContext, page: Page, baseURL: string, email: string): Promise<{ id: number }> {
  await context.addCookies([
    { name: 'lang', value: 'en', url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
  const res = await page.request.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return res.json();
}

/** Holds back requests for `pattern` until `release()`; `asked` resolves once the first has come. */
async function holdBack(page: Page, pattern: string): Promise<{ asked: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let wasAsked!: () => void;
  const asked = new Promise<void>((r) => (wasAsked = r));
  await page.route(pattern, async (route) => {
    wasAsked();
    await released;
    await route.continue();
  });
  return { asked, release };
}

test('UX-02 the results loaded with More members and the scroll position survive opening a profile and going back', async ({ page, context, baseURL }) => {
  await signIn(context, page, baseURL!, 'free@demo.test');
  // A phone: the list is long, so the scroll position means something.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/members?gender=male&gender=female');
  const cards = page.locator('[data-member-grid] [data-member-id]');
  await expect(cards).toHaveCount(24);
  await page.getByRole('link', { name: 'More members' }).click();
  await expect.poll(() => cards.count()).toBeGreaterThan(24);
  await expect(page).toHaveURL(/\/members\?gender=male&gender=female&pages=2$/);
  const loaded = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-member-id')));

  // Down to the last card (one 'more' brought), and open it.
  const last = cards.last();
  await last.scrollIntoViewIfNeeded();
  await settled(page);
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(2000);
  await last.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/members/${loaded.at(-1)}$`));
  await expect(page.locator(`[data-profile-id="${loaded.at(-1)}"]`)).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/members\?gender=male&gender=female&pages=2$/);
  await expect(cards).toHaveCount(loaded.length);
  expect(await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-member-id')))).toEqual(loaded);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 100);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(100);
  await expect(last).toBeInViewport();
});

test('UX-03 search filters typed and tapped before the island hydrates survive hydration and are searched', async ({ page, context, baseURL }) => {
  await signIn(context, page, baseURL!, 'free@demo.test');
  const held = await holdBack(page, '**/_astro/MemberSearch*.js');
  await page.goto('/members');
  const form = page.getByRole('form', { name: 'Search filters' });
  const island = page.locator('astro-island[component-url*="MemberSearch"]');
  const minAge = form.getByLabel('Minimum age');
  const men = form.getByLabel('Men', { exact: true });
  const menBefore = await men.isChecked();

  // The first tap asks for the island's code, which is held back while the member types and taps on.
  await minAge.click();
  await held.asked;
  await minAge.press('ControlOrMeta+a');
  await minAge.pressSequentially('25');
  await men.click();
  await expect(island).toHaveAttribute('ssr');
  held.release();
  await expect(island).not.toHaveAttribute('ssr');
  await settled(page);

  await expect(minAge).toHaveValue('25');
  await expect(men).toBeChecked({ checked: !menBefore });
  // And used: the search asks for it, without a page load.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  const asked = page.waitForRequest((r) => r.url().includes('/api/members.php') && new URL(r.url()).searchParams.get('minAge') === '25');
  await form.getByRole('button', { name: 'Search' }).click();
  await asked;
  await expect(page).toHaveURL(/minAge=25/);
  await expect(minAge).toHaveValue('25');
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test('UX-03 a message typed before the chat island hydrates survives hydration and is the one sent', async ({ page, context, baseURL }) => {
  await signIn(context, page, baseURL!, 'premium@demo.test');
  const grid = await (await page.request.get('/members')).text();
  const seededId = Number(/data-member-id="(\d+)"><a [^>]*>(?:(?!<\/li>).)*data-fictional/s.exec(grid)![1]);
  const held = await holdBack(page, '**/_astro/ChatRoom*.js');
  await page.goto(`/members/${seededId}/chat`, { waitUntil: 'domcontentloaded' });
  await held.asked;
  const composer = page.getByRole('textbox');
  await composer.click();
  await composer.pressSequentially('Typed before hydration');
  const island = page.locator('astro-island[component-url*="ChatRoom"]');
  await expect(island).toHaveAttribute('ssr');
  held.release();
  await expect(island).not.toHaveAttribute('ssr');
  await settled(page);
  await expect(composer).toHaveValue('Typed before hydration');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('[data-messages] [data-state="stored"]').last()).toHaveText(/Typed before hydration/);
  await expect(composer).toHaveValue('');
});
