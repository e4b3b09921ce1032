/**
 * The time bonus in a real browser (TB-01, TB-02), with Playwright's clock instead of waiting: a member who
 * signed up just now and spent the signup credits sees the banner count down every second on the members
 * pages, the modal 40 s after entering the members area (not before), closes it with the keyboard (focus
 * stays inside while it is open) and it stays closed on the next page; then follows the banner to
 * /credits, buys with the bonus applied, and the banner is gone.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function english(page: Page, baseURL: string): Promise<void> {
  await page.context().addCookies([
    { name: 'lang', value: 'en', url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
}

/** h:mm:ss → seconds. */
const seconds = (text: string | null) => {
  const [h, m, s] = (text ?? '').trim().split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
};

test('TB-01 TB-02 a new member sees the time bonus count down, the modal 40 s after entering, closes it with the keyboard and buys with the bonus', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.clock.install();
  const signup = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `bonus-${randomBytes(5).toString('hex')}@example.com`,
      name: `Tia${randomBytes(2).toString('hex')}`,
      password: 'time bonus passphrase 2026',
      date_of_birth: '1992-03-14',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(signup.status()).toBe(201);
  // The signup credits (20) go on two messages (10 each): credits 0, so the modal is due (TB-02).
  const grid = await (await page.request.get('/members')).text();
  const ids = [...grid.matchAll(/data-member-id="(\d+)"/g)].map((m) => Number(m[1]));
  for (const id of ids.slice(0, 2)) expect((await page.request.post('/api/chat.php', { data: { to: id, client_id: crypto.randomUUID(), body: 'Hi!' } })).status()).toBe(201);
  expect((await (await page.request.get('/api/user.php', { headers: XHR })).json()).credits).toBe(0);

  // TB-01: the banner with the time left, ticking every second.
  await page.goto('/members');
  const banner = page.locator('[data-time-bonus="TIMEBONUS25"]');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Time bonus: 25% off!');
  const timer = banner.getByRole('timer');
  await expect(timer).toHaveAttribute('aria-live', 'off');
  await expect(timer).toHaveAccessibleName('Time left on your time bonus');
  const start = seconds(await timer.textContent());
  expect(start).toBeGreaterThan(4 * 3600 - 120);
  expect(start).toBeLessThanOrEqual(4 * 3600);
  await page.clock.runFor(3_000);
  await expect.poll(async () => start - seconds(await timer.textContent())).toBeGreaterThanOrEqual(3);
  expect(start - seconds(await timer.textContent())).toBeLessThanOrEqual(4);

  // TB-02: no modal before 40 s in the members area, even on the next members page.
  const modal = page.getByRole('dialog', { name: 'Your time bonus: 25% off' });
  await page.clock.runFor(20_000);
  await expect(modal).toBeHidden();
  await page.goto('/likes');
  await page.clock.runFor(10_000);
  await expect(modal).toBeHidden();
  await page.clock.runFor(12_000);
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('timer')).toHaveText(/^3:5\d:\d\d$/);
  // Focus stays inside while it is open, both ways round.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await modal.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await modal.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  const dismissed = page.waitForResponse((res) => res.url().endsWith('/api/alert-dismiss.php') && res.request().method() === 'POST');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  expect((await dismissed).status()).toBe(200);

  // It stays closed on the next page; the banner stays.
  await page.goto('/chats');
  await expect(page.locator('[data-time-bonus="TIMEBONUS25"]')).toBeVisible();
  await page.clock.runFor(45_000);
  await expect(page.locator('dialog[data-time-bonus-modal]')).toHaveCount(0);

  // The banner leads to /credits, where the bonus is applied; buying makes the member paid and ends it.
  await page.locator('[data-time-bonus-link]').click();
  await expect(page).toHaveURL(/\/credits$/);
  await expect(page.locator('[data-active-discount="TIMEBONUS25"]')).toBeVisible();
  const first = page.locator('[data-package]').first();
  await expect(first.locator('[data-new-price]')).toBeVisible();
  await first.click();
  await page.getByLabel(/^Credit card/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('[data-order-summary]')).toContainText('TIMEBONUS25');
  await page.locator('[data-pay]').click();
  await expect(page).toHaveURL(/\/checkout\/simulated\/sim_/);
  await page.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment completed' })).toBeVisible();
  await page.goto('/members');
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('[data-time-bonus]')).toHaveCount(0);
  expect(violations).toEqual([]);
});

test('TB-01 TB-02 the banner and the modal fit a 360 px phone; with reduced motion the modal does not slide in', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.clock.install();
  const signup = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `bonus-${randomBytes(5).toString('hex')}@example.com`,
      name: `Ida${randomBytes(2).toString('hex')}`,
      password: 'time bonus passphrase 2026',
      date_of_birth: '1993-07-01',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(signup.status()).toBe(201);
  const grid = await (await page.request.get('/members')).text();
  const ids = [...grid.matchAll(/data-member-id="(\d+)"/g)].map((m) => Number(m[1]));
  for (const id of ids.slice(0, 2)) expect((await page.request.post('/api/chat.php', { data: { to: id, client_id: crypto.randomUUID(), body: 'Hi!' } })).status()).toBe(201);
  await page.goto('/members');
  // On a phone one banner shows at a time (decision 076): the new member's activation reminder comes
  // first, the time bonus is one of the notices behind "n more".
  await expect(page.locator('[data-activation-alert]')).toBeVisible();
  await expect(page.locator('[data-time-bonus]')).toBeHidden();
  await page.locator('[data-banner-more]').click();
  await expect(page.locator('[data-time-bonus]')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.clock.runFor(41_000);
  const modal = page.locator('dialog[data-time-bonus-modal]');
  await expect(modal).toBeVisible();
  const box = (await modal.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await modal.evaluate((dialog) => getComputedStyle(dialog).animationName)).toBe('none');
  // The close button closes it too (and stores the dismissal).
  const dismissed = page.waitForResponse((res) => res.url().endsWith('/api/alert-dismiss.php'));
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();
  expect((await dismissed).status()).toBe(200);
  // The server's check a minute later keeps a bonus that still holds.
  const rechecked = page.waitForResponse((res) => res.url().endsWith('/api/discountcode.php'));
  await page.clock.runFor(61_000);
  expect((await rechecked).status()).toBe(200);
  await expect(page.locator('[data-time-bonus]')).toBeVisible();
});

test('TB-01 a banner open in one tab is cleared once the member buys in another (the page asks the server every 60 s)', async ({ page, context, baseURL }) => {
  await english(page, baseURL!);
  await page.clock.install();
  const signup = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `bonus-${randomBytes(5).toString('hex')}@example.com`,
      name: `Uma${randomBytes(2).toString('hex')}`,
      password: 'time bonus passphrase 2026',
      date_of_birth: '1990-09-09',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(signup.status()).toBe(201);
  await page.goto('/likes');
  const banner = page.locator('[data-time-bonus="TIMEBONUS25"]');
  await expect(banner).toBeVisible();

  const other = await context.newPage();
  await other.goto('/credits');
  await other.locator('[data-package]').first().click();
  await other.getByLabel(/^Credit card/).check();
  await other.getByRole('button', { name: 'Continue' }).click();
  await expect(other.locator('[data-order-summary]')).toContainText('TIMEBONUS25');
  await other.locator('[data-pay]').click();
  await other.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(other.getByRole('heading', { name: 'Payment completed' })).toBeVisible();
  await other.close();

  await expect(banner).toBeVisible();
  await page.clock.runFor(61_000);
  await expect(banner).toBeHidden();
});
