/**
 * The profile screen in a real browser (MEM-03, BLK-01): the photo viewer hydrates late and moves with
 * the arrow keys, like is a server form, block asks in a modal and the member is then gone (404) until
 * unblocked, from the search as well.
 */
import { expect, test } from '@playwright/test';

test('MEM-03 BLK-01 a member views a profile, browses the photos with the keyboard, likes, blocks through the modal and unblocks', async ({ page, context }) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const login = await page.request.post('/api/user.php', { headers: { 'X-Requested-With': 'XMLHttpRequest' }, data: { email: 'free@demo.test', password: 'demo-password-1' } });
  expect(login.status()).toBe(200);

  // A member with at least two photos to browse, not liked yet.
  let id = 0;
  for (let n = 1; n <= 40 && id === 0; n++) {
    const res = await page.request.get(`/members/${n}`);
    const html = await res.text();
    if (res.status() === 200 && html.includes('data-thumb="1"') && html.includes('data-action-like')) id = n;
  }
  expect(id).toBeGreaterThan(0);

  /** Whether the member's card is on any page of a search for everyone, following the 'more' links. */
  const shownInSearch = async (memberId: number): Promise<boolean> => {
    await page.goto('/members?gender=male&gender=female');
    for (let pages = 0; pages < 20; pages++) {
      if ((await page.locator(`a[href="/members/${memberId}"]`).count()) > 0) return true;
      const more = page.locator('a[data-load-more]');
      if ((await more.count()) === 0) return false;
      await page.goto((await more.getAttribute('href'))!);
    }
    return false;
  };
  expect(await shownInSearch(id)).toBe(true);

  await page.goto(`/members/${id}`);
  const viewer = page.locator('[data-photo-viewer]');
  // Hydrated (client:visible): Astro removes `ssr` from the island once React owns it.
  await expect(page.locator('astro-island:has([data-photo-viewer])')).not.toHaveAttribute('ssr');
  const stage = page.locator('[data-viewer-stage]');
  const firstSrc = await page.locator('[data-viewer-image]').getAttribute('src');
  await stage.focus();
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-index', '1');
  await expect(page.locator('[data-viewer-image]')).not.toHaveAttribute('src', firstSrc!);
  await page.keyboard.press('ArrowLeft');
  await expect(viewer).toHaveAttribute('data-index', '0');
  await expect(page.locator('[data-viewer-image]')).toHaveAttribute('src', firstSrc!);

  await page.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unlike' })).toBeVisible();

  await page.getByRole('link', { name: 'Block' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Yes, block' })).toBeFocused();
  const gone = page.waitForResponse((r) => new URL(r.url()).pathname === `/members/${id}` && r.request().method() === 'GET');
  await dialog.getByRole('button', { name: 'Yes, block' }).click();
  expect((await gone).status()).toBe(200);
  await expect(page.locator(`[data-blocked-member="${id}"]`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^You blocked /);
  await expect(page.getByRole('link', { name: 'Back to search' })).toHaveAttribute('href', '/members');
  await expect(page.locator('[data-photo-viewer]')).toHaveCount(0);
  // Gone from the search too, until unblocked.
  expect(await shownInSearch(id)).toBe(false);
  await page.goto(`/members/${id}`);

  // Unblock by keyboard: Tab reaches the button, Enter lifts the block.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-photo-viewer]')).toBeVisible();
  // Leave the demo account as it was for other tests.
  await page.getByRole('button', { name: 'Unlike' }).click();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeVisible();

  // The screen and the profile form fit a 360 px phone.
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of [`/members/${id}`, '/profile']) {
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
  }
});

test('MEM-03 on a 360 px phone the profile runs its photo edge to edge and keeps message, like and gift in a bar at the bottom', async ({ page, context }) => {
  const base = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'lang', value: 'en', url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  await page.setViewportSize({ width: 360, height: 740 });
  const login = await page.request.post('/api/user.php', { headers: { 'X-Requested-With': 'XMLHttpRequest' }, data: { email: 'premium@demo.test', password: 'demo-password-1' } });
  expect(login.status()).toBe(200);
  let id = 0;
  for (let n = 1; n <= 40 && id === 0; n++) {
    const res = await page.request.get(`/members/${n}`);
    if (res.status() === 200 && (await res.text()).includes('data-thumb="1"')) id = n;
  }
  expect(id).toBeGreaterThan(0);
  await page.goto(`/members/${id}`);
  const bar = page.locator('[data-profile-actions]');
  await expect(bar).toBeVisible();
  // The phone's bottom navigation steps aside for it (the attribute the layout looks for).
  await expect(bar).toHaveAttribute('data-hide-bottom-nav', '');
  const check = async () => {
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBe(740);
    for (const name of ['Send a message', 'Send a gift']) {
      const action = bar.getByRole('link', { name });
      await expect(action).toBeVisible();
      expect((await action.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    const like = bar.getByRole('button', { name: /^(Like|Unlike)$/ });
    await expect(like).toBeVisible();
    expect((await like.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  };
  await check();
  // Still there at the end of the page, and the last of the page is not hidden under it.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await check();
  const block = page.getByRole('link', { name: 'Block' });
  expect((await block.boundingBox())!.y + (await block.boundingBox())!.height).toBeLessThanOrEqual((await bar.boundingBox())!.y);
  // The photo runs edge to edge; a counter says where one is.
  await page.evaluate(() => window.scrollTo(0, 0));
  const photo = (await page.locator('[data-viewer-image]').boundingBox())!;
  expect(photo.x).toBe(0);
  expect(photo.width).toBe(360);
  await expect(page.locator('[data-viewer-counter]')).toHaveText(/^1 \/ \d+$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
