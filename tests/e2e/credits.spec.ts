/**
 * Buying credits in a real browser (CRD-01..08, TB-01, NAV-02): a member who signed up just now buys a
 * package through the simulated checkout with the time bonus applied, comes back to 'completed', is
 * premium with the new balance, and repeats the order from the navigation's credits link; a failed and
 * a cancelled payment show their texts.
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

/** Goes through the simulated checkout choosing `choice`, and waits for the order page. */
async function checkout(page: Page, choice: 'Paid' | 'Failed' | 'Cancel'): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\/simulated\/sim_/);
  await page.getByRole('button', { name: choice, exact: true }).click();
  await expect(page).toHaveURL(/\/credits\/order\/\d+$/);
}

test('CRD-01 CRD-02 CRD-03 CRD-05 TB-01 NAV-02 a new member buys credits with the time bonus, becomes premium and repeats the order', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  const res = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `buyer-${randomBytes(5).toString('hex')}@example.com`,
      name: `Bea${randomBytes(2).toString('hex')}`,
      password: 'credits passphrase 2026',
      date_of_birth: '1990-04-12',
      gender: 'female',
      looking_for: 'male',
    },
  });
  expect(res.status()).toBe(201);
  const user = await (await page.request.get('/api/user.php', { headers: XHR })).json();
  const before = user.credits as number;

  await page.goto('/credits');
  await expect(page.locator('[data-active-discount="TIMEBONUS25"]')).toBeVisible();
  const first = page.locator('[data-package]').first();
  await expect(first.locator('[data-old-price]')).toBeVisible();
  await expect(first.locator('[data-new-price]')).toBeVisible();
  const credits = Number(/(\d[\d.,]*) credits/.exec((await first.textContent()) ?? '')![1]!.replace(/[.,]/g, ''));
  await first.click();
  await page.getByLabel(/^iDEAL/).check();
  await expect(page.locator('[data-method="ideal"] [data-transaction-cost]')).toContainText('transaction costs');
  await page.getByLabel('Your bank (iDEAL)').selectOption({ label: 'ING' });
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Check your order' })).toBeVisible();
  await expect(page.locator('[data-summary-discount]')).toBeVisible();
  await expect(page.locator('[data-order-summary]')).toContainText('TIMEBONUS25');
  await page.locator('[data-pay]').click();
  await checkout(page, 'Paid');

  await expect(page.getByRole('heading', { name: 'Payment completed' })).toBeVisible();
  await expect(page.locator('[data-premium-now]')).toHaveText('You are now a premium member.');
  await expect(page.locator('[data-order-message]')).toContainText(`Your balance is now ${before + credits} credits`);
  // The navigation follows: the credits entry (to repeat order) instead of Get Premium.
  await expect(page.locator('[data-nav="premium"]')).toHaveCount(0);
  const creditsLink = page.locator('a[data-nav="credits"]');
  await expect(creditsLink).toHaveAttribute('href', '/credits/repeat-order');
  const after = await (await page.request.get('/api/user.php', { headers: XHR })).json();
  expect(after).toMatchObject({ paid_user: true, credits: before + credits });

  // CRD-03: repeat the last order in one click (no time bonus any more: the member is paid).
  await creditsLink.click();
  await expect(page.getByRole('heading', { name: 'Repeat your last order' })).toBeVisible();
  await page.locator('[data-repeat-button]').click();
  await checkout(page, 'Paid');
  await expect(page.getByRole('heading', { name: 'Payment completed' })).toBeVisible();
  await expect(page.locator('[data-order-message]')).toContainText(`Your balance is now ${before + 2 * credits} credits`);
  await page.locator('[data-view-receipt]').click();
  await expect(page.locator('[data-receipt-credits]')).toHaveAttribute('data-receipt-credits', String(credits));
});

test('CRD-02 CRD-08 a failed and a cancelled payment show their texts', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  expect((await page.request.post('/api/user.php', { headers: XHR, data: { email: 'free@demo.test', password: 'demo-password-1' } })).status()).toBe(200);
  const startCard = async () => {
    await page.goto('/credits');
    await page.locator('[data-package]').first().click();
    await page.getByLabel(/^Credit card/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('[data-pay]').click();
  };
  await startCard();
  await checkout(page, 'Failed');
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expect(page.locator('[data-order-message]')).toContainText('Your payment failed or was cancelled. No money was taken.');

  await startCard();
  await checkout(page, 'Cancel');
  await expect(page.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(page.locator('[data-order-message]')).toContainText('You cancelled the payment.');
  await page.locator('[data-try-again]').click();
  await expect(page).toHaveURL(/\/credits\?package=\d+$/);
});

test('CRD-02 CRD-04 the credit pages fit a 360 px phone, and a package is bought with the keyboard alone', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  await page.setViewportSize({ width: 360, height: 780 });
  // A member of its own: the purchase makes them premium, and the demo's free member must stay free for the other specs.
  const signup = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: {
      email: `keys-${randomBytes(5).toString('hex')}@example.com`,
      name: `Kai${randomBytes(2).toString('hex')}`,
      password: 'keyboard passphrase 2026',
      date_of_birth: '1988-02-03',
      gender: 'male',
      looking_for: 'female',
    },
  });
  expect(signup.status()).toBe(201);
  const noSideScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.goto('/credits');
  await noSideScroll();
  // Keyboard: the package radios, the method radios, the bank select and the button are reached by Tab.
  await page.locator('input[name="package"]').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('input[name="package"]').nth(1)).toBeChecked();
  await page.locator('#method-card').focus();
  await page.keyboard.press('Space');
  await expect(page.locator('#method-card')).toBeChecked();
  await page.locator('[data-credits-continue]').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Check your order' })).toBeVisible();
  await noSideScroll();
  await page.locator('[data-pay]').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout\/simulated\/sim_/);
  await noSideScroll();
  await page.getByRole('button', { name: 'Paid', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment completed' })).toBeVisible();
  await noSideScroll();
  await page.goto('/transactions');
  await noSideScroll();
  // Issue 25: on a phone each payment is a card (what, date and method, amount, a status chip); from 768 px a table.
  const card = page.locator('[data-transactions="cards"] [data-transaction]').first();
  await expect(card).toBeVisible();
  await expect(card.locator('.tx-status')).toHaveText('Paid');
  await expect(card).toContainText('credits');
  await expect(page.locator('[data-transactions="table"]')).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 860 });
  await expect(page.locator('[data-transactions="table"]')).toBeVisible();
  await expect(page.locator('[data-transactions="cards"]')).toBeHidden();
  await expect(page.locator('[data-transactions="table"] th')).toHaveText(['Date', 'Credits', 'Payment method', 'Amount', 'Status']);
  await expect(page.locator('[data-transaction-row]').first().locator('.tx-status')).toHaveText('Paid');
  await page.setViewportSize({ width: 360, height: 780 });
  await page.locator('[data-transaction] a').first().click();
  await expect(page.locator('[data-receipt]')).toBeVisible();
  await noSideScroll();
});

test('PREM-01 CRD-02 the best-value mark is on the package with the lowest price per credit, the chosen card is marked and the pay button stays in reach on a phone', async ({ page, baseURL }) => {
  await english(page, baseURL!);
  await page.setViewportSize({ width: 360, height: 780 });
  expect((await page.request.post('/api/user.php', { headers: XHR, data: { email: 'free@demo.test', password: 'demo-password-1' } })).status()).toBe(200);
  await page.goto('/credits');
  const cards = page.locator('[data-package]');
  const rows = await cards.evaluateAll((els) =>
    els.map((el) => ({
      id: el.getAttribute('data-package')!,
      credits: Number(/(\d[\d.,]*) credits?/.exec(el.textContent ?? '')![1]!.replace(/[.,]/g, '')),
      price: Number(el.querySelector('[data-price]')!.getAttribute('data-price')),
      best: el.hasAttribute('data-best-value'),
    })),
  );
  expect(rows.length).toBeGreaterThan(1);
  const lowest = rows.reduce((a, b) => (b.price / b.credits < a.price / a.credits ? b : a));
  expect(rows.filter((r) => r.best).map((r) => r.id)).toEqual([lowest.id]);
  await expect(page.locator(`[data-package="${lowest.id}"] [data-best-value-mark]`)).toHaveText('Best value');
  await expect(page.locator('[data-best-value-mark]')).toHaveCount(1);
  // The chosen card is marked: its border takes the brand colour, the others keep the plain one.
  const other = rows.find((r) => r.id !== lowest.id)!;
  await page.locator(`[data-package="${lowest.id}"]`).click();
  await expect(page.locator(`[data-package="${lowest.id}"] input[name="package"]`)).toBeChecked();
  const border = (id: string) => page.locator(`[data-package="${id}"]`).evaluate((el) => getComputedStyle(el).borderTopColor);
  // The border changes with a transition (--app-duration-base): read it until it has settled.
  const plain = await border(other.id);
  await expect.poll(() => border(lowest.id)).not.toBe(plain);
  // The pay button is in reach wherever the member is on the page (sticky at the bottom of a phone's screen).
  const pay = page.locator('[data-credits-continue]');
  await expect(pay).toBeInViewport();
  await page.locator('[data-discount-code]').scrollIntoViewIfNeeded();
  await expect(pay).toBeInViewport();
  await page.mouse.wheel(0, -5000);
  await expect(pay).toBeInViewport();
  // The premium page marks the same package.
  await page.goto('/premium');
  await expect(page.locator('[data-best-value]')).toHaveAttribute('data-package', lowest.id);
});
