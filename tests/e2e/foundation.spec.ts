import { expect, test, type Page } from '@playwright/test';

const FREE = { email: 'free@demo.test', password: 'demo-password-1' };

async function acceptEntryWarning(page: Page) {
  const warning = page.locator('[data-entry-warning]');
  if (await warning.isVisible()) await warning.getByRole('button').click();
  await expect(warning).toHaveCount(0);
}

test('LND-01 LAY-02 the landing page loads with the site title and the entry warning, which is remembered', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-entry-warning]')).toBeVisible();
  await page.locator('[data-entry-warning] button').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-entry-warning]')).toHaveCount(0);
  await expect(page.locator('h1')).toBeVisible();
  await page.reload();
  await expect(page.locator('[data-entry-warning]')).toHaveCount(0);
});

test('I18N-02 switching language changes the texts and the lang cookie persists', async ({ page, context }) => {
  await page.goto('/');
  await acceptEntryWarning(page);
  // The demo's localhost site is Dutch by its domain_language (SITE-04).
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page.getByRole('link', { name: 'Inloggen' }).first()).toBeVisible();
  await page.locator('.language-menu summary').click();
  await page.locator('.language-menu button[data-lang="en"]').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'lang');
  expect(cookie?.value).toBe('en');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('AUTH-01 NAV-01 AUTH-02 a demo member logs in, sees the member navigation, and logs out', async ({ page, context }) => {
  await context.addCookies([{ name: 'lang', value: 'en', url: test.info().project.use.baseURL! }]);
  await page.goto('/login');
  await acceptEntryWarning(page);
  await page.getByLabel('E-mail').fill(FREE.email);
  await page.getByLabel('Password').fill(FREE.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/members$/);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Search members' })).toBeAttached();
  await expect(nav.locator('[data-nav="messages"]')).toBeVisible();
  await expect(nav.locator('[data-nav="likes"]')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Get Premium' })).toBeVisible();
  await expect(page.locator('[data-member-grid] li').first()).toBeVisible();
  await nav.locator('[data-account-menu]').click();
  await nav.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-nav="login"]')).toBeVisible();
  // The session is gone on the server too, not only the cookie in this browser.
  expect((await page.request.get('/api/user.php')).status()).toBe(403);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
});

test('AUTH-01 a wrong password shows the translated error', async ({ page, context }) => {
  await context.addCookies([
    { name: 'lang', value: 'nl', url: test.info().project.use.baseURL! },
    { name: 'entry_ok', value: '1', url: test.info().project.use.baseURL! },
  ]);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(FREE.email);
  await page.getByLabel('Wachtwoord').fill('not-the-password');
  await page.getByLabel('Wachtwoord').press('Enter');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('ERR-01 an unknown route shows the 404 text with a way home', async ({ page, context }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: test.info().project.use.baseURL! },
    { name: 'entry_ok', value: '1', url: test.info().project.use.baseURL! },
  ]);
  const response = await page.goto('/this/route/does-not-exist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('NAV-03 on a 360 px phone the visitor page fits the screen and the menus work by keyboard', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/');
  await acceptEntryWarning(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.locator('[data-nav="login"]')).toBeVisible();
  await page.locator('.language-menu summary').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.language-menu button[data-lang="de"]')).toBeVisible();
  await context.close();
});

test('SEC-12 NAV-01 I18N-02 AUTH-02 on a 360 px phone a member switches language and logs out through the menus by keyboard', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, baseURL: test.info().project.use.baseURL });
  await context.addCookies([
    { name: 'lang', value: 'en', url: test.info().project.use.baseURL! },
    { name: 'entry_ok', value: '1', url: test.info().project.use.baseURL! },
  ]);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(FREE.email);
  await page.getByLabel('Password').fill(FREE.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/members$/);

  // Language: open the menu with the keyboard, move to Deutsch with Tab and choose it with Enter.
  const languageMenu = page.locator('.language-menu');
  await languageMenu.locator('summary').focus();
  await page.keyboard.press('Enter');
  const deutsch = languageMenu.getByRole('button', { name: 'Deutsch' });
  await expect(deutsch).toBeVisible();
  const box = await languageMenu.locator('.menu-list').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  for (let i = 0; i < 12 && !(await deutsch.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(deutsch).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('de');
  expect((await (await page.request.get('/api/user.php')).json()).language).toBe('de');

  // Logout: the account menu's button posts the logout form.
  const accountMenu = page.locator('.account-menu');
  await accountMenu.locator('summary').focus();
  await page.keyboard.press('Enter');
  const logout = accountMenu.getByRole('button', { name: 'Ausloggen' });
  await expect(logout).toBeVisible();
  for (let i = 0; i < 6 && !(await logout.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(logout).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-nav="login"]')).toBeVisible();
  expect((await page.request.get('/api/user.php')).status()).toBe(403);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});
