/**
 * The match modal live (UX-01), in two browser contexts: the free member (A) has B's profile open, the
 * premium member (B) has A's profile open. A likes B with the profile's button; B likes A back with
 * theirs: B sees 'It's a match!' on the page the like's form returns to, and A sees it on the page they
 * have open, without a reload. Shown live once, it does not come again on A's next page. And nothing
 * opens over the entry warning (LAY-02): a member with a match waiting who has not accepted the warning
 * sees the warning alone, and the match after accepting it.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { settled } from './settled';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';

async function signIn(context: BrowserContext, baseURL: string, email: string, entryAccepted = true): Promise<{ page: Page; id: number; name: string }> {
  await context.addCookies([{ name: 'lang', value: 'en', url: baseURL }, ...(entryAccepted ? [{ name: 'entry_ok', value: '1', url: baseURL }] : [])]);
  const page = await context.newPage();
  const res = await page.request.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  const user = await res.json();
  return { page, id: user.id, name: user.profile.name };
}

/** Opens `path` and waits until the live stream is open and the page's scripts have started. */
async function openLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
  await page.goto(path);
  await stream;
  await settled(page);
}

test('UX-01 both members see the match modal at the moment of the match, live, and once', async ({ browser, baseURL }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const a = await signIn(contextA, baseURL!, 'free@demo.test');
  const b = await signIn(contextB, baseURL!, 'premium@demo.test');
  try {
    await openLive(a.page, `/members/${b.id}`);
    await openLive(b.page, `/members/${a.id}`);
    // A's page must not reload on the way: a mark on its window would be gone.
    await a.page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // A likes B (the profile's form: the page comes back); no match yet, so no modal on B's open page.
    await a.page.locator('[data-action-like]').click();
    await expect(a.page.locator('[data-action-unlike]')).toBeVisible();
    await openLive(a.page, `/members/${b.id}`);
    await a.page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // B likes A back: B sees the match where the form returns, A sees it live on the page they have open.
    await b.page.locator('[data-action-like]').click();
    for (const [page, other] of [
      [b.page, a],
      [a.page, b],
    ] as const) {
      const modal = page.locator('dialog[data-like-modal]');
      await expect(modal).toBeVisible();
      await expect(modal.getByRole('heading')).toHaveText("It's a match!");
      await expect(modal.locator('[data-like-photo]')).toHaveAttribute('alt', other.name);
      await expect(modal.getByRole('link', { name: 'Start a conversation' })).toHaveAttribute('href', `/members/${other.id}/chat`);
    }
    expect(await a.page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await a.page.getByRole('button', { name: 'Close' }).click();
    await expect(a.page.locator('dialog[data-like-modal]')).toBeHidden();

    // Shown live: A's next page does not show it again.
    const asked: string[] = [];
    a.page.on('request', (r) => r.url().includes('/api/auto-like.php') && asked.push(r.url()));
    await openLive(a.page, '/likes/matches');
    await expect(a.page.locator('dialog[data-like-modal]')).not.toHaveAttribute('data-auto-like');
    await expect(a.page.locator(`[data-member-id="${b.id}"]`)).toBeVisible();
    await expect(a.page.locator('dialog[data-like-modal]')).toBeHidden();
    expect(asked).toEqual([]);
  } finally {
    await a.page.request.delete(`/api/likes.php?id=${b.id}`, { headers: { origin: baseURL! } });
    await b.page.request.delete(`/api/likes.php?id=${a.id}`, { headers: { origin: baseURL! } });
    await contextA.close();
    await contextB.close();
  }
});

test('LAY-02 UX-01 nothing opens over the entry warning: a waiting match shows only once the warning is accepted', async ({ browser, baseURL }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  // A has not accepted the entry warning on this device.
  const a = await signIn(contextA, baseURL!, 'free@demo.test', false);
  const b = await signIn(contextB, baseURL!, 'premium@demo.test');
  try {
    expect((await a.page.request.post('/api/likes.php', { data: { id: b.id } })).status()).toBe(201);
    expect(await (await b.page.request.post('/api/likes.php', { data: { id: a.id } })).json()).toMatchObject({ match: true });

    const asked: string[] = [];
    a.page.on('request', (r) => r.url().includes('/api/auto-like.php') && asked.push(r.url()));
    await openLive(a.page, '/members');
    const warning = a.page.locator('[data-entry-warning]');
    await expect(warning).toBeVisible();
    // The match waits: no modal over the warning, and it is not taken (asked for) either.
    await expect(a.page.locator('dialog[data-like-modal]')).toBeHidden();
    expect(asked).toEqual([]);
    await expect(a.page.locator('dialog[data-like-modal]')).toHaveAttribute('data-auto-like', '');
    // The warning's button is the one thing to press, and it works.
    await a.page.getByRole('button', { name: /I am \d+ or older/ }).click();
    await expect(warning).toBeHidden();
    const modal = a.page.locator('dialog[data-like-modal]');
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('heading')).toHaveText("It's a match!");
  } finally {
    await a.page.request.delete(`/api/likes.php?id=${b.id}`, { headers: { origin: baseURL! } });
    await b.page.request.delete(`/api/likes.php?id=${a.id}`, { headers: { origin: baseURL! } });
    await contextA.close();
    await contextB.close();
  }
});
