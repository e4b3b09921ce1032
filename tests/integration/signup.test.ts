/** Signup and activation over HTTP against the built server and a real database. */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, profiles, sites, users } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const good = { email: 'nina@example.com', name: 'Nina', password: 'zonnige-dinsdag-42', date_of_birth: '1990-06-01', gender: 'female', looking_for: 'male' };

describe('signup over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const userCount = async () => (await server.booted.app.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

  it('SIGN-04 SIGN-05 each bad field gets its translated error (under 18: the site is for adults) and nothing is stored', async () => {
    const before = await userCount();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...good, email: 'nina@' }, 'email', 'Ongeldige e-mail'],
      [{ ...good, email: 'nina@mailinator.com' }, 'email', 'wegwerp'],
      [{ ...good, name: 'nina@example.com' }, 'name', 'e-mailadres'],
      [{ ...good, name: '@nina' }, 'name', '@'],
      [{ ...good, password: 'qwerty123' }, 'password', 'te vaak'],
      [{ ...good, date_of_birth: '2012-01-01' }, 'date_of_birth', 'Je moet 18 jaar of ouder zijn om lid te worden: deze site is alleen voor volwassenen.'],
      [{ ...good, gender: 'robot' }, 'gender', ''],
    ];
    for (const [body, field, text] of cases) {
      const res = await server.request('/api/signup.php', { method: 'POST', headers: XHR, cookies: { lang: 'nl' }, body });
      expect(res.status, field).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(Object.keys(res.json().fields)).toContain(field);
      if (text) expect(res.json().field_messages[field]).toContain(text);
      expect(res.setCookies.session).toBeUndefined();
    }
    const noHeader = await server.request('/api/signup.php', { method: 'POST', body: good });
    expect(noHeader.json().error).toBe('client_header_required');
    const garbage = await server.request('/api/signup.php', { method: 'POST', headers: XHR, body: '[1,2' });
    expect(garbage.json().error).toBe('validation_failed');
    expect(await userCount()).toBe(before);
  });

  it('SIGN-05 a mistyped domain comes back with a suggestion', async () => {
    const res = await server.request('/api/signup.php', { method: 'POST', headers: XHR, body: { ...good, email: 'nina@gmial.com', password: '1' } });
    expect(res.json().suggestion).toBe('nina@gmail.com');
  });

  it('SIGN-06 ACT-01 signing up logs in, grants the signup credits and mails the activation link that confirms the address', async () => {
    const res = await server.request('/api/signup.php', { method: 'POST', headers: XHR, cookies: { lang: 'en' }, body: good });
    expect(res.status).toBe(201);
    const settings = (await server.request('/api/settings.php')).json();
    expect(res.json()).toMatchObject({ status: 'not_confirmed', credits: settings.signup_credits, paid_user: false, profile: { name: 'Nina', status: 'disabled' } });
    const token = res.setCookies.session!.value;
    expect((await server.request('/api/user.php', { cookies: { session: token } })).json().email).toBe(good.email);
    const [mail] = await server.booted.app.mailer.recent(1, good.email);
    expect(mail!.subject).toContain(settings.name);
    expect(mail!.kind).toBe('activation');
    const link = /http:\/\/localhost:\d+(\/activate\/done\?token=[\w-]+)/.exec(mail!.text)![1]!;
    const done = await server.request(link);
    expect(done.status).toBe(303);
    expect(done.headers.location).toMatch(/^\/activate\/done\?name=Nina/);
    const page = await server.request(done.headers.location as string, { cookies: { lang: 'en', session: token } });
    expect(page.text).toContain('data-activation="done"');
    expect(page.text).toContain('data-promo-cards');
    expect((await server.request('/api/user.php', { cookies: { session: token } })).json().status).toBe('active');
    const again = await server.request(link);
    expect(again.headers.location).toBe('/activate/error?reason=used');
    const errorPage = await server.request('/activate/error?reason=used', { cookies: { lang: 'en' } });
    expect(errorPage.status).toBe(400);
    expect(errorPage.text).toContain('already used');
  });

  it('SIGN-03 the same address cannot sign up twice on one site, but may on another site', async () => {
    const res = await server.request('/api/signup.php', { method: 'POST', headers: XHR, body: { ...good, email: 'NINA@example.com' } });
    expect(res.json().fields.email).toBe('email_taken');
    const other = await server.request('/api/signup.php', { method: 'POST', host: '127.0.0.1', headers: XHR, cookies: { tracking: encodeURIComponent(JSON.stringify({ network: 'n' })) }, body: good });
    expect(other.status).toBe(201);
  });

  it('AUTH-05 a site that needs a traffic source refuses visitors without one', async () => {
    const res = await server.request('/api/signup.php', { method: 'POST', host: '127.0.0.1', headers: XHR, body: { ...good, email: 'x1@example.com' } });
    expect(res.status).toBe(403);
    expect(res.json().error).toBe('signups_closed');
    const page = await server.request('/signup', { host: '127.0.0.1', cookies: { lang: 'en' } });
    expect(page.status).toBe(403);
    expect(page.text).toContain('data-signups-closed');
  });

  it('SEC-09 AUTH-05 a site that needs a traffic source: the API, the page and its form post refuse a visitor without one alike, and take one with it', async () => {
    const host = '127.0.0.1';
    const origin = `http://${host}:${server.port}`;
    const form = (email: string) => new URLSearchParams({ ...good, email, name: 'Fenna' }).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', origin };
    const before = await userCount();
    const api = await server.request('/api/signup.php', { method: 'POST', host, headers: XHR, cookies: { lang: 'en' }, body: { ...good, email: 'nosource-api@example.com' } });
    expect([api.status, api.json().error]).toEqual([403, 'signups_closed']);
    expect(api.setCookies.session).toBeUndefined();
    const post = await server.request('/signup', { method: 'POST', host, headers: formHeaders, cookies: { lang: 'en' }, body: form('nosource-page@example.com') });
    expect(post.status).toBe(403);
    expect(post.text).toContain('data-signups-closed');
    expect(post.setCookies.session).toBeUndefined();
    expect(await userCount()).toBe(before);
    // With a traffic source (cookie, or the query of this very request) both paths sign up.
    const tracking = { tracking: encodeURIComponent(JSON.stringify({ network: 'n' })) };
    expect((await server.request('/signup', { host, cookies: { lang: 'en', ...tracking } })).text).not.toContain('data-signups-closed');
    const viaApi = await server.request('/api/signup.php?network=adnet', { method: 'POST', host, headers: XHR, body: { ...good, email: 'source-api@example.com' } });
    expect(viaApi.status).toBe(201);
    const viaPage = await server.request('/signup', { method: 'POST', host, headers: formHeaders, cookies: tracking, body: form('source-page@example.com') });
    expect(viaPage.status).toBe(303);
    expect(await userCount()).toBe(before + 2);
  });

  it('SEC-09 LND-04 an invite-only site takes no self-signup on any path, with or without a traffic source, and says signups_closed', async () => {
    const { db } = server.booted.app;
    const origin = `http://localhost:${server.port}`;
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', origin };
    const tracking = { tracking: encodeURIComponent(JSON.stringify({ network: 'n' })) };
    const before = await userCount();
    await db.update(sites).set({ inviteOnly: true }).where(eq(sites.id, 1));
    try {
      for (const [label, cookies, query] of [
        ['no source', {}, ''],
        ['source cookie', tracking, ''],
        ['source query', {}, '?network=adnet'],
      ] as const) {
        const api = await server.request(`/api/signup.php${query}`, { method: 'POST', headers: XHR, cookies: { lang: 'en', ...cookies }, body: { ...good, email: 'invite-api@example.com' } });
        expect(api.status, label).toBe(403);
        expect(api.json(), label).toMatchObject({ error: 'signups_closed', message: 'Signing up is not possible on this site right now.' });
        expect(api.setCookies.session, label).toBeUndefined();
        const page = await server.request(`/signup${query}`, { cookies: { lang: 'en', ...cookies } });
        expect(page.status, label).toBe(403);
        expect(page.text, label).toContain('data-signups-closed');
        const post = await server.request(`/signup${query}`, {
          method: 'POST',
          headers: formHeaders,
          cookies: { lang: 'en', ...cookies },
          body: new URLSearchParams({ ...good, email: 'invite-page@example.com' }).toString(),
        });
        expect(post.status, label).toBe(403);
        expect(post.setCookies.session, label).toBeUndefined();
      }
      // Visitor pages offer no signup modal there either.
      expect((await server.request('/', { cookies: { lang: 'en' } })).text).not.toMatch(/SignupModal/);
      expect(await userCount()).toBe(before);
    } finally {
      await db.update(sites).set({ inviteOnly: false }).where(eq(sites.id, 1));
    }
    const open = await server.request('/api/signup.php', { method: 'POST', headers: XHR, body: { ...good, email: 'invite-api@example.com' } });
    expect(open.status).toBe(201);
  });

  it('SIGN-01 the /signup page works without JavaScript: a form post signs up and continues to /complete-signup', async () => {
    const origin = `http://localhost:${server.port}`;
    const form = new URLSearchParams({ ...good, email: 'form@example.com', name: 'Fenna' }).toString();
    const bad = await server.request('/signup', {
      method: 'POST',
      cookies: { lang: 'nl' },
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: form.replace('1990-06-01', '2015-06-01'),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('18+');
    expect(bad.text).toContain('value="form@example.com"');
    const ok = await server.request('/signup', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: form });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/complete-signup');
    expect(ok.setCookies.session?.value).toBeTruthy();
    const [row] = await server.booted.app.db.select().from(users).where(eq(users.email, 'form@example.com'));
    expect(row?.status).toBe('not_confirmed');
  });

  it('SIGN-01 visitors’ pages carry the desktop signup modal island; members’ pages do not', async () => {
    const visitor = await server.request('/', { cookies: { lang: 'en' } });
    expect(visitor.text).toContain('astro-island');
    expect(visitor.text).toMatch(/SignupModal/);
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    const member = await server.request('/members', { cookies: { lang: 'en', session: login.setCookies.session!.value } });
    expect(member.status).toBe(200);
    expect(member.text).not.toMatch(/SignupModal/);
  });

  describe('SIGN-07 the first message written at signup', () => {
    /** A real, confirmed member of site 1 to sign up for, and the new member's signup with a first message. */
    const target = async (skip = 0) => {
      const [row] = await server.booted.app.db
        .select({ id: users.id })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .where(and(eq(users.siteId, 1), eq(users.role, 'member'), eq(users.status, 'active'), eq(profiles.status, 'active'), eq(users.invisible, false)))
        .orderBy(users.id)
        .offset(skip)
        .limit(1);
      return row!.id;
    };
    const signUpFor = async (memberId: number, email: string, message: string) => {
      const res = await server.request('/api/signup.php', {
        method: 'POST',
        headers: XHR,
        cookies: { lang: 'en' },
        body: { ...good, email, name: 'Sanne', member_id: memberId, signup_message: message },
      });
      expect(res.status).toBe(201);
      const [mail] = await server.booted.app.mailer.recent(1, email);
      const link = /http:\/\/localhost:\d+(\/activate\/done\?token=[\w-]+)/.exec(mail!.text)![1]!;
      const [me] = await server.booted.app.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      return { session: res.setCookies.session!.value, link, id: me!.id };
    };
    const sentBetween = (from: number, to: number) =>
      server.booted.app.db
        .select({ body: messages.body, credits: messages.credits })
        .from(messages)
        .where(and(eq(messages.senderId, from), eq(messages.recipientId, to)));

    it('SIGN-07 is delivered once the e-mail is confirmed, paid from the signup credits, and the new member lands in that chat', async () => {
      const memberId = await target();
      const { session, link, id } = await signUpFor(memberId, 'sanne-1@example.com', 'Hoi! Leuk profiel, zin in een praatje?');
      // Not before the confirmation.
      expect(await sentBetween(id, memberId)).toEqual([]);
      const settings = (await server.request('/api/settings.php')).json();
      const done = await server.request(link, { cookies: { lang: 'en', session } });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe(`/members/${memberId}/chat`);
      expect(await sentBetween(id, memberId)).toEqual([{ body: 'Hoi! Leuk profiel, zin in een praatje?', credits: settings.message_credits }]);
      const me = (await server.request('/api/user.php', { cookies: { session } })).json();
      expect(me.credits).toBe(settings.signup_credits - settings.message_credits);
      // The chat opens on the conversation with it.
      const chat = await server.request(done.headers.location as string, { cookies: { lang: 'en', session } });
      expect(chat.status).toBe(302);
      const conversation = await server.request(chat.headers.location as string, { cookies: { lang: 'en', session } });
      expect(conversation.text).toContain('Hoi! Leuk profiel, zin in een praatje?');
      // Confirming again (a used link) sends nothing more.
      await server.request(link, { cookies: { lang: 'en', session } });
      expect(await sentBetween(id, memberId)).toHaveLength(1);
    });

    it('SIGN-07 without enough credits it waits as a draft in that chat, with the reason; a member who cannot be written to drops it', async () => {
      const memberId = await target(1);
      const { session, link, id } = await signUpFor(memberId, 'sanne-2@example.com', 'Zullen we eens afspreken?');
      await server.booted.app.db.update(users).set({ credits: 0 }).where(eq(users.id, id));
      // Confirmed in another browser: to the login, then that chat.
      const done = await server.request(link, { cookies: { lang: 'en' } });
      expect(done.headers.location).toBe(`/login?next=${encodeURIComponent(`/members/${memberId}/chat`)}`);
      expect(await sentBetween(id, memberId)).toEqual([]);
      const chat = await server.request(`/members/${memberId}/chat`, { cookies: { lang: 'en', session } });
      expect(chat.status).toBe(200);
      expect(chat.text).toMatch(/<textarea[^>]*name="body"[^>]*>Zullen we eens afspreken\?<\/textarea>/);
      expect(chat.text).toContain('data-chat-alert="insufficient_credits"');

      const gone = await target(2);
      const other = await signUpFor(gone, 'sanne-3@example.com', 'Hallo daar');
      await server.booted.app.db.update(users).set({ status: 'deleted' }).where(eq(users.id, gone));
      try {
        const after = await server.request(other.link, { cookies: { lang: 'en', session: other.session } });
        expect(after.headers.location).toMatch(/^\/activate\/done\?name=Sanne/);
        expect(await sentBetween(other.id, gone)).toEqual([]);
        const [row] = await server.booted.app.db.select({ message: users.signupMessage }).from(users).where(eq(users.id, other.id));
        expect(row!.message).toBeNull();
      } finally {
        await server.booted.app.db.update(users).set({ status: 'active' }).where(eq(users.id, gone));
      }
    });
  });
});
