/**
 * NAV-02 with one balance (`$credits`, docs/decisions/069-islands-on-stores.md). The chat page has no
 * navigation (Chat layout): a send there sets the one balance, which the chat's balance line shows; on a
 * page with the navigation, the credits badge is bound to the same balance, which the member reload
 * (CLI-08) keeps current, so a spend made in another tab reaches the badge without a page load. The
 * answers carry a low balance from the route, so no demo account is drained for other specs.
 */
import { expect, test, type Page } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function signInPremium(page: Page, baseURL: string) {
  await page.context().addCookies([
    { name: 'lang', value: 'en', url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
  const login = await page.request.post('/api/user.php', { headers: XHR, data: { email: 'premium@demo.test', password: 'demo-password-1' } });
  expect(login.status()).toBe(200);
  const me = (await login.json()) as { id: number; credits: number; paid_user: boolean };
  expect(me.paid_user).toBe(true);
  expect(me.credits).toBeGreaterThan(10);
  return me;
}

test('NAV-02 CLI-08 the nav credits badge and the credits page are bound to the one balance: the member reload brings a spend made elsewhere', async ({ page, baseURL }) => {
  await signInPremium(page, baseURL!);
  await page.clock.install();
  await page.route('**/api/user.php', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const real = await route.fetch();
    await route.fulfill({ response: real, json: { ...((await real.json()) as object), credits: 7 } });
  });
  await page.goto('/members');
  const badge = page.locator('#credits-badge');
  // Above 10 the badge is in the page, hidden.
  await expect(badge).toHaveCount(1);
  await expect(badge).toBeHidden();
  // The boot runs after the first paint; the member reload 5 s later (CLI-08) brings the new balance.
  await page.clock.runFor(6_000);
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText('7');
  await expect(badge).toHaveAttribute('data-variant', 'warning');
  await expect(badge).toHaveAttribute('aria-label', '7 credits left');

  // The credits page says the balance the server rendered, then the one balance.
  await page.goto('/credits');
  const balance = page.locator('#credits-balance');
  await expect(balance).not.toContainText('Your balance: 7 credits');
  await page.clock.runFor(6_000);
  await expect(balance).toHaveText('Your balance: 7 credits.');
});

test("CRD-01 a send in the chat sets the one balance: the chat's balance line follows the answer", async ({ page, baseURL }) => {
  const me = await signInPremium(page, baseURL!);
  const grid = await (await page.request.get('/members')).text();
  const partner = Number(/data-member-id="(\d+)"/.exec(grid)![1]);
  await page.route('**/api/chat.php', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const sent = route.request().postDataJSON() as { to: number; client_id: string; body: string };
    const message = {
      id: 999_999,
      conversation: 999_999,
      sender: me.id,
      recipient: sent.to,
      kind: 'text',
      body: sent.body,
      attachment: null,
      client_id: sent.client_id,
      credits: 10,
      created_at: new Date().toISOString(),
    };
    await route.fulfill({ status: 201, json: { message, balance: 7, replayed: false } });
  });
  await page.goto(`/members/${partner}/chat`);
  // Hydrated: the send goes through the island (the no-JS form would load a page).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.locator('[data-composer] textarea').fill('Hello!');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('[data-messages] [data-state="stored"]').last()).toHaveText(/Hello!/);
  await expect(page.locator('[data-cost]')).toContainText('Your balance: 7 credits');
});
