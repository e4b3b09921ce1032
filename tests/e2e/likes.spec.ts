/**
 * Likes in a real browser: the demo free member likes a seeded member and the premium member, the premium
 * member likes back (a second, API-only session), the free member sees the 'It's a match' modal with
 * the photo and the conversation button, the nav badge, and the matches tab; opening the profile from
 * there clears the badge; `?t=1` brings the like pop-up (LIK-01..04, NAV-01).
 */
import { expect, request as apiRequest, test } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';

test('LIK-01 LIK-02 LIK-03 LIK-04 NAV-01 a like back shows the match modal, the badge and the matches tab', async ({ page, context, baseURL }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: baseURL! },
    { name: 'entry_ok', value: '1', url: baseURL! },
  ]);
  const free = await (await page.request.post('/api/user.php', { headers: XHR, data: { email: 'free@demo.test', password: PASSWORD } })).json();
  const premiumApi = await apiRequest.newContext({ baseURL });
  const premium = await (await premiumApi.post('/api/user.php', { headers: XHR, data: { email: 'premium@demo.test', password: PASSWORD } })).json();
  try {
    // The free member likes a seeded (fictional) member from the members grid, and the premium member.
    // (Read without opening it: an open members page would ask for the 'new like' itself and race the test.)
    const grid = await (await page.request.get('/members')).text();
    const seededId = Number(/data-member-id="(\d+)"><a [^>]*>(?:(?!<\/li>).)*data-fictional/s.exec(grid)![1]);
    expect((await page.request.post('/api/likes.php', { data: { id: seededId } })).status()).toBe(201);
    expect((await page.request.post('/api/likes.php', { data: { id: premium.id } })).status()).toBe(201);
    // Liked back: a match.
    const back = await premiumApi.post('/api/likes.php', { data: { id: free.id } });
    expect(await back.json()).toMatchObject({ created: true, match: true });

    const likesReloaded = page.waitForResponse((r) => r.url().includes('/api/likes.php') && r.request().method() === 'GET');
    await page.goto('/members');
    const modal = page.locator('dialog[data-like-modal]');
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('heading')).toHaveText("It's a match!");
    await expect(modal.locator('[data-like-photo]')).toHaveAttribute('alt', premium.profile.name);
    // Issue 25: both photos side by side, the member's own (from the session) and the match's.
    await expect(modal.locator('img')).toHaveCount(2);
    await expect(modal.locator('[data-like-own-photo]')).toBeVisible();
    await expect(modal.locator('[data-like-own-photo]')).toHaveAttribute('alt', free.profile.name);
    await expect(modal.getByRole('button', { name: 'Keep searching' })).toBeVisible();
    await expect(modal.getByRole('link', { name: 'Start a conversation' })).toHaveAttribute('href', `/members/${premium.id}/chat`);
    await likesReloaded;
    await expect(page.locator('#likes-badge')).toHaveText('1');
    await modal.locator('[data-like-photo]').click();
    await expect(modal).toBeHidden();

    await page.getByRole('link', { name: /Likes/ }).first().click();
    await page.getByRole('link', { name: 'Matches' }).click();
    await expect(page).toHaveURL(/\/likes\/matches$/);
    const card = page.locator(`[data-member-id="${premium.id}"] a`);
    await expect(card).toHaveAttribute('href', `/likes/m/${premium.id}`);
    await page.goto('/likes/given');
    await expect(page.locator(`[data-member-id="${seededId}"] [data-fictional]`)).toBeVisible();
    await page.goto('/likes/matches');
    await page.locator(`[data-member-id="${premium.id}"] a`).click();
    await expect(page.locator(`[data-profile-id="${premium.id}"]`)).toBeVisible();
    await expect(page.locator('#likes-badge')).toBeHidden();
    await expect(page.locator('dialog[data-like-modal]')).toBeHidden();

    // LIK-04: with ?t=1 the like pop-up comes after a second, t leaves the address, the pop-up opens the profile.
    await page.goto('/likes/given?t=1');
    const popup = page.locator('[data-like-popup]');
    await expect(popup).toBeVisible();
    await expect(popup).toContainText(premium.profile.name);
    expect(new URL(page.url()).search).toBe('');
    await popup.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/likes/m/${premium.id}$`));
  } finally {
    await page.request.delete(`/api/likes.php?id=${premium.id}`, { headers: { origin: baseURL! } });
    await premiumApi.delete(`/api/likes.php?id=${free.id}`, { headers: { origin: baseURL! } });
    await premiumApi.dispose();
  }
});
