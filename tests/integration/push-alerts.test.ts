/**
 * Push, notifications and warning banners over real HTTP against the built app and a real database
 * (PGlite, and PostgreSQL when it answers), with a local HTTP server standing in for the push service.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, appSecrets, pushSubscriptions, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { notify } from '../../src/server/notify/notify';
import { decryptPush, fakeBrowserKeys, startFakePushService, verifyVapidHeader, type FakePushService } from '../../src/server/push/test-push-service';
import { VAPID_SECRET_KEY } from '../../src/server/push/vapid';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe.each(await databaseKinds())('push and alerts on %s', (kind) => {
  let server: TestServer;
  let pushService: FakePushService;
  let signups = 0;

  beforeAll(async () => {
    server = await startTestServer({ db: kind });
    pushService = await startFakePushService((path) => (path.includes('/gone/') ? 410 : 201));
  });
  afterAll(async () => {
    await pushService?.close();
    await server?.close();
  });

  const origin = () => `http://localhost:${server.port}`;

  async function login(account: { email: string; password: string }) {
    const res = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: account });
    expect(res.status).toBe(200);
    return { session: res.setCookies.session!.value, id: res.json().id as number };
  }

  /** A new member: unconfirmed, profile hidden, no photo, activation mail sent (as after signup). */
  async function signUp() {
    signups += 1;
    const email = `member${signups}-${kind}@example.com`;
    const res = await server.request('/api/signup.php', {
      method: 'POST',
      headers: XHR,
      cookies: { lang: 'en' },
      body: { email, name: `Noor${signups}`, password: 'zonnige-dinsdag-42', date_of_birth: '1993-05-17', gender: 'female', looking_for: 'male' },
    });
    expect(res.status, res.text).toBe(201);
    return { session: res.setCookies.session!.value, id: res.json().id as number, email };
  }

  /** DELETE with a JSON body; node's http client sends DELETE bodies without a length unless told. */
  const del = (path: string, session: string, body: unknown, headers: Record<string, string> = XHR) => {
    const text = JSON.stringify(body);
    return server.request(path, { method: 'DELETE', headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) }, cookies: { session }, body: text });
  };

  const page = (path: string, session: string) => server.request(path, { cookies: { session, lang: 'en', entry_ok: '1' } });

  const postForm = (path: string, fields: Record<string, string>, session?: string) =>
    server.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin() },
      body: new URLSearchParams(fields).toString(),
      ...(session ? { cookies: { session, lang: 'en' } } : {}),
    });

  describe('web push', () => {
    it('SITE-02 PUSH-01 push_public_key in /api/settings.php is the VAPID key generated on first start and kept in app_secrets', async () => {
      const settings = (await server.request('/api/settings.php')).json();
      const [row] = await server.booted.app.db.select().from(appSecrets).where(eq(appSecrets.key, VAPID_SECRET_KEY));
      expect(settings.push_public_key).toBe(JSON.parse(row!.value).publicKey);
      expect(Buffer.from(settings.push_public_key, 'base64url')).toHaveLength(65);
      const other = (await server.request('/api/settings.php', { host: '127.0.0.1' })).json();
      expect(other.push_public_key).toBe(settings.push_public_key);
    });

    it('PUSH-01 POST /api/user.php?push=1 registers a subscription for the signed-in member; it needs the header and a login', async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.free);
      const subscription = fakeBrowserKeys().subscription(`${pushService.origin}/push/register-${kind}`);
      const noHeader = await server.request('/api/user.php?push=1', { method: 'POST', cookies: { session }, body: subscription });
      expect(noHeader.status).toBe(400);
      expect(noHeader.json().error).toBe('client_header_required');
      const visitor = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, body: subscription });
      expect(visitor.status).toBe(403);
      expect(visitor.json().error).toBe('authentication_required');
      const bad = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: { ...subscription, keys: { p256dh: 'x', auth: 'y' } } });
      expect(bad.status).toBe(400);
      expect(bad.json().error).toBe('validation_failed');
      const ok = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: subscription });
      expect(ok.status).toBe(201);
      const rows = await server.booted.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint));
      expect(rows.map((r) => [r.userId, r.p256dh, r.auth])).toEqual([[id, subscription.keys.p256dh, subscription.keys.auth]]);
      // Registering again is harmless (one row).
      await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: subscription });
      expect(await server.booted.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint))).toHaveLength(1);
      // Login still works on the same path without ?push.
      expect((await server.request('/api/user.php', { method: 'POST', headers: XHR, body: DEMO_ACCOUNTS.free })).status).toBe(200);
      await del('/api/user.php?push=1', session, {});
    });

    it("SEC-06 PUSH-01 endpoints off the known push services are refused (the audit's hosts); the real services' endpoints are taken", async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.free);
      for (const endpoint of [
        'https://localtest.me/push',
        'https://metadata.google.internal/computeMetadata/v1/',
        'https://100.64.0.1/push',
        'https://[::127.0.0.1]/push',
        'https://[64:ff9b::7f00:1]/push',
        'https://169.254.169.254/latest/meta-data/',
      ]) {
        const res = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: fakeBrowserKeys().subscription(endpoint) });
        expect(res.status, endpoint).toBe(400);
        expect(res.json(), endpoint).toMatchObject({ error: 'validation_failed', fields: { endpoint: expect.stringMatching(/^(unknown_push_service|private_address)$/) } });
      }
      expect(await server.booted.app.push.subscriptionsOf(id)).toEqual([]);
      const real = `https://fcm.googleapis.com/fcm/send/sec06-${kind}:APA91b`;
      const ok = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: fakeBrowserKeys().subscription(real) });
      expect(ok.status).toBe(201);
      await del('/api/user.php?push=1', session, {});
    });

    it("SEC-06 PUSH-01 posting another member's endpoint answers 409 push_endpoint_in_use, names nobody, and leaves it with its owner", async () => {
      const owner = await login(DEMO_ACCOUNTS.free);
      const other = await login(DEMO_ACCOUNTS.premium);
      const browser = fakeBrowserKeys();
      const endpoint = `${pushService.origin}/push/owned-${kind}`;
      await del('/api/user.php?push=1', owner.session, {});
      expect((await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session: owner.session }, body: browser.subscription(endpoint) })).status).toBe(201);
      const stolen = await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session: other.session, lang: 'en' }, body: fakeBrowserKeys().subscription(endpoint) });
      expect(stolen.status).toBe(409);
      expect(stolen.json().error).toBe('push_endpoint_in_use');
      expect(stolen.text).not.toContain(DEMO_ACCOUNTS.free.email);
      expect(stolen.text).not.toContain(String(owner.id));
      const rows = await server.booted.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
      expect(rows.map((r) => [r.userId, r.p256dh])).toEqual([[owner.id, browser.subscription(endpoint).keys.p256dh]]);
      // A push for the owner still reaches the owner's browser.
      const arriving = pushService.next();
      await notify(server.booted.app, owner.id, { type: 'like_received', fromUserId: other.id });
      expect(JSON.parse(decryptPush((await arriving).body, browser))).toMatchObject({ url: `/likes/m/${other.id}` });
      await del('/api/user.php?push=1', owner.session, {});
    });

    it('PUSH-01 DELETE /api/user.php?push=1 ends the subscription', async () => {
      const { session } = await login(DEMO_ACCOUNTS.free);
      const subscription = fakeBrowserKeys().subscription(`${pushService.origin}/push/delete-${kind}`);
      await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: subscription });
      const noHeader = await del('/api/user.php?push=1', session, { endpoint: subscription.endpoint }, {});
      expect(noHeader.status).toBe(400);
      const res = await del('/api/user.php?push=1', session, { endpoint: subscription.endpoint });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true, removed: 1 });
      expect(await server.booted.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint))).toHaveLength(0);
      expect((await del('/api/user.php', session, {})).status).toBe(405);
    });

    it('PUSH-02 a like reaches the registered browser as a real Web Push request and the mailbox as an e-mail', async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.free);
      const liker = await login(DEMO_ACCOUNTS.premium);
      const browser = fakeBrowserKeys();
      const endpoint = `${pushService.origin}/push/like-${kind}`;
      await del('/api/user.php?push=1', session, {});
      await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: browser.subscription(endpoint) });
      const arriving = pushService.next();
      const result = await notify(server.booted.app, id, { type: 'like_received', fromUserId: liker.id }, { origin: origin() });
      expect(result).toMatchObject({ type: 'delivered', mail: { type: 'ok' } });
      const request = await arriving;
      expect(request.method).toBe('POST');
      expect(request.path).toBe(`/push/like-${kind}`);
      expect(Number(request.headers.ttl)).toBeGreaterThan(0);
      expect(request.headers['content-encoding']).toBe('aes128gcm');
      expect(verifyVapidHeader(request.headers.authorization, pushService.origin).k).toBe((await server.request('/api/settings.php')).json().push_public_key);
      expect(JSON.parse(decryptPush(request.body, browser))).toMatchObject({ title: 'Nieuwe like', body: 'Mark vindt je leuk', url: `/likes/m/${liker.id}` });
      const [mail] = (await server.booted.app.mailer.recent(20, DEMO_ACCOUNTS.free.email)).filter((m) => m.kind === 'notify_like');
      expect(mail!.subject).toContain('Mark');
      expect(mail!.text).toContain(`${origin()}/likes/m/${liker.id}`);
      await del('/api/user.php?push=1', session, {});
    });

    it('PUSH-02 a subscription the push service answers 410 for is deleted', async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.free);
      const liker = await login(DEMO_ACCOUNTS.premium);
      const endpoint = `${pushService.origin}/push/gone/${kind}`;
      await del('/api/user.php?push=1', session, {});
      await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: fakeBrowserKeys().subscription(endpoint) });
      const arriving = pushService.next();
      const result = await notify(server.booted.app, id, { type: 'match', fromUserId: liker.id });
      expect((await arriving).path).toBe(`/push/gone/${kind}`);
      expect(result).toMatchObject({ type: 'delivered', push: { type: 'ok', value: { sent: 0, removed: 1 } } });
      expect(await server.booted.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint))).toHaveLength(0);
    });

    it('PUSH-02 with new messages switched off, a new message sends neither push nor mail', async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.free);
      const writer = await login(DEMO_ACCOUNTS.premium);
      await server.request('/api/user.php?push=1', { method: 'POST', headers: XHR, cookies: { session }, body: fakeBrowserKeys().subscription(`${pushService.origin}/push/quiet-${kind}`) });
      await server.booted.app.db
        .update(users)
        .set({ notificationsDisabled: ['new_messages'] })
        .where(eq(users.id, id));
      try {
        const pushes = pushService.received.length;
        const mails = (await server.booted.app.mailer.recent(100, DEMO_ACCOUNTS.free.email)).length;
        expect(await notify(server.booted.app, id, { type: 'new_message', fromUserId: writer.id })).toEqual({ type: 'skipped', reason: 'disabled' });
        expect(pushService.received.length).toBe(pushes);
        expect((await server.booted.app.mailer.recent(100, DEMO_ACCOUNTS.free.email)).length).toBe(mails);
      } finally {
        await server.booted.app.db.update(users).set({ notificationsDisabled: [] }).where(eq(users.id, id));
        await del('/api/user.php?push=1', session, {});
      }
    });

    it('PUSH-01 SET-01 the settings screen has the labelled push block with the site’s VAPID key', async () => {
      const { session } = await login(DEMO_ACCOUNTS.free);
      const res = await page('/settings', session);
      expect(res.status).toBe(200);
      expect(res.text).toContain('aria-labelledby="push-settings-title"');
      expect(res.text).toContain('data-push-settings');
      expect(res.text).toContain((await server.request('/api/settings.php')).json().push_public_key);
    });

    it('PUSH-01 the service worker is served from the site root', async () => {
      const res = await server.request('/sw.js');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('javascript');
      expect(res.text).toContain("addEventListener('push'");
      expect(res.text).toContain("addEventListener('notificationclick'");
    });
  });

  describe('alerts', () => {
    it('ALR-01 a member without a photo sees the photo alert on a generic page, not on profile or settings', async () => {
      const { session } = await signUp();
      expect((await page('/members', session)).text).toContain('data-alert="enrich"');
      expect((await page('/profile', session)).text).not.toContain('data-alert="enrich"');
      expect((await page('/settings', session)).text).not.toContain('data-alert="enrich"');
      const { session: withPhoto } = await login(DEMO_ACCOUNTS.free);
      expect((await page('/members', withPhoto)).text).not.toContain('data-alert="enrich"');
    });

    it('ALR-01 visitors see no alerts', async () => {
      const res = await server.request('/login', { cookies: { lang: 'en' } });
      expect(res.text).not.toContain('data-alerts');
    });

    it('ALR-04 dismissing by form post stores the time and returns to the page; the alert stays hidden', async () => {
      const { session, id } = await signUp();
      const res = await postForm('/api/alert-dismiss.php', { alert: 'enrich', next: '/members?page=2' }, session);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/members?page=2');
      const [row] = await server.booted.app.db.select({ dismissals: users.dismissals }).from(users).where(eq(users.id, id));
      expect(Date.now() - Date.parse(row!.dismissals.enrich!)).toBeLessThan(60_000);
      expect((await page('/members', session)).text).not.toContain('data-alert="enrich"');
      // Off-site targets are refused.
      expect((await postForm('/api/alert-dismiss.php', { alert: 'enrich', next: '//evil.example/' }, session)).headers.location).toBe('/');
    });

    it('ALR-04 dismissing by JSON answers the dismissals; bad alerts and visitors are refused', async () => {
      const { session } = await signUp();
      const res = await server.request('/api/alert-dismiss.php', { method: 'POST', cookies: { session }, body: { alert: 'push' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.json().dismissals)).toEqual(['push']);
      expect((await page('/members', session)).text).not.toContain('data-alert="push"');
      const bad = await server.request('/api/alert-dismiss.php', { method: 'POST', cookies: { session }, body: { alert: 'everything' } });
      expect(bad.status).toBe(400);
      const visitor = await server.request('/api/alert-dismiss.php', { method: 'POST', body: { alert: 'push' } });
      expect(visitor.status).toBe(403);
      const visitorForm = await postForm('/api/alert-dismiss.php', { alert: 'push', next: '/members' });
      expect(visitorForm.status).toBe(303);
      expect(visitorForm.headers.location).toBe('/login?next=%2Fmembers');
      const crossSite = await server.request('/api/alert-dismiss.php', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
        cookies: { session },
        body: 'alert=enrich&next=%2F',
      });
      expect(crossSite.status).toBe(403);
    });

    it('ALR-02 the push alert is rendered hidden for the browser to show; not on premium or notifications', async () => {
      const { session } = await signUp();
      const members = (await page('/members', session)).text;
      expect(members).toMatch(/<div[^>]*data-alert="push"[^>]*hidden/);
      expect(members).toContain('data-push-enable');
      expect((await page('/premium', session)).text).not.toContain('data-alert="push"');
      expect((await page('/notifications', session)).text).not.toContain('data-alert="push"');
      expect((await page('/settings', session)).text).toContain('data-alert="push"');
    });

    it('ALR-03 the disabled-notifications alert shows until dismissed, and again when the list changes; not on settings', async () => {
      const { session, id } = await login(DEMO_ACCOUNTS.premium);
      const db = server.booted.app.db;
      await db
        .update(users)
        .set({ notificationsDisabled: ['news'], dismissals: {} })
        .where(eq(users.id, id));
      try {
        expect((await page('/members', session)).text).toContain('data-alert="notifications_disabled"');
        expect((await page('/settings', session)).text).not.toContain('data-alert="notifications_disabled"');
        expect((await page('/notifications', session)).text).not.toContain('data-alert="notifications_disabled"');
        await server.request('/api/alert-dismiss.php', { method: 'POST', cookies: { session }, body: { alert: 'notifications_disabled' } });
        expect((await page('/members', session)).text).not.toContain('data-alert="notifications_disabled"');
        await db
          .update(users)
          .set({ notificationsDisabled: ['news', 'promotions'] })
          .where(eq(users.id, id));
        expect((await page('/members', session)).text).toContain('data-alert="notifications_disabled"');
      } finally {
        await db.update(users).set({ notificationsDisabled: [], dismissals: {} }).where(eq(users.id, id));
      }
    });
  });

  describe('activation reminder', () => {
    it('ACT-02 an unconfirmed member sees the reminder alert; with api_signup_complete a modal; not on signup, settings or notifications', async () => {
      const { session, email } = await signUp();
      const members = (await page('/members', session)).text;
      expect(members).toContain('data-activation-alert');
      expect(members).toContain(email);
      expect(members).not.toContain('data-activation-modal');
      const modal = (await page('/members?api_signup_complete=1', session)).text;
      expect(modal).toMatch(/<dialog[^>]*data-activation-modal/);
      // The alert stays in the page for smartphones, marked to show only below 768 px.
      expect(modal).toMatch(/activation-alert-phone/);
      for (const path of ['/settings', '/notifications', '/signup']) {
        const res = await page(`${path}?api_signup_complete=1`, session);
        expect(res.text, path).not.toContain('data-activation-alert');
        expect(res.text, path).not.toContain('data-activation-modal');
      }
    });

    it('ACT-02 a confirmed member or one with disabled notifications gets no reminder', async () => {
      const { session, id } = await signUp();
      await server.booted.app.db
        .update(users)
        .set({ notificationsDisabled: ['news'] })
        .where(eq(users.id, id));
      expect((await page('/members', session)).text).not.toContain('data-activation-alert');
      const { session: confirmed } = await login(DEMO_ACCOUNTS.free);
      expect((await page('/members', confirmed)).text).not.toContain('data-activation-alert');
    });

    it('ACT-02 "send again" mails a new link at most once per 10 minutes, the signup mail included, with a translated refusal', async () => {
      const { session, id, email } = await signUp();
      const activationMails = async () => (await server.booted.app.mailer.recent(20, email)).filter((m) => m.kind === 'activation').length;
      expect(await activationMails()).toBe(1);
      // Right after signup: refused.
      const early = await server.request('/api/activation-mail.php', { method: 'POST', cookies: { session, lang: 'en' }, body: {} });
      expect(early.status).toBe(429);
      expect(early.json()).toMatchObject({ error: 'activation_mail_too_soon', minutes: 10 });
      expect(early.json().message).toBe('We just sent you an e-mail. You can request a new one in 10 minutes.');
      const earlyForm = await postForm('/api/activation-mail.php', { next: '/members?api_signup_complete=1' }, session);
      expect(earlyForm.status).toBe(303);
      expect(earlyForm.headers.location).toBe('/members?api_signup_complete=1&activation_mail=too_soon&activation_mail_minutes=10');
      expect((await page('/members?activation_mail=too_soon&activation_mail_minutes=10', session)).text).toContain('You can request a new one in 10 minutes.');
      expect(await activationMails()).toBe(1);
      // Eleven minutes later (the signup mail's token is older): one more mail, then refused again.
      await server.booted.app.db
        .update(accountTokens)
        .set({ createdAt: sql`${accountTokens.createdAt} - interval '11 minutes'` })
        .where(and(eq(accountTokens.userId, id), eq(accountTokens.kind, 'activation')));
      const sent = await postForm('/api/activation-mail.php', { next: '/members' }, session);
      expect(sent.headers.location).toBe('/members?activation_mail=sent');
      expect(await activationMails()).toBe(2);
      const again = await server.request('/api/activation-mail.php', { method: 'POST', cookies: { session, lang: 'en' }, body: {} });
      expect(again.status).toBe(429);
      expect(await activationMails()).toBe(2);
    });

    it('ACT-02 a confirmed member cannot ask for an activation mail; visitors must log in', async () => {
      const { session } = await login(DEMO_ACCOUNTS.free);
      const res = await server.request('/api/activation-mail.php', { method: 'POST', cookies: { session }, body: {} });
      expect(res.status).toBe(409);
      expect(res.json().error).toBe('already_confirmed');
      expect((await server.request('/api/activation-mail.php', { method: 'POST', body: {} })).status).toBe(403);
    });
  });
});
