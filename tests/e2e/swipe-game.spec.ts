/**
 * The swipe game on a 360 px phone (GAME-02): the free demo member swipes right by touch four times, each
 * like stored through /api/swipe.php without a page load, and the fifth swipe brings the 'come back
 * tomorrow' text with the hours and minutes left.
 */
import { expect, test } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('GAME-02 four likes by touch swipe, the fifth says come back tomorrow', async ({ page, context, baseURL }) => {
  await context.addCookies([
    { name: 'lang', value: 'en', url: baseURL! },
    { name: 'entry_ok', value: '1', url: baseURL! },
  ]);
  expect((await page.request.post('/api/user.php', { headers: XHR, data: { email: 'free@demo.test', password: 'demo-password-1' } })).ok()).toBe(true);
  await page.goto('/swipe-game');
  await expect(page.locator('[data-swipe-game][data-swipe-ready="true"]')).toBeAttached();
  await expect(page.locator('[data-likes-left]')).toHaveText('Likes left today: 4');
  const card = page.locator('[data-swipe-card]');
  // Issue 25: the like and skip buttons are 44 px touch targets with drawn icons (no symbol characters).
  for (const name of [/^Like /, /^Skip /]) {
    const button = page.getByRole('button', { name });
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expect(button.locator('svg')).toHaveCount(1);
    expect(await button.textContent()).not.toMatch(/[♥✕]/);
  }
  const cdp = await context.newCDPSession(page);

  /** A real touch drag to the right across the card (Chromium's touch input → pointer events of type touch). */
  async function swipeRight() {
    const box = (await card.boundingBox())!;
    const y = box.y + box.height / 2;
    const at = (x: number) => [{ x, y, id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(box.x + 40) });
    for (const x of [80, 140, 200, 260]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(box.x + x) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  for (let i = 1; i <= 4; i++) {
    const id = await card.getAttribute('data-swipe-card');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/swipe.php') && r.request().method() === 'POST');
    await swipeRight();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ id: Number(id), liked: true, likes_left: 4 - i });
    await expect(card).not.toHaveAttribute('data-swipe-card', id!);
    await expect(page.locator('[data-likes-left]')).toHaveText(`Likes left today: ${4 - i}`);
  }
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/swipe.php'));
  await swipeRight();
  expect((await refused).status()).toBe(429);
  await expect(page.locator('[data-swipe-limit]')).toHaveText(/Come back tomorrow: \d+ h \d+ min to go\./);
  // Nothing scrolls sideways on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
