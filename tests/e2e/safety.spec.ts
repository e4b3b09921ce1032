/**
 * Safety in the chat in a real browser (SAFE-01, SAFE-02). A new member asks for money and WhatsApp; the
 * recipient sees the message arrive live with the calm safety notice (the sender never sees it), and
 * reports it in two taps — the notice's link, then a reason — blocking in the same step. On a desktop a
 * member reports a conversation from the chat's app bar; a moderator sees the counts on the back
 * office's start page, the report with its messages, and warns the member, whose mail arrives.
 * Phone (360 px) in Dutch, desktop in English, the moderator in German.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { staffLogin } from './staff-login';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PASSWORD = 'demo-password-1';
const PHONE = { width: 360, height: 740 };

async function context(browser: Browser, baseURL: string, lang: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  const ctx = await browser.newContext(viewport ? { viewport, isMobile: true, hasTouch: true } : {});
  await ctx.addCookies([
    { name: 'lang', value: lang, url: baseURL },
    { name: 'entry_ok', value: '1', url: baseURL },
  ]);
  return ctx;
}

async function signIn(ctx: BrowserContext, email: string): Promise<{ page: Page; id: number }> {
  const page = await ctx.newPage();
  const res = await page.request.post('/api/user.php', { headers: XHR, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return { page, id: (await res.json()).id };
}

/** A new member of site 1 (20 signup credits), signed in on a page of its own. */
async function newMember(ctx: BrowserContext): Promise<{ page: Page; id: number; name: string; email: string }> {
  const page = await ctx.newPage();
  const email = `safety-${randomBytes(5).toString('hex')}@example.com`;
  const name = `Sam${randomBytes(2).toString('hex')}`;
  const res = await page.request.post('/api/signup.php', {
    headers: XHR,
    data: { email, name, password: 'a safety test passphrase 2026', date_of_birth: '1990-05-06', gender: 'male', looking_for: 'female' },
  });
  expect(res.status()).toBe(201);
  return { page, id: (await res.json()).id, name, email };
}

async function send(page: Page, to: number, body: string): Promise<{ safety_notice: boolean; conversation: number; id: number }> {
  const res = await page.request.post('/api/chat.php', { headers: XHR, data: { to, client_id: randomUUID(), kind: 'text', body } });
  expect(res.status()).toBe(201);
  return (await res.json()).message;
}

test('SAFE-01 SAFE-02 phone, Dutch: a money request arrives live with the safety notice and is reported in two taps, blocking the sender', async ({ browser, baseURL }) => {
  const senderContext = await context(browser, baseURL!, 'en');
  const phone = await context(browser, baseURL!, 'nl', PHONE);
  try {
    const sender = await newMember(senderContext);
    const recipient = await signIn(phone, 'free@demo.test');
    const first = await send(sender.page, recipient.id, 'Hoi! Hoe gaat het?');
    expect(first.safety_notice).toBe(false);

    const stream = recipient.page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await recipient.page.goto(`/chats/${first.conversation}`);
    await stream;
    await expect(recipient.page.locator('astro-island[ssr]')).toHaveCount(0);
    await expect(recipient.page.locator('[data-messages]')).toContainText('Hoe gaat het?');
    await expect(recipient.page.locator('[data-safety-notice]')).toHaveCount(0);

    // Live: the notice travels with the message. The sender's own answer never carries it.
    const asking = await send(sender.page, recipient.id, 'Kun je me wat geld sturen? Of app me op W h a t s A p p');
    expect(asking.safety_notice).toBe(false);
    const notice = recipient.page.locator(`[data-message-id="${asking.id}"] [data-safety-notice]`);
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Veiligheidstip');
    await expect(recipient.page.locator('[data-safety-notice]')).toHaveCount(1);
    // The notice fits the phone's width.
    const box = await notice.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);

    // Tap 1: the notice's link opens the report sheet with the message; tap 2: a reason sends it.
    await notice.getByRole('link', { name: 'Dit bericht melden' }).tap();
    const sheet = recipient.page.getByRole('dialog', { name: `${sender.name} melden` });
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('[data-report-message-field]')).toHaveValue(String(asking.id));
    await sheet.getByLabel(`${sender.name} ook blokkeren`).check();
    await sheet.getByRole('button', { name: 'Vraagt om geld of betaalgegevens' }).tap();

    // Blocked in the same step: the conversation is gone, the chat list says so.
    await expect(recipient.page).toHaveURL(/\/chats\?reported=1$/);
    await expect(recipient.page.locator('[data-reported]')).toHaveText('Bedankt. Onze moderatoren bekijken je melding, en je hebt dit lid geblokkeerd.');
    await expect(recipient.page.locator(`[data-chat-list] [data-profile-id="${sender.id}"]`)).toHaveCount(0);
  } finally {
    await senderContext.close();
    await phone.close();
  }
});

test('SAFE-01 SAFE-02 desktop: a member reports a conversation from the app bar; a moderator sees the counts and the report, and warns the member', async ({ browser, baseURL }) => {
  // Three people, a staff login and six pages.
  test.setTimeout(90_000);
  const senderContext = await context(browser, baseURL!, 'en');
  const desktop = await context(browser, baseURL!, 'en');
  const staffContext = await context(browser, baseURL!, 'en');
  try {
    const sender = await newMember(senderContext);
    const recipient = await signIn(desktop, 'premium@demo.test');
    const first = await send(sender.page, recipient.id, 'Hello! Nice profile.');
    const stream = recipient.page.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await recipient.page.goto(`/chats/${first.conversation}`);
    await stream;
    await expect(recipient.page.locator('astro-island[ssr]')).toHaveCount(0);
    const asking = await send(sender.page, recipient.id, 'Could you buy me a gift card? I will pay you back, promise');
    await expect(recipient.page.locator(`[data-message-id="${asking.id}"] [data-safety-notice]`)).toContainText('Safety tip');

    // Tap 1: 'Report' in the app bar; tap 2: a reason. No block: back in the chat, with the thanks.
    await recipient.page.locator('.chat-appbar').getByRole('link', { name: 'Report' }).click();
    const sheet = recipient.page.getByRole('dialog', { name: `Report ${sender.name}` });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByLabel(`Also block ${sender.name}`)).not.toBeChecked();
    await sheet.getByLabel('Anything to add? (optional)').fill('Wants gift cards');
    await sheet.getByRole('button', { name: 'Spam or advertising' }).click();
    await expect(recipient.page).toHaveURL(new RegExp(`/chats/${first.conversation}\\?reported=1$`));
    await expect(recipient.page.locator('[data-reported]')).toHaveText('Thank you. Our moderators will look at your report.');
    await expect(recipient.page.locator('[data-messages]')).toContainText('gift card');

    // The moderator (German): the start page counts the member's flagged message.
    const staff = await staffContext.newPage();
    await staff.goto('/admin');
    await staffLogin(staff, 'moderator@demo.test');
    // The back office in German from here (the login helper reads the English form).
    await staffContext.addCookies([{ name: 'lang', value: 'de', url: baseURL! }]);
    await staff.goto('/admin');
    const row = staff.locator(`[data-safety-counts] [data-safety-member="${sender.id}"]`);
    await expect(row).toHaveAttribute('data-count', '1');
    await expect(staff.getByRole('heading', { name: /Sicherheitshinweis/ })).toBeVisible();

    // The report in the queue, with its messages, the reported one marked, and the warning.
    await staff.goto('/admin/complaints');
    const entry = staff.locator('[data-complaints] tr', { hasText: `#${sender.id}` }).last();
    await expect(entry.locator('[data-report-reason="spam"]')).toBeVisible();
    await entry.getByRole('link').first().click();
    await expect(staff.locator(`[data-report="${sender.id}"]`)).toBeVisible();
    await expect(staff.locator('[data-evidence] [data-evidence-message]')).toHaveCount(2);
    await expect(staff.locator(`[data-evidence-message="${asking.id}"]`)).toContainText('Sicherheitshinweis');
    await expect(staff.locator('[data-complaint-message]')).toHaveText('Wants gift cards');
    await staff.getByRole('button', { name: 'Per E-Mail verwarnen' }).click();
    await expect(staff.locator('[data-done="warn"]')).toHaveText('Das Mitglied wurde per E-Mail verwarnt.');

    // The warning reached the member, in our words.
    await sender.page.goto(`/dev/mail?to=${encodeURIComponent(sender.email)}`);
    await expect(sender.page.getByText('A warning about your account', { exact: false }).first()).toBeVisible();
  } finally {
    await senderContext.close();
    await desktop.close();
    await staffContext.close();
  }
});
