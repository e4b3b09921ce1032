/**
 * Chat in a real browser with two members in two browser contexts (issue 10): the premium member (A)
 * writes, the free member (B) gets it live with the unread badge and the title, opens it and A sees
 * 'seen'; A types and B sees 'typing…' before the next message arrives. Then the free member: a chat
 * removed while the network fails comes back with the alert; a third conversation is said to be out of
 * reach before anything is typed (the notice, links to /premium and /credits, a disabled composer) and
 * refused by the server; without credits the alert leads to /credits.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { newMember } from './new-member';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';

async function signIn(context: BrowserContext, baseURL: string, email: string): Promise<{ page: Page; id: number; name: string }> {
  await context.addCookies([
    { name: 'lang', value: 'en', url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
  const page = await context.newPage();
  const res = await page.request.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  const user = await res.json();
  return { page, id: user.id, name: user.profile.name };
}

test('CHT-01 CHT-02 CHT-03 CHT-08 CHT-10 NAV-01 NAV-06 a message arrives live with badge and title, is seen, and typing shows first', async ({ browser, baseURL }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const a = await signIn(contextA, baseURL!, 'premium@demo.test');
    const b = await signIn(contextB, baseURL!, 'free@demo.test');

    // B's live stream is open before A writes (the list reloads when a message arrives).
    const streamOpen = b.page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await b.page.goto('/chats');
    await expect(b.page.getByRole('heading', { name: 'Messages' })).toBeVisible();
    await streamOpen;

    const aStream = a.page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await a.page.goto(`/members/${b.id}/chat`);
    await aStream;
    await a.page.getByLabel(`Message to ${b.name}`).fill('Hello there!');
    await a.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(a.page.locator('[data-messages] [data-state="stored"]')).toHaveText(/Hello there!/);

    // B: the conversation appears with its unread count, the nav badge and the title follow.
    const row = b.page.locator(`[data-chat-list] [data-profile-id="${a.id}"]`);
    await expect(row).toBeVisible();
    await expect(row.locator('[data-unread]')).toHaveText('1');
    await expect(b.page.locator('#unread-badge')).toHaveText('1');
    await expect(b.page).toHaveTitle(/^\(1\) /);

    // B opens it: unread 0 (CHT-03) and A sees 'seen' (CHT-10).
    const reopened = b.page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await row.getByRole('link').click();
    await expect(b.page.locator('[data-messages]')).toContainText('Hello there!');
    await expect(a.page.locator('[data-seen]')).toHaveText('Seen');
    await reopened;

    // A types: B sees it, then the message, live. 'Typing' is a passing signal, not kept: B's chat island
    // must be running (hydrated, its live listener on) before A types.
    await expect(b.page.locator('astro-island[ssr]')).toHaveCount(0);
    // While A keeps typing, the signal goes out every 3 s; B sees it (a first one sent while B's stream
    // was still changing hands between its pages is simply followed by the next).
    const composer = a.page.getByLabel(`Message to ${b.name}`);
    await expect(async () => {
      await composer.pressSequentially('Coffee', { delay: 20 });
      await expect(b.page.locator('[data-typing]')).toHaveText(`${a.name} is typing…`, { timeout: 2_000 });
    }).toPass({ timeout: 20_000, intervals: [500, 1_000, 1_000] });
    await composer.fill('Coffee some time?');
    await a.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(b.page.locator('[data-messages]')).toContainText('Coffee some time?');
    await expect(b.page.locator('[data-typing]')).toBeHidden();
    // Each message once on both screens, in order.
    await expect(a.page.locator('[data-messages] .chat-bubble')).toHaveText(['Hello there!', 'Coffee some time?']);
    await expect(b.page.locator('[data-messages] .chat-bubble')).toHaveText(['Hello there!', 'Coffee some time?']);
    // Issue 25: one day separator ('Today'); A's two messages are one group, its time once, under the last.
    await expect(a.page.locator('[data-messages] .chat-day')).toHaveText(['Today']);
    const own = a.page.locator('[data-messages] .chat-message-own');
    await expect(own.nth(0)).toHaveAttribute('data-group-start', '');
    await expect(own.nth(1)).not.toHaveAttribute('data-group-start');
    await expect(own.nth(0).locator('time')).toHaveCount(0);
    await expect(own.nth(1).locator('time')).toHaveCount(1);

    // CHT-07 GFT-01: a gift and a gif from the pickers, an opening line from the icebreakers.
    await a.page.locator('[data-open-gifts]').click();
    await a.page.locator('[data-gift-panel] button').first().click();
    await expect(b.page.locator('[data-messages] img.chat-gift')).toHaveCount(1);
    await a.page.locator('[data-open-gifs]').click();
    await a.page.locator('[data-gif-panel] button:has(img)').first().click();
    await expect(b.page.locator('[data-messages] img.chat-gif')).toHaveCount(1);
    await a.page.locator('[data-open-icebreakers]').click();
    const dialog = a.page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const line = dialog
      .locator('button')
      .filter({ hasNotText: /close|×/i })
      .first();
    const text = (await line.textContent())!.trim();
    await line.click();
    await expect(a.page.getByLabel(`Message to ${b.name}`)).toHaveValue(text);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test('CHT-06 CHT-04 CHT-05 a removal that fails comes back with the alert; a third conversation is refused; without credits the alert leads to /credits', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  try {
    const b = await signIn(context, baseURL!, 'free@demo.test');
    const page = b.page;

    // CHT-06: the row goes at once; the DELETE fails (no network), the alert says so and the page reloads with it.
    // The page's clock is Playwright's: the client's retries (CLI-01, ~9 s of backoff) and the 2.5 s before
    // the reload run when the test moves it, not in real time.
    await page.clock.install();
    await page.goto('/chats');
    const rows = page.locator('[data-chat-list] [data-chat-id]');
    const before = await rows.count();
    expect(before).toBeGreaterThan(0);
    await page.route('**/api/chat.php', (route) => (route.request().method() === 'DELETE' ? route.abort('internetdisconnected') : route.continue()));
    // The removal sits in the row's menu (issue 25): open it, then 'Remove' under the question. Escape
    // closes the menu with the focus back on its button, as a menu does.
    const menu = rows.first().locator('details');
    await rows.first().locator('summary').click();
    await expect(menu).toHaveAttribute('open', '');
    await page.keyboard.press('Escape');
    await expect(menu).not.toHaveAttribute('open');
    await expect(rows.first().locator('summary')).toBeFocused();
    await rows.first().locator('summary').click();
    await rows
      .first()
      .getByRole('button', { name: /Remove/ })
      .click();
    await expect(rows.first()).toBeHidden();
    const failed = page.locator('[data-chat-remove-failed]');
    // Each retry's failure arrives in real time, then its backoff waits on the page's clock: a second at a time.
    await expect(async () => {
      await page.clock.runFor(1_000);
      await expect(failed).toBeVisible({ timeout: 100 });
    }).toPass();
    await expect(failed).toContainText('could not be removed');
    const reloaded = page.waitForEvent('load');
    await page.clock.runFor(2_500);
    await reloaded;
    await expect(page.locator('[data-chat-list] [data-chat-id]')).toHaveCount(before);
    await page.unroute('**/api/chat.php');
    // Off the conversation list before sending: it reloads itself on every live message (CHT-08).
    await page.goto('/settings');

    // CHT-04: the free member starts two conversations (20 credits, 10 a message); the third is refused.
    const chatting = new Set(((await (await page.request.get('/api/chats.php')).json()).chats as Array<{ profile: { id: number } }>).map((c) => c.profile.id));
    const grid = await (await page.request.get('/members')).text();
    const ids = [...grid.matchAll(/data-member-id="(\d+)"/g)].map((m) => Number(m[1])).filter((id) => !chatting.has(id));
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids.slice(0, 2)) {
      const sent = await page.request.post('/api/chat.php', { data: { to: id, client_id: crypto.randomUUID(), body: 'Hi!' } });
      expect(sent.status()).toBe(201);
    }
    // Said before anything is typed, above a disabled composer, with the ways forward; the server still refuses a send.
    await page.goto(`/members/${ids[2]}/chat`);
    const limit = page.locator('[data-chat-limit]');
    await expect(limit).toContainText('at most 2 conversations');
    await expect(page.getByRole('textbox')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await expect(limit.getByRole('link', { name: 'Get Premium' })).toHaveAttribute('href', '/premium');
    await expect(limit.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/credits');
    const refused = await page.request.post('/api/chat.php', { data: { to: ids[2], client_id: crypto.randomUUID(), body: 'Hello!' } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toBe('conversation_limit');

    // CHT-05: no credits left: replying in an existing conversation shows the alert that leads to /credits.
    await page.goto('/chats');
    await page.locator('[data-chat-list] [data-chat-id] a').first().click();
    await page.getByRole('textbox').fill('One more?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const alert = page.locator('[data-chat-alert="insufficient_credits"]');
    await expect(alert).toContainText('Not enough credits');
    await expect(page.getByRole('textbox')).toHaveValue('One more?');
    // Issue 25: the card in the chat offers the site's packages, each linked to its purchase.
    const packages = alert.locator('[data-package-link]');
    await expect(packages.first()).toBeVisible();
    await expect(packages.first()).toHaveAttribute('href', /^\/credits\?package=\d+$/);
    // Its 'Best value' is the lowest price per credit, the package /credits marks too (not the staff's pick).
    const best = alert.locator('[data-package-link]:has(.best-value)');
    await expect(best).toHaveCount(1);
    const bestId = await best.getAttribute('data-package-link');
    await alert.getByRole('link', { name: 'Buy credits' }).click();
    await expect(page).toHaveURL(/\/credits$/);
    await expect(page.locator('[data-best-value]')).toHaveAttribute('data-package', bestId!);
  } finally {
    await context.close();
  }
});

test('CHT-02 issue 25 side by side at 1280 px, one at a time with the composer in view at 360 px, at the newest message before the island hydrates, and jump to newest when scrolled up', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    const a = await signIn(context, baseURL!, 'premium@demo.test');
    const page = a.page;
    // A conversation long enough to scroll on a small phone screen, with a member nobody else in this file writes to.
    const grid = await (await page.request.get('/members')).text();
    const chatting = new Set(((await (await page.request.get('/api/chats.php')).json()).chats as Array<{ profile: { id: number } }>).map((c) => c.profile.id));
    const to = [...grid.matchAll(/data-member-id="(\d+)"/g)].map((m) => Number(m[1])).filter((id) => !chatting.has(id))[0]!;
    let conversation = 0;
    for (let i = 1; i <= 8; i++) {
      const sent = await page.request.post('/api/chat.php', { data: { to, client_id: crypto.randomUUID(), body: `Line ${i} of a longer story that wraps onto a second line on a phone.` } });
      expect(sent.status()).toBe(201);
      conversation = (await sent.json()).message.conversation;
    }

    // Desktop: the list on the left, the chat on the right; the open conversation is marked in the list.
    await page.goto(`/chats/${conversation}`);
    const side = page.locator('.chat-side-list');
    const screen = page.locator('[data-chat-screen]');
    await expect(side).toBeVisible();
    await expect(side.locator(`[data-chat-id="${conversation}"] a`)).toHaveAttribute('aria-current', 'page');
    const [left, right] = [(await side.boundingBox())!, (await screen.boundingBox())!];
    expect(left.x + left.width).toBeLessThanOrEqual(right.x + 1);
    expect(right.width).toBeGreaterThan(600);
    // /chats on a desktop: the list and 'choose a conversation'.
    await page.goto('/chats');
    await expect(page.getByRole('heading', { name: 'Choose a conversation' })).toBeVisible();

    // Phone: one at a time; the composer and the send button are on screen.
    await page.setViewportSize({ width: 360, height: 560 });
    await page.goto(`/chats/${conversation}`);
    await expect(side).toBeHidden();
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await expect(page.getByLabel(/^Message to /)).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeInViewport();
    await expect(page.locator('[data-cost]')).toBeInViewport();

    // Scrolled up, the 'newest' button appears; it brings the newest message back into view and goes.
    const scroller = page.locator('[data-chat-scroller]');
    const newest = page.locator('[data-messages] .chat-message').last();
    await expect(newest).toBeInViewport();
    // Before the island hydrates (its code held back here) the conversation already shows its newest
    // message, not its oldest: a phone on a slow line sees no jump from the oldest to the newest.
    // (Astro retries a failed island import with `?astro-retry=…`: held back too.)
    const islandCode = /\/_astro\/ChatRoom\.[\w-]+\.js(?:\?.*)?$/;
    await page.route(islandCode, (route) => route.abort());
    await page.goto(`/chats/${conversation}`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
    await expect(newest).toBeInViewport();
    // The list is taller than its box, and shown from its bottom.
    const view = await scroller.evaluate((el) => ({ overflow: el.scrollHeight - el.clientHeight, below: el.scrollHeight - el.scrollTop - el.clientHeight }));
    expect(view.overflow).toBeGreaterThan(100);
    expect(view.below).toBeLessThanOrEqual(1);
    await page.unroute(islandCode);
    await page.goto(`/chats/${conversation}`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await expect(newest).toBeInViewport();
    await expect(page.locator('[data-jump-newest]')).toHaveCount(0);
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    const jump = page.locator('[data-jump-newest]');
    await expect(jump).toBeVisible();
    await expect(newest).not.toBeInViewport();
    await jump.click();
    await expect(newest).toBeInViewport();
    await expect(jump).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('CHT-01 at 1280 px a member without conversations sees the empty list across the page, not beside a blank pane', async ({ page, context }) => {
  await newMember(page, context);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/chats');
  const empty = page.locator('[data-chats-empty]');
  await expect(empty).toBeVisible();
  await expect(empty).toContainText('Search members');
  await expect(page.locator('.chat-choose')).toHaveCount(0);
  // The list's column is the page's width, and its empty state stands in the middle of it.
  const list = (await page.locator('.chat-split-list').boundingBox())!;
  const split = (await page.locator('.chat-split').boundingBox())!;
  expect(list.width).toBeGreaterThan(split.width - 2);
  const box = (await empty.boundingBox())!;
  expect(Math.abs(box.x + box.width / 2 - (split.x + split.width / 2))).toBeLessThan(40);
});
