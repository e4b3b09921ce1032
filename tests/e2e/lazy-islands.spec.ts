/**
 * PERF-02: the landing page loads no island code (React, the signup modal) until the visitor reaches for
 * a signup entry; pointing at it loads the island, and the first click opens the modal even when the code
 * arrives after the click (client:interaction, src/client/directives/interaction.ts).
 */
import { expect, test, type Page, type Request } from '@playwright/test';
import { settled } from './settled';

const base = () => test.info().project.use.baseURL!;

/** The island's code: its component, the React renderer, and every chunk they import. */
function islandRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/_astro\/(SignupModal|SignupForm|client|react|jsx-runtime|index)\b[^/]*\.js$/.test(path)) seen.push(request);
  });
  return seen;
}

test.beforeEach(async ({ context, page }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: base() },
    { name: 'entry_ok', value: '1', url: base() },
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('PERF-02 no island code is requested on the landing page before an interaction; pointing at the signup entry loads it', async ({ page }) => {
  const requests = islandRequests(page);
  await page.goto('/');
  const island = page.locator('astro-island[component-url*="SignupModal"]');
  await expect(island).toHaveAttribute('client', 'interaction');
  // Everything the page does on its own is done: network quiet, then a frame and an idle period.
  await page.waitForLoadState('networkidle');
  await settled(page);
  expect(requests.map((r) => r.url())).toEqual([]);
  await expect(island).toHaveAttribute('ssr');

  await page.locator('[data-signup-entry]').first().hover();
  await expect(island).not.toHaveAttribute('ssr');
  expect(requests.some((r) => r.url().includes('SignupModal'))).toBe(true);
  await page.locator('[data-signup-entry]').first().click();
  await expect(page.locator('dialog[data-signup-modal]')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('PERF-02 the first click opens the modal even when the island arrives after it', async ({ page }) => {
  // The island's component answers only after the click has happened.
  let release!: () => void;
  const clicked = new Promise<void>((r) => (release = r));
  await page.route('**/_astro/SignupModal*.js', async (route) => {
    await clicked;
    await route.continue();
  });
  await page.goto('/');
  const entry = page.locator('[data-signup-entry]').first();
  await entry.click();
  release();
  await expect(page.locator('dialog[data-signup-modal]')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('PERF-02 a keyboard user focusing the entry loads the island, and Enter opens the modal', async ({ page }) => {
  const requests = islandRequests(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(requests).toHaveLength(0);
  await page.locator('[data-signup-entry]').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('dialog[data-signup-modal]')).toBeVisible();
  expect(requests.length).toBeGreaterThan(0);
});

test('PERF-02 without JavaScript the signup entry is a plain link to /signup', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: base(), viewport: { width: 1280, height: 900 } });
  await context.addCookies([
    { name: 'lang', value: 'en', url: base() },
    { name: 'entry_ok', value: '1', url: base() },
  ]);
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('[data-signup-entry]').first().click();
  await expect(page).toHaveURL(/\/signup$/);
  await context.close();
});
