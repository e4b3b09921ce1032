/**
 * The foundation's endpoints and pages over real HTTP against a real database: in-memory PGlite, and
 * PostgreSQL when it answers (see tests/setup/databases.ts).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageEvents, photos, sessions, users } from '../../src/db/schema';
import { settingsSchema } from '../../src/shared/settings';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe.each(await databaseKinds())('foundation on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ db: kind });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function loginAs(account: { email: string; password: string }, host = 'localhost') {
    const res = await server.request('/api/user.php', { method: 'POST', host, headers: XHR, body: account });
    expect(res.status).toBe(200);
    return { res, token: res.setCookies.session!.value };
  }

  describe('sites and settings', () => {
    it('SITE-01 the request host selects the site; unknown hosts get the default site', async () => {
      const one = (await server.request('/api/settings.php', { host: 'localhost' })).json();
      const two = (await server.request('/api/settings.php', { host: '127.0.0.1' })).json();
      const unknown = (await server.request('/api/settings.php', { host: 'nobody.example' })).json();
      expect(one.id).not.toBe(two.id);
      expect(one.niche).not.toBe(two.niche);
      expect(unknown.id).toBe(one.id);
    });

    it('SITE-01 the forced-domain parameter selects the site whatever the host', async () => {
      const res = await server.request('/api/settings.php?route=index&domain=127.0.0.1', { host: 'localhost' });
      const two = (await server.request('/api/settings.php', { host: '127.0.0.1' })).json();
      expect(res.status).toBe(200);
      expect(res.json().id).toBe(two.id);
    });

    it('SITE-02 every Settings field of SPEC §3 is returned and valid', async () => {
      const body = (await server.request('/api/settings.php')).json();
      const parsed = settingsSchema.parse(body);
      for (const field of [
        'name',
        'index_title',
        'description',
        'domain',
        'domain_language',
        'cdn_prefix',
        'niche',
        'company_id',
        'mail_name',
        'countries',
        'signups',
        'logged_out_search',
        'logged_out_search_trafficsource',
        'geoip_country',
        'geoip_selected_country',
        'enable_site_entry_popup',
        'push_public_key',
        'support_phone',
        'support_email',
        'fictional_icon',
        'fictional_warning',
        'fictional_singular',
        'fictional_plural',
        'visible_profile_fields',
        'visible_profile_notes',
        'search_fields',
        'message_credits',
        'photo_credits',
        'gift_credits',
        'signup_credits',
        'message_length',
        'minimum_message_costs',
        'refund_days',
        'member_resell',
      ]) {
        expect(body, field).toHaveProperty(field);
      }
      expect(parsed.languages.length).toBeGreaterThan(0);
    });

    it('SITE-02 a bad query parameter is a 400 validation_failed JSON error', async () => {
      const res = await server.request(`/api/settings.php?domain=${'x'.repeat(300)}`);
      expect(res.status).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(res.json().message).toEqual(expect.any(String));
    });

    it('SITE-04 domain_language sets the lang cookie when none exists, and only then', async () => {
      const fresh = await server.request('/api/settings.php', { host: '127.0.0.1' });
      expect(fresh.setCookies.lang?.value).toBe('de');
      const again = await server.request('/api/settings.php', { host: '127.0.0.1', cookies: { lang: 'en' } });
      expect(again.setCookies.lang).toBeUndefined();
    });

    it('SITE-05 the support phone is linked cleaned of dashes and spaces', async () => {
      const settings = (await server.request('/api/settings.php')).json();
      const page = await server.request('/', { cookies: { lang: 'en' } });
      expect(settings.support_phone).toMatch(/[ -]/);
      expect(page.text).toContain(`href="tel:${settings.support_phone.replace(/[\s-]/g, '')}"`);
    });

    it('MEM-07 /api/companyinfo.php returns the company with cache headers', async () => {
      const res = await server.request('/api/companyinfo.php');
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ name: expect.any(String), kvk: expect.any(String), vat_numbers: expect.any(Array) });
      expect(res.headers['cache-control']).toContain('max-age=3600');
    });
  });

  describe('languages', () => {
    it('I18N-02 the language comes from the lang cookie (no URL prefix) and it lasts 365 days', async () => {
      const nl = await server.request('/login', { cookies: { lang: 'nl' } });
      const en = await server.request('/login', { cookies: { lang: 'en' } });
      expect(nl.text).toContain('<html lang="nl"');
      expect(en.text).toContain('<html lang="en"');
      expect(en.headers['content-language']).toBe('en');
      const first = await server.request('/login');
      expect(first.setCookies.lang?.raw).toMatch(/Max-Age=31536000/);
    });

    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    const sameOrigin = () => ({ ...FORM, origin: `http://localhost:${server.port}` });

    it('I18N-02 SEC-12 the /lang-config form (POST) switches the language and returns to the page; an unknown one is refused', async () => {
      const res = await server.request('/lang-config', { method: 'POST', headers: sameOrigin(), body: 'lang=de&next=%2Flogin' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/login');
      expect(res.setCookies.lang?.value).toBe('de');
      expect(res.setCookies.lang?.raw).toMatch(/Max-Age=31536000/);
      const bad = await server.request('/lang-config', { method: 'POST', headers: sameOrigin(), cookies: { lang: 'en' }, body: 'lang=xx&next=%2F' });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('data-language-error');
      expect(bad.setCookies.lang).toBeUndefined();
    });

    it('I18N-02 SEC-02 the /lang-config form never redirects to another host', async () => {
      const res = await server.request('/lang-config', { method: 'POST', headers: sameOrigin(), body: 'lang=en&next=%2F%2Fevil.example' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/');
    });

    it('SEC-12 GET /lang-config?lang=de changes nothing: no cookie, the member’s stored language stays; the page lists the languages as POST buttons', async () => {
      const { token, res: login } = await loginAs(DEMO_ACCOUNTS.free);
      const id = login.json().id as number;
      const { db } = server.booted.app;
      const languageOf = async () => (await db.select({ language: users.language }).from(users).where(eq(users.id, id)))[0]?.language;
      const before = await languageOf();
      expect(before).not.toBe('de');
      const res = await server.request('/lang-config?lang=de&next=%2Fmembers', { cookies: { session: token, lang: 'en' } });
      expect(res.status).toBe(200);
      expect(res.setCookies.lang).toBeUndefined();
      expect(await languageOf()).toBe(before);
      expect(res.text).toContain('<html lang="en"');
      expect(res.text).toMatch(/<form method="post" action="\/lang-config"[^>]*>\s*<input type="hidden" name="next" value="\/members"/);
      expect(res.text).toMatch(/<button type="submit" name="lang" value="de"/);
      expect(res.text).not.toContain('href="/lang-config?lang=');
      // The menu on every page is a form too.
      const page = await server.request('/login', { cookies: { lang: 'en' } });
      expect(page.text).toMatch(/class="menu language-menu"[\s\S]*<form method="post" action="\/lang-config"/);
      expect(page.text).not.toContain('href="/lang-config?lang=');
    });

    it('I18N-03 SEC-12 a member’s choice in the language form is stored for their e-mails', async () => {
      const { token, res: login } = await loginAs(DEMO_ACCOUNTS.free);
      const id = login.json().id as number;
      const res = await server.request('/lang-config', { method: 'POST', headers: sameOrigin(), cookies: { session: token }, body: 'lang=it&next=%2Fmembers' });
      expect(res.status).toBe(303);
      expect(res.setCookies.lang?.value).toBe('it');
      const [row] = await server.booted.app.db.select({ language: users.language }).from(users).where(eq(users.id, id));
      expect(row?.language).toBe('it');
      const crossSite = await server.request('/lang-config', { method: 'POST', headers: { ...FORM, origin: 'https://evil.example' }, cookies: { session: token }, body: 'lang=fr&next=%2F' });
      expect(crossSite.status).toBe(403);
      const [after] = await server.booted.app.db.select({ language: users.language }).from(users).where(eq(users.id, id));
      expect(after?.language).toBe('it');
    });

    it('I18N-03 a member’s language change is stored with PUT /api/user.php', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free);
      const res = await server.request('/api/user.php', { method: 'PUT', headers: XHR, cookies: { session: token }, body: { language: 'fr' } });
      expect(res.status).toBe(200);
      expect(res.json().language).toBe('fr');
      expect(res.setCookies.lang?.value).toBe('fr');
      const [row] = await server.booted.app.db.select({ language: users.language }).from(users).where(eq(users.id, res.json().id));
      expect(row?.language).toBe('fr');
    });

    it('I18N-03 an unsupported language or a missing header changes nothing', async () => {
      const { token, res: login } = await loginAs(DEMO_ACCOUNTS.free, '127.0.0.1');
      const id = login.json().id;
      const before = (await server.booted.app.db.select({ language: users.language }).from(users).where(eq(users.id, id)))[0]!.language;
      const notOnSite = await server.request('/api/user.php', { method: 'PUT', host: '127.0.0.1', headers: XHR, cookies: { session: token }, body: { language: 'fi' } });
      expect(notOnSite.status).toBe(400);
      expect(notOnSite.json().error).toBe('unsupported_language');
      const noHeader = await server.request('/api/user.php', { method: 'PUT', host: '127.0.0.1', cookies: { session: token }, body: { language: 'en' } });
      expect(noHeader.json().error).toBe('client_header_required');
      const garbage = await server.request('/api/user.php', { method: 'PUT', host: '127.0.0.1', headers: XHR, cookies: { session: token }, body: '{not json' });
      expect(garbage.status).toBe(400);
      expect(garbage.json().error).toBe('validation_failed');
      const after = (await server.booted.app.db.select({ language: users.language }).from(users).where(eq(users.id, id)))[0]!.language;
      expect(after).toBe(before);
    });
  });

  describe('sessions and login', () => {
    it('AUTH-01 POST /api/user.php logs in and returns the user; GET returns the current user', async () => {
      const { res, token } = await loginAs(DEMO_ACCOUNTS.premium);
      expect(res.json()).toMatchObject({ email: DEMO_ACCOUNTS.premium.email, paid_user: true, profile: { name: expect.any(String) } });
      const me = await server.request('/api/user.php', { cookies: { session: token } });
      expect(me.status).toBe(200);
      expect(me.json().id).toBe(res.json().id);
    });

    it('AUTH-01 GET /api/user.php without a session is 403 authentication_required', async () => {
      const res = await server.request('/api/user.php');
      expect(res.status).toBe(403);
      expect(res.json().error).toBe('authentication_required');
    });

    it('AUTH-01 login needs the client request-type header and creates no session without it', async () => {
      const count = async () => (await server.booted.app.db.select({ n: sql<number>`count(*)::int` }).from(sessions))[0]!.n;
      const before = await count();
      const res = await server.request('/api/user.php', { method: 'POST', body: DEMO_ACCOUNTS.free });
      expect(res.status).toBe(400);
      expect(res.json().error).toBe('client_header_required');
      expect(res.setCookies.session).toBeUndefined();
      expect(await count()).toBe(before);
    });

    it('AUTH-01 wrong password, unknown e-mail and bad bodies get their error codes and no cookie', async () => {
      const wrong = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { ...DEMO_ACCOUNTS.free, password: 'wrong-password' } });
      expect(wrong.status).toBe(401);
      expect(wrong.json().error).toBe('invalid_credentials');
      const unknown = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'nobody@demo.test', password: 'x' } });
      expect(unknown.json().error).toBe('invalid_credentials');
      const missing = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'a@b.c' } });
      expect(missing.status).toBe(400);
      expect(missing.json()).toMatchObject({ error: 'validation_failed', fields: { password: expect.any(String) } });
      for (const r of [wrong, unknown, missing]) expect(r.setCookies.session).toBeUndefined();
    });

    it('AUTH-01 an account of one site cannot log in on another site’s host with another site’s session', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free, 'localhost');
      const other = await server.request('/api/user.php', { host: '127.0.0.1', cookies: { session: token } });
      expect(other.status).toBe(403);
    });

    it('AUTH-04 the session cookie is HttpOnly, SameSite=Lax, 30 days, and Secure behind HTTPS', async () => {
      const { res } = await loginAs(DEMO_ACCOUNTS.free);
      const raw = res.setCookies.session!.raw;
      expect(raw).toMatch(/HttpOnly/i);
      expect(raw).toMatch(/SameSite=Lax/i);
      expect(raw).toMatch(/Max-Age=2592000/);
      expect(raw).not.toMatch(/Secure/i);
    });

    it('AUTH-04 the session is rotated at login: the old token stops working', async () => {
      const first = await loginAs(DEMO_ACCOUNTS.free);
      const second = await server.request('/api/user.php', { method: 'POST', headers: XHR, cookies: { session: first.token }, body: DEMO_ACCOUNTS.free });
      const newToken = second.setCookies.session!.value;
      expect(newToken).not.toBe(first.token);
      expect((await server.request('/api/user.php', { cookies: { session: first.token } })).status).toBe(403);
      expect((await server.request('/api/user.php', { cookies: { session: newToken } })).status).toBe(200);
    });

    it('AUTH-04 only the hash of the token is stored', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free);
      const rows = await server.booted.app.db.select({ id: sessions.id }).from(sessions);
      expect(rows.some((r) => r.id === token)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id))).toBe(true);
    });

    it('SEC-12 a plain GET of /api/logout.php (a link or an image on another site) changes nothing and the session stays valid', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free);
      const attempts: Array<Record<string, string>> = [{}, { accept: 'text/html' }, { 'x-requested-with': 'fetch' }];
      for (const headers of attempts) {
        const res = await server.request('/api/logout.php', { headers, cookies: { session: token } });
        expect(res.status).toBe(400);
        expect(res.json().error).toBe('client_header_required');
        expect(res.setCookies.session).toBeUndefined();
      }
      expect((await server.request('/api/user.php', { cookies: { session: token } })).status).toBe(200);
    });

    it('AUTH-02 SEC-12 GET /api/logout.php with the client request-type header ends the session', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free);
      const out = await server.request('/api/logout.php', { headers: XHR, cookies: { session: token } });
      expect(out.status).toBe(200);
      expect(out.json()).toEqual({ ok: true });
      expect(out.setCookies.session?.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      expect((await server.request('/api/user.php', { cookies: { session: token } })).status).toBe(403);
    });

    it('AUTH-02 SEC-12 the account menu’s logout form (POST) ends the session and goes home; a script’s POST gets { ok: true }; a cross-site post changes nothing', async () => {
      const origin = `http://localhost:${server.port}`;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const first = await loginAs(DEMO_ACCOUNTS.free);
      const crossSite = await server.request('/api/logout.php', { method: 'POST', headers: { ...form, origin: 'https://evil.example' }, cookies: { session: first.token }, body: '' });
      expect(crossSite.status).toBe(403);
      expect((await server.request('/api/user.php', { cookies: { session: first.token } })).status).toBe(200);
      const browser = await server.request('/api/logout.php', { method: 'POST', headers: { ...form, origin }, cookies: { session: first.token }, body: '' });
      expect(browser.status).toBe(303);
      expect(browser.headers.location).toBe('/');
      expect(browser.setCookies.session?.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      expect((await server.request('/api/user.php', { cookies: { session: first.token } })).status).toBe(403);

      const second = await loginAs(DEMO_ACCOUNTS.free);
      const script = await server.request('/api/logout.php', { method: 'POST', headers: { origin }, cookies: { session: second.token }, body: {} });
      expect(script.status).toBe(200);
      expect(script.json()).toEqual({ ok: true });
      expect((await server.request('/api/user.php', { cookies: { session: second.token } })).status).toBe(403);
      // The menu offers the form, not a link.
      const third = await loginAs(DEMO_ACCOUNTS.free);
      const page = await server.request('/members', { cookies: { session: third.token, lang: 'en' } });
      expect(page.text).toMatch(/<form method="post" action="\/api\/logout.php" data-logout><button[^>]*type="submit"/);
      expect(page.text).not.toContain('href="/api/logout.php"');
    });

    it('AUTH-01 the /login form logs in and redirects; a wrong password shows the translated error', async () => {
      const form = (email: string, password: string) => `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}&next=%2Fmembers`;
      const origin = `http://localhost:${server.port}`;
      const bad = await server.request('/login', {
        method: 'POST',
        cookies: { lang: 'en' },
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: form(DEMO_ACCOUNTS.free.email, 'nope'),
      });
      expect(bad.status).toBe(401);
      expect(bad.text).toContain('Login failed, please try again.');
      const good = await server.request('/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: form(DEMO_ACCOUNTS.free.email, DEMO_ACCOUNTS.free.password),
      });
      expect(good.status).toBe(303);
      expect(good.headers.location).toBe('/members');
      expect(good.setCookies.session?.value).toMatch(/^[\w-]{40,}$/);
    });
  });

  describe('navigation and layouts', () => {
    it('NAV-03 visitors get a login button and the language dropdown', async () => {
      const page = await server.request('/', { cookies: { lang: 'en', entry_ok: '1' } });
      expect(page.text).toContain('data-nav="login"');
      expect(page.text).toContain('language-menu');
      expect(page.text).not.toContain('data-nav="messages"');
    });

    it('NAV-01 members get search, messages, likes, credits or premium, language and account menus', async () => {
      const { token } = await loginAs(DEMO_ACCOUNTS.free);
      const page = await server.request('/members', { cookies: { session: token, lang: 'en' } });
      expect(page.status).toBe(200);
      for (const marker of ['href="/members"', 'data-nav="messages"', 'data-nav="likes"', 'language-menu', 'data-account-menu', 'href="/profile"', 'href="/settings"', 'data-logout']) {
        expect(page.text, marker).toContain(marker);
      }
    });

    it('NAV-02 paid users’ credits entry links to repeat order with a badge at 10 or less; others see Get Premium', async () => {
      const free = await loginAs(DEMO_ACCOUNTS.free);
      const freePage = await server.request('/members', { cookies: { session: free.token, lang: 'en' } });
      expect(freePage.text).toContain('data-nav="premium"');
      expect(freePage.text).not.toContain('data-nav="credits"');

      const premium = await loginAs(DEMO_ACCOUNTS.premium);
      const id = premium.res.json().id as number;
      const { db } = server.booted.app;
      const pageWith = async (credits: number) => {
        await db.update(users).set({ credits }).where(eq(users.id, id));
        return (await server.request('/members', { cookies: { session: premium.token, lang: 'en' } })).text;
      };
      const many = await pageWith(50);
      expect(many).toContain('href="/credits/repeat-order"');
      expect(many).not.toContain('data-badge="credits"');
      expect(await pageWith(10)).toMatch(/data-badge="credits" data-variant="warning"[^>]*>10</);
      expect(await pageWith(0)).toMatch(/data-badge="credits" data-variant="danger"[^>]*>0</);
    });

    it('NAV-05 the footer links terms, privacy, cookies, ban, pricing, complaints, return policy, FAQ and support', async () => {
      const page = await server.request('/', { cookies: { lang: 'en' } });
      for (const href of ['/pages/terms', '/pages/privacy', '/pages/cookies', '/pages/ban', '/pricing', '/complaints', '/pages/return-policy', '/pages/faq', '/pages/service']) {
        expect(page.text, href).toContain(`href="${href}"`);
      }
      expect(page.text).toContain('data-footer="logged-out"');
      expect(page.text).toContain('data-footer-app');
    });

    it('LAY-03 the English footer carries the US legal text when the site enables it', async () => {
      const en = await server.request('/', { cookies: { lang: 'en' } });
      const nl = await server.request('/', { cookies: { lang: 'nl' } });
      const otherSite = await server.request('/', { host: '127.0.0.1', cookies: { lang: 'en' } });
      expect(en.text).toContain('data-us-legal');
      expect(nl.text).not.toContain('data-us-legal');
      expect(otherSite.text).not.toContain('data-us-legal');
    });

    it('LAY-02 the entry warning shows until accepted, and accepting is remembered', async () => {
      const first = await server.request('/', { cookies: { lang: 'en' } });
      expect(first.text).toContain('data-entry-warning');
      const origin = `http://localhost:${server.port}`;
      const accept = await server.request('/api/entry-warning.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: 'next=%2Flogin' });
      expect(accept.status).toBe(303);
      expect(accept.headers.location).toBe('/login');
      expect(accept.setCookies.entry_ok?.value).toBe('1');
      const after = await server.request('/', { cookies: { lang: 'en', entry_ok: '1' } });
      expect(after.text).not.toContain('data-entry-warning');
    });

    it('LAY-01 pages render in the default layout with navigation, footer, disclaimer and the client script', async () => {
      const page = await server.request('/', { cookies: { lang: 'en' } });
      expect(page.text).toContain('data-layout="default"');
      expect(page.text).toContain('class="disclaimer');
      expect(page.text).toContain('id="app-boot"');
      expect(page.headers['vary']).toMatch(/Cookie/);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    });

    it('ERR-01 an unknown route shows the 404 page; an unknown API path answers JSON', async () => {
      const page = await server.request('/no/such/page', { cookies: { lang: 'en' } });
      expect(page.status).toBe(404);
      expect(page.text).toContain('This page could not be found');
      expect(page.text).toContain('Back to the home page');
      const api = await server.request('/api/nothing.php');
      expect(api.status).toBe(404);
      expect(api.json().error).toBe('not_found_api');
    });

    it('ERR-01 the 404 page is translated', async () => {
      const page = await server.request('/no/such/page', { cookies: { lang: 'nl' } });
      expect(page.text).toContain('Deze pagina kon niet worden gevonden');
    });

    it('ERR-02 a wrong method on an endpoint is a JSON 405, never a 500', async () => {
      const res = await server.request('/api/settings.php', { method: 'DELETE', headers: { origin: `http://localhost:${server.port}` } });
      expect(res.status).toBe(405);
      expect(res.json().error).toBe('method_not_allowed');
    });
  });

  describe('client beacons and tracking', () => {
    it('CLI-06 POST /api/page-hidden.php takes an empty JSON body and records the event', async () => {
      const { db } = server.booted.app;
      const count = async () =>
        (
          await db
            .select({ n: sql<number>`count(*)::int` })
            .from(pageEvents)
            .where(eq(pageEvents.kind, 'hidden'))
        )[0]!.n;
      const before = await count();
      const ok = await server.request('/api/page-hidden.php', { method: 'POST', body: {}, headers: { referer: `http://localhost:${server.port}/members` } });
      expect(ok.status).toBe(204);
      expect(await count()).toBe(before + 1);
      const bad = await server.request('/api/page-hidden.php', { method: 'POST', body: { anything: 1 } });
      expect(bad.status).toBe(400);
      expect(await count()).toBe(before + 1);
    });

    it('CLI-05 POST /api/page-bounce.php records a bounce and refuses bad bodies', async () => {
      const ok = await server.request('/api/page-bounce.php', { method: 'POST', body: { path: '/landers/video', duration_ms: 1234 } });
      expect(ok.status).toBe(204);
      const bad = await server.request('/api/page-bounce.php', { method: 'POST', body: { path: 'http://x', duration_ms: -1 } });
      expect(bad.status).toBe(400);
      const rows = await server.booted.app.db.select().from(pageEvents).where(eq(pageEvents.kind, 'bounce'));
      expect(rows.map((r) => r.path)).toEqual(['/landers/video']);
    });

    it('CLI-04 a tracking query is stored in a cookie at the first request', async () => {
      const res = await server.request('/?network=adnet&ref=summer&sub1=abc&sub9=ignored');
      const stored = JSON.parse(decodeURIComponent(res.setCookies.tracking!.value));
      expect(stored).toEqual({ network: 'adnet', ref: 'summer', sub1: 'abc' });
      const none = await server.request('/');
      expect(none.setCookies.tracking).toBeUndefined();
    });
  });

  describe('operations', () => {
    it('OPS health: /healthz and /readyz answer with the database kind', async () => {
      expect((await server.request('/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await server.request('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.json().db).toBe(kind);
    });

    it('OPS readiness answers 503 while the process drains', async () => {
      server.booted.app.draining = true;
      try {
        const res = await server.request('/readyz');
        expect(res.status).toBe(503);
        expect(res.json().status).toBe('draining');
      } finally {
        server.booted.app.draining = false;
      }
    });

    it('every response carries a request id', async () => {
      const res = await server.request('/api/settings.php');
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    });

    it('MEM-04 public photos are served with long caching; premium photos only reach premium members', async () => {
      const { db } = server.booted.app;
      const list = await db.select({ id: photos.id, filename: photos.filename }).from(photos).where(eq(photos.status, 'active')).orderBy(photos.id).limit(2);
      const [pub, locked] = list as [{ id: number; filename: string }, { id: number; filename: string }];
      const res = await server.request(`/photos/${pub.filename}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toContain('immutable');
      await db.update(photos).set({ premium: true }).where(eq(photos.id, locked.id));
      try {
        expect((await server.request(`/photos/${locked.filename}`)).status).toBe(404);
        const free = await loginAs(DEMO_ACCOUNTS.free);
        expect((await server.request(`/photos/${locked.filename}`, { cookies: { session: free.token } })).status).toBe(404);
        const premium = await loginAs(DEMO_ACCOUNTS.premium);
        const seen = await server.request(`/photos/${locked.filename}`, { cookies: { session: premium.token } });
        expect(seen.status).toBe(200);
        expect(seen.headers['cache-control']).toMatch(/^private/);
      } finally {
        await db.update(photos).set({ premium: false }).where(eq(photos.id, locked.id));
      }
      expect((await server.request('/photos/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    });

    it("SEC-07 MEM-04 a premium member of site 2 cannot fetch a site-1 member's premium photo; no photo is served under another site's host", async () => {
      const { db } = server.booted.app;
      const siteOne = (await server.request('/api/settings.php', { host: 'localhost' })).json().id as number;
      const [photo] = await db
        .select({ id: photos.id, filename: photos.filename, thumb: photos.thumbFilename })
        .from(photos)
        .innerJoin(users, eq(users.id, photos.userId))
        .where(sql`${users.siteId} = ${siteOne} and ${photos.status} = 'active'`)
        .orderBy(photos.id)
        .limit(1);
      const siteTwoPremium = await loginAs(DEMO_ACCOUNTS.premium, '127.0.0.1');
      const siteOnePremium = await loginAs(DEMO_ACCOUNTS.premium);
      expect(siteTwoPremium.res.json().paid_user).toBe(true);
      await db.update(photos).set({ premium: true }).where(eq(photos.id, photo!.id));
      try {
        for (const name of [photo!.filename, photo!.thumb]) {
          const other = await server.request(`/photos/${name}`, { host: '127.0.0.1', cookies: { session: siteTwoPremium.token } });
          expect(other.status, name).toBe(404);
          expect(other.headers['content-type']).not.toContain('image');
          // The other site's session means nothing on site 1's host either.
          expect((await server.request(`/photos/${name}`, { host: 'localhost', cookies: { session: siteTwoPremium.token } })).status).toBe(404);
          // A premium member of the photo's own site gets it.
          expect((await server.request(`/photos/${name}`, { host: 'localhost', cookies: { session: siteOnePremium.token } })).status).toBe(200);
        }
      } finally {
        await db.update(photos).set({ premium: false }).where(eq(photos.id, photo!.id));
      }
      // Public photos too: served under their own site's host only.
      expect((await server.request(`/photos/${photo!.filename}`, { host: 'localhost' })).status).toBe(200);
      expect((await server.request(`/photos/${photo!.filename}`, { host: '127.0.0.1' })).status).toBe(404);
      expect((await server.request(`/photos/${photo!.filename}`, { host: '127.0.0.1', cookies: { session: siteTwoPremium.token } })).status).toBe(404);
    });
  });
});
