/**
 * The match finder in a real browser, by keyboard only (GAME-01): the questionnaire (who, ages, region,
 * interests) answered with Tab, Space and typing, the ranked matches (most shared interests first), a like
 * from the results with Enter, and a clear error for too many interests.
 */
import { expect, test } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test('GAME-01 a member answers the match finder by keyboard, gets ranked matches and likes one', async ({ page, context, baseURL }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: baseURL! },
    { name: 'entry_ok', value: '1', url: baseURL! },
  ]);
  expect((await page.request.post('/api/user.php', { headers: XHR, data: { email: 'free@demo.test', password: 'demo-password-1' } })).status()).toBe(200);
  await page.goto('/match-finder');
  await expect(page.getByRole('heading', { name: 'Match finder' })).toBeVisible();

  // Who: women, by keyboard.
  await page.getByLabel('Women').focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Women')).toBeChecked();
  // Ages: select what is there and type.
  await page.getByLabel('From age').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('18');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('To age')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('80');
  // Region: anywhere in the country.
  await page.getByLabel('Region').focus();
  await page.getByLabel('Region').selectOption({ index: 0 });
  // Two interests, with Space.
  const interests = page.locator('input[name="interest"]');
  for (const i of [0, 1]) {
    await interests.nth(i).focus();
    await page.keyboard.press('Space');
    await expect(interests.nth(i)).toBeChecked();
  }
  await page.getByRole('button', { name: 'Find matches' }).focus();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/match-finder\?.*gender=female/);
  const results = page.locator('[data-match-results] li[data-member-id]');
  await expect(results.first()).toBeVisible();
  // Ranked: never more shared interests further down the list.
  const shared = (await results.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-shared'))))) as number[];
  expect(shared.length).toBeGreaterThan(0);
  expect([...shared].sort((a, b) => b - a)).toEqual(shared);

  // Like the first by keyboard: it comes back liked, the answers kept in the address.
  const first = results.first();
  const id = await first.getAttribute('data-member-id');
  await first.locator('[data-match-like]').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-match-results] li[data-member-id="${id}"] [data-liked]`)).toBeVisible();
  await expect(page).toHaveURL(/gender=female/);

  // Too many interests: a clear error, status 400.
  const url = new URL(page.url());
  url.search = 'gender=female&minAge=18&maxAge=80&interest=music&interest=travel&interest=cooking&interest=sports';
  const res = await page.goto(url.toString());
  expect(res?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText('Choose at most 3 interests.');
});
