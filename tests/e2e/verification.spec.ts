/**
 * Photo verification in a real browser (VER-01, VER-02; decision 088) with Chromium's fake camera: a
 * member on a 360 px phone, in Dutch, is asked for a pose, takes a selfie with the camera and sends it;
 * a moderator on a desktop, in German, sees it in the verification queue (with its count) beside the
 * member's photos and approves it; the verified mark shows on the member's card in a "verified only"
 * search, on the profile and in the chat. A member who lets only verified members start a conversation
 * (English) is written to by the verified member; a member not verified is told why before typing, on
 * the profile and the chat screen, and the API refuses with its stable code.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { BROWSER_ARGS, browserPath } from '../../scripts/ensure-chromium';
import { staffLogin } from './staff-login';

// The fake camera (a moving test pattern) and no permission prompt: this spec only.
test.use({
  launchOptions: {
    executablePath: browserPath('light'),
    args: [...BROWSER_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

interface Member {
  context: BrowserContext;
  page: Page;
  id: number;
  name: string;
  photoId: number;
}

/** A new member in their own browser: signed up, activated by the mail's link, with a main photo (waiting for review). */
async function newMember(browser: Browser, lang: string, who: { gender: 'female' | 'male'; looking_for: 'female' | 'male' }, device: object): Promise<Member> {
  const base = test.info().project.use.baseURL!;
  const context = await browser.newContext({ baseURL: base, ...device });
  await context.addCookies([
    { name: 'lang', value: lang, url: base },
    { name: 'entry_ok', value: '1', url: base },
  ]);
  const page = await context.newPage();
  const email = `e2e-verify-${randomBytes(5).toString('hex')}@example.com`;
  const name = `Ver${randomBytes(3).toString('hex')}`;
  const signup = await page.request.post('/api/signup.php', { headers: XHR, data: { email, name, password: 'e2e-verify-password-1', date_of_birth: '1990-04-05', ...who } });
  expect(signup.status()).toBe(201);
  await page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
  await page.locator('tbody tr a').first().click();
  await page.goto((await page.locator('[data-mail-links] a').first().getAttribute('href'))!);
  const photo = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#b07050' } })
    .jpeg()
    .toBuffer();
  const uploaded = await page.request.post('/api/photos.php', { headers: { origin: new URL(base).origin }, multipart: { photo: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const user = await (await page.request.get('/api/user.php', { headers: XHR })).json();
  return { context, page, id: user.id, name, photoId: (await uploaded.json()).photo.id };
}

test('VER-01 VER-02 a member takes a selfie in the asked pose with the camera on a phone (nl), a moderator approves it (de), the mark shows on cards, profile and chat, and a first message to a member who accepts verified members only is refused to others', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const anna = await newMember(browser, 'nl', { gender: 'female', looking_for: 'male' }, PHONE);
  const ben = await newMember(browser, 'en', { gender: 'male', looking_for: 'female' }, DESKTOP);
  const carl = await newMember(browser, 'de', { gender: 'male', looking_for: 'female' }, DESKTOP);

  // Anna, on her phone in Dutch: the pose asked, drawn and in words; the camera; the selfie; sent.
  const page = anna.page;
  await page.goto('/verify');
  await expect(page.getByRole('heading', { name: 'Fotoverificatie' })).toBeVisible();
  await expect(page.locator('[data-verify-status]')).toHaveText('Je bent nog niet geverifieerd.');
  const pose = (await page.locator('[data-pose]').getAttribute('data-pose'))!;
  await expect(page.locator('[data-pose-image]')).toHaveAttribute('src', `/poses/${pose}.svg`);
  await expect(page.locator('[data-pose-text]')).not.toBeEmpty();
  // Without a camera the form takes a file (and opens the phone's camera app).
  await expect(page.getByLabel('Geen camera? Kies een foto van jezelf in deze houding')).toHaveAttribute('capture', 'user');
  await page.getByRole('button', { name: 'Camera starten' }).click();
  const video = page.getByLabel('Cameravoorbeeld');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Selfie maken' }).click();
  await expect(page.getByRole('img', { name: 'Je selfie' })).toBeVisible();
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/verification.php') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Selfie versturen' }).click();
  expect((await sent).status()).toBe(201);
  await page.waitForURL(/\/verify\?sent=1$/);
  await expect(page.locator('[data-verify-sent]')).toBeVisible();
  await expect(page.locator('[data-verify-status]')).toHaveText('Je selfie wacht op een moderator.');
  // Her own selfie, never cached; nobody else's browser gets it.
  const selfie = (await page.locator('[data-own-selfie]').getAttribute('src'))!;
  const own = await page.request.get(selfie);
  expect(own.status()).toBe(200);
  expect(own.headers()['cache-control']).toContain('no-store');
  expect((await ben.page.request.get(selfie)).status()).toBe(404);
  expect((await ben.page.request.get(selfie.replace('/verification/selfie/', '/photos/'))).status()).toBe(404);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The moderator, in German: the count on the start page, the queue, the photo approved, then the selfie.
  const base = test.info().project.use.baseURL!;
  const staffContext = await browser.newContext({ baseURL: base, ...DESKTOP });
  // The shared login helper reads the English form; the back office then speaks German.
  await staffContext.addCookies([{ name: 'lang', value: 'en', url: base }]);
  const staff = await staffContext.newPage();
  await staff.goto('/admin/login');
  await staffLogin(staff, 'moderator@demo.test');
  await staffContext.addCookies([{ name: 'lang', value: 'de', url: base }]);
  await staff.goto('/admin');
  await expect(staff.locator('[data-work="verifications"]')).toHaveAttribute('data-count', /^[1-9]\d*$/);
  await staff.goto('/admin/photos');
  await staff.locator(`[data-approve="${anna.photoId}"]`).click();
  await expect(staff.locator(`[data-queue-photo="${anna.photoId}"]`)).toHaveCount(0);
  await staff.getByRole('link', { name: 'Verifizierung' }).click();
  await expect(staff.getByRole('heading', { name: /Fotoverifizierung/ })).toBeVisible();
  const card = staff.locator(`[data-member="${anna.id}"]`);
  await expect(card.getByRole('img', { name: `Verifizierungs-Selfie von ${anna.name}` })).toBeVisible();
  await expect(card.locator(`[data-pose="${pose}"]`)).toContainText('Verlangte Pose:');
  await expect(card.locator(`[data-photo="${anna.photoId}"][data-main]`)).toBeVisible();
  await card.getByRole('button', { name: `Verifizierung von ${anna.name} annehmen` }).click();
  await expect(staff.locator('[data-outcome="approved"]')).toHaveText('Angenommen: Das Mitglied ist verifiziert.');
  await expect(staff.locator(`[data-member="${anna.id}"]`)).toHaveCount(0);
  await staffContext.close();

  // Anna is verified.
  await page.goto('/verify');
  await expect(page.locator('[data-verify-status]')).toHaveText('Je bent geverifieerd: je hoofdfoto is vergeleken met je selfie.');

  // Ben lets only verified members start a conversation with him (English, settings).
  await ben.page.goto('/settings');
  const only = ben.page.locator('#only-verified');
  await expect(only.locator('[data-only-verified-state]')).toHaveText('Every member may start a conversation with you.');
  await only.getByRole('button', { name: 'Only verified members' }).click();
  await expect(ben.page.locator('[data-settings-notice="only_verified_on"]')).toBeVisible();
  await expect(only.locator('[data-only-verified-state]')).toHaveText('Only verified members may start a conversation with you.');

  // Ben finds Anna among verified members only, with the mark (named for screen readers).
  await ben.page.goto('/members?verified=1&gender=female');
  await expect(ben.page.getByLabel('Verified members only')).toBeChecked();
  const annaCard = ben.page.locator(`[data-member-id="${anna.id}"]`);
  await expect(annaCard.getByRole('img', { name: 'Verified profile' })).toBeVisible();
  const cards = ben.page.locator('[data-member-id]');
  expect(await cards.count()).toBe(await ben.page.locator('[data-member-id] [data-verified]').count());

  // Carl (German), not verified: told before typing, on Ben's profile and on the chat screen; the API refuses.
  await carl.page.goto(`/members/${ben.id}`);
  await expect(carl.page.locator('[data-verification-required]')).toContainText('nimmt erste Nachrichten nur von verifizierten Mitgliedern an');
  await expect(carl.page.locator('[data-verify-offer]')).toHaveAttribute('href', '/verify');
  await carl.page.goto(`/members/${ben.id}/chat`);
  await expect(carl.page.locator('[data-verification-required]')).toBeVisible();
  await expect(carl.page.locator('[data-chat-room] textarea')).toHaveCount(0);
  const refused = await carl.page.request.post('/api/chat.php', {
    headers: { ...XHR, origin: new URL(base).origin },
    data: { to: ben.id, client_id: `ver02-${randomBytes(6).toString('hex')}`, kind: 'text', body: 'Hallo!' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: 'verification_required' });

  // Anna, verified, starts the conversation from her phone; Ben sees her mark in his chat list and the chat header.
  await page.goto(`/members/${ben.id}/chat`);
  await page.getByLabel(`Bericht aan ${ben.name}`).fill('Hoi Ben!');
  await page.getByRole('button', { name: 'Versturen', exact: true }).click();
  await expect(page.locator('[data-messages] [data-state="stored"]')).toHaveText(/Hoi Ben!/);
  await ben.page.goto('/chats');
  const row = ben.page.locator(`[data-chat-list] [data-profile-id="${anna.id}"]`);
  await expect(row.getByRole('img', { name: 'Verified profile' })).toBeVisible();
  await row.getByRole('link').first().click();
  await expect(ben.page.locator('.chat-appbar').getByRole('img', { name: 'Verified profile' })).toBeVisible();
  await ben.page.goto(`/members/${anna.id}`);
  await expect(ben.page.locator('.profile-name').getByRole('img', { name: 'Verified profile' })).toBeVisible();

  for (const m of [anna, ben, carl]) await m.context.close();
});
