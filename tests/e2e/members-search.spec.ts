/**
 * MEM-01: the member search in the browser. A logged-in member filters without a page load, appends the
 * next page with 'more members', and the filters live in the URL: reload keeps them, back and forward
 * restore the previous search. MEM-08: the browser's position preselects the region.
 */
import { expect, test } from '@playwright/test';

const FREE = { email: 'free@demo.test', password: 'demo-password-1' };

test('MEM-01 MEM-08 a member filters, loads more, and keeps the search across back, forward and reload', async ({ page, context }) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
  // Hydration mismatches (React #418) and script errors show up as console errors.
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(FREE.email);
  await page.getByLabel('Password').fill(FREE.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/members$/);

  const form = page.getByRole('form', { name: 'Search filters' });
  const cards = page.locator('[data-member-grid] [data-member-id]');
  const island = page.locator('astro-island[component-url*="MemberSearch"]');
  // A marker that survives only as long as the document does: no full page load from here on.
  await page.evaluate(() => ((window as unknown as { searchMarker: number }).searchMarker = 1));
  const marker = () => page.evaluate(() => (window as unknown as { searchMarker?: number }).searchMarker);

  // Everyone, in all countries and regions: the first click on the form brings the island to life.
  await form.getByRole('button', { name: 'Search' }).hover();
  await expect(island).not.toHaveAttribute('ssr');

  // MEM-08: with the browser's permission, 'use my location' preselects the nearest region (Eindhoven: Noord-Brabant).
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: 51.44, longitude: 5.47 });
  await form.getByRole('button', { name: 'Use my location' }).click();
  await expect(form.getByRole('status').first()).toHaveText('Region set to Noord-Brabant.');
  await expect(form.getByLabel('Region').locator('option:checked')).toHaveText('Noord-Brabant');
  await expect(form.getByLabel('Country')).toHaveValue('NL');

  await form.getByLabel('Women', { exact: true }).check();
  await form.getByLabel('Men', { exact: true }).check();
  await form.getByLabel('Country').selectOption('');
  await form.getByLabel('Region').selectOption('');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/members\?gender=male&gender=female&minAge=\d+&maxAge=99$/);
  await expect(cards).toHaveCount(24);
  const firstPage = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-member-id')));

  await page.getByRole('link', { name: 'More members' }).click();
  await expect.poll(() => cards.count()).toBeGreaterThan(24);
  const afterMore = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-member-id')));
  expect(afterMore.slice(0, 24)).toEqual(firstPage);
  expect(new Set(afterMore).size).toBe(afterMore.length);
  const everyoneUrl = page.url();

  // Narrower: women from 30.
  await form.getByLabel('Men', { exact: true }).uncheck();
  await form.getByLabel('Minimum age').fill('30');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/members\?gender=female&minAge=30&maxAge=99$/);
  await expect(page.locator('[data-member-search]')).toHaveAttribute('data-search-status', 'idle');
  const narrowUrl = page.url();
  expect(await marker()).toBe(1);

  // Back restores the previous search without a page load; forward returns.
  await page.goBack();
  await expect(page).toHaveURL(everyoneUrl);
  await expect(form.getByLabel('Men', { exact: true })).toBeChecked();
  await expect(form.getByLabel('Minimum age')).not.toHaveValue('30');
  // With the page 'more members' had added (UX-02: the address counts the pages).
  await expect(cards).toHaveCount(afterMore.length);
  expect(await marker()).toBe(1);
  await page.goForward();
  await expect(page).toHaveURL(narrowUrl);
  await expect(form.getByLabel('Minimum age')).toHaveValue('30');

  // Reload renders the same filters from the URL on the server.
  await page.reload();
  expect(await marker()).toBeUndefined();
  await expect(form.getByLabel('Minimum age')).toHaveValue('30');
  await expect(form.getByLabel('Women', { exact: true })).toBeChecked();
  await expect(form.getByLabel('Men', { exact: true })).not.toBeChecked();
  for (const text of await page.locator('[data-member-grid] [data-member-id] .member-info .member-meta').allTextContents()) {
    expect(Number(/^(\d+)/.exec(text)![1])).toBeGreaterThanOrEqual(30);
  }
  expect(errors).toEqual([]);
});

test('MEM-01 on a 360 px phone the filters open in a bottom sheet from the Filters button and apply', async ({ page, context }) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  await page.setViewportSize({ width: 360, height: 780 });
  expect((await page.request.post('/api/user.php', { headers: { 'X-Requested-With': 'XMLHttpRequest' }, data: FREE })).status()).toBe(200);
  await page.goto('/members?gender=male&gender=female');
  const sheet = page.locator('dialog[data-filter-sheet]');
  const form = page.getByRole('form', { name: 'Search filters' });
  // On a phone the form waits in the closed sheet; the button says how many filters narrow the search.
  await expect(form).toBeHidden();
  const open = page.getByRole('link', { name: /^Filters/ });
  await expect(open).toBeVisible();
  expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // The first press brings the island to life and is played again: the sheet opens, modal, at the bottom.
  await open.click();
  await expect(sheet).toHaveAttribute('open', '');
  await expect(form).toBeVisible();
  expect(await sheet.evaluate((el) => el.matches(':modal'))).toBe(true);
  // Once it has slid in: the full width, down to the bottom edge.
  await expect.poll(async () => Math.round(await sheet.evaluate((el) => el.getBoundingClientRect().bottom))).toBe(780);
  expect((await sheet.boundingBox())!.width).toBe(360);

  await form.getByLabel('Men', { exact: true }).uncheck();
  await form.getByLabel('Minimum age').fill('30');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/members\?gender=female&minAge=30&maxAge=99$/);
  await expect(sheet).not.toHaveAttribute('open');
  await expect(page.locator('[data-member-search]')).toHaveAttribute('data-search-status', 'idle');
  // One gender and an age range: two filters, on the button.
  await expect(page.locator('[data-filters-count]')).toHaveText('2');
  for (const text of await page.locator('[data-member-grid] [data-member-id] .member-info .member-meta').allTextContents()) {
    expect(Number(/^(\d+)/.exec(text)![1])).toBeGreaterThanOrEqual(30);
  }
  // Escape closes the sheet without searching.
  await open.click();
  await expect(sheet).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(sheet).not.toHaveAttribute('open');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
