/**
 * The time bonus on the pages over HTTP on the built app (TB-01, TB-02): a member who signed up just now
 * gets the banner with the server's end time (signup + 4 h) on every members-area page, and the script
 * with it; with credits 0 also the modal, until it is dismissed (the JSON call of the script or the form
 * post of its "use the discount" button); a paid member, a signup 4 hours or more ago, a member who bought
 * with the bonus and visitors get neither banner nor script.
 */
import { and, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, users } from '../../src/db/schema';
import { spend } from '../../src/server/credits/ledger';
import { TIME_BONUS_MS } from '../../src/server/payments/discounts';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const SCRIPT = 'TimeBonusBanner.astro_astro_type_script';

interface Member {
  id: number;
  session: string;
  signup: Date;
}

describe('time bonus pages', () => {
  let server: TestServer;
  const db = () => server.booted.app.db;
  const origin = () => `http://localhost:${server.port}`;
  const as = (who: { session: string }) => ({ cookies: { lang: 'en', entry_ok: '1', session: who.session }, headers: { origin: origin() } });
  const page = async (who: { session: string }, path: string) => {
    const res = await server.request(path, as(who));
    expect(res.status, path).toBe(200);
    return res.text;
  };
  const form = (who: { session: string }, path: string, fields: Record<string, string>) =>
    server.request(path, {
      method: 'POST',
      cookies: as(who).cookies,
      headers: { origin: origin(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  /** Signs a new member up through the API (logged in at once, with the site's signup credits). */
  async function signup(): Promise<Member> {
    const email = `tb-${randomBytes(5).toString('hex')}@example.com`;
    const res = await server.request('/api/signup.php', {
      method: 'POST',
      headers: XHR,
      cookies: { lang: 'en' },
      body: { email, name: `Tess${randomBytes(2).toString('hex')}`, password: 'time bonus passphrase 2026', date_of_birth: '1991-05-06', gender: 'female', looking_for: 'male' },
    });
    expect(res.status).toBe(201);
    const [row] = await db()
      .select({ id: users.id, signup: users.signupDate })
      .from(users)
      .where(and(eq(users.email, email), eq(users.siteId, 1)));
    await db().update(profiles).set({ country: 'NL' }).where(eq(profiles.userId, row!.id));
    return { id: row!.id, session: res.setCookies.session!.value, signup: row!.signup };
  }
  const spendAll = async (who: Member) => {
    const [row] = await db().select({ credits: users.credits }).from(users).where(eq(users.id, who.id));
    if (row!.credits > 0) await spend(db(), { memberId: who.id, amount: row!.credits, reason: 'test', reference: `test-tb-${who.id}` });
  };
  const endsAt = (who: Member) => new Date(who.signup.getTime() + TIME_BONUS_MS).toISOString();

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('TB-01 TB-02 a new free member’s members pages carry the banner with the server’s end time and the time left, and its script', async () => {
    const member = await signup();
    const someone = /href="\/members\/(\d+)"/.exec(await page(member, '/members'))![1];
    for (const path of ['/members', `/members/${someone}`, '/chats', '/likes', '/likes/given', `/likes/m/${someone}`, '/premium']) {
      const res = await server.request(path, as(member));
      expect(res.status, path).toBe(200);
      const html = res.text;
      expect(html, path).toContain('data-time-bonus="TIMEBONUS25"');
      expect(html, path).toContain(`data-ends-at="${endsAt(member)}"`);
      const left = Number(/data-seconds-left="(\d+)"/.exec(html)?.[1]);
      expect(left, path).toBeGreaterThan(4 * 3600 - 120);
      expect(left, path).toBeLessThanOrEqual(4 * 3600);
      // The time left as text (works without JavaScript), a timer that is not announced every second.
      expect(html).toMatch(/role="timer" aria-live="off"[^>]*data-time-bonus-timer[^>]*>[34]:\d\d:\d\d</);
      expect(html).toContain('href="/credits" data-time-bonus-link');
      expect(html).toContain('Time bonus: 25% off!');
      expect(html, path).toContain(SCRIPT);
      // The member still has the signup credits: no modal.
      expect(html, path).not.toContain('data-time-bonus-modal');
    }
    // Outside the members area, and for visitors: none of it.
    const profile = await page(member, '/profile');
    expect(profile).not.toContain('data-time-bonus');
    expect(profile).not.toContain(SCRIPT);
    const visitor = await server.request('/premium', { cookies: { lang: 'en', entry_ok: '1' } });
    expect(visitor.text).not.toContain('data-time-bonus');
    expect(visitor.text).not.toContain(SCRIPT);
  });

  it('TB-02 with credits 0 the modal comes with the banner; its dismissal sticks on the next pages (the banner stays)', async () => {
    const member = await signup();
    await spendAll(member);
    const first = await page(member, '/members');
    expect(first).toContain('data-time-bonus-modal');
    expect(first).toMatch(/<dialog[^>]*data-time-bonus-modal/);
    const dismissed = await server.request('/api/alert-dismiss.php', { method: 'POST', body: { alert: 'time_bonus' }, headers: { ...XHR, origin: origin() }, cookies: as(member).cookies });
    expect(dismissed.status).toBe(200);
    expect(dismissed.json().dismissals.time_bonus).toBeTruthy();
    for (const path of ['/members', '/likes', '/chats']) {
      const html = await page(member, path);
      expect(html, path).toContain('data-time-bonus="TIMEBONUS25"');
      expect(html, path).not.toContain('data-time-bonus-modal');
    }
  });

  it('TB-02 the modal’s "use the discount" form stores the dismissal and goes on to /credits, without JavaScript', async () => {
    const member = await signup();
    await spendAll(member);
    expect(await page(member, '/likes')).toContain('data-time-bonus-modal');
    const used = await form(member, '/api/alert-dismiss.php', { alert: 'time_bonus', next: '/credits' });
    expect(used.status).toBe(303);
    expect(used.headers.location).toBe('/credits');
    expect(await page(member, '/credits')).toContain('data-active-discount="TIMEBONUS25"');
    expect(await page(member, '/likes')).not.toContain('data-time-bonus-modal');
  });

  it('TB-01 a signup 4 hours or more ago gets none; 30 s before the end the banner counts the last 30 s', async () => {
    const member = await signup();
    const now = server.booted.app.clock.now().getTime();
    await db()
      .update(users)
      .set({ signupDate: new Date(now - TIME_BONUS_MS + 30_000) })
      .where(eq(users.id, member.id));
    const late = await page(member, '/members');
    const left = Number(/data-seconds-left="(\d+)"/.exec(late)?.[1]);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(30);
    await db()
      .update(users)
      .set({ signupDate: new Date(now - TIME_BONUS_MS) })
      .where(eq(users.id, member.id));
    const over = await page(member, '/members');
    expect(over).not.toContain('data-time-bonus');
    expect(over).not.toContain(SCRIPT);
  });

  it('TB-01 a paid member gets none, nor does a member once the bonus is used (a purchase with it makes them paid)', async () => {
    const premium = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'premium@demo.test', password: 'demo-password-1' } })).setCookies.session!.value;
    await db()
      .update(users)
      .set({ signupDate: new Date(server.booted.app.clock.now().getTime() - 3600_000) })
      .where(and(eq(users.email, 'premium@demo.test'), eq(users.siteId, 1)));
    const paidPage = await page({ session: premium }, '/members');
    expect(paidPage).not.toContain('data-time-bonus');
    expect(paidPage).not.toContain(SCRIPT);

    // A new member buys a package with the time bonus through the simulated checkout.
    const member = await signup();
    const pkg = /name="package" value="(\d+)"/.exec(await page(member, '/credits'))![1]!;
    const chosen = await form(member, '/credits', { package: pkg, method: 'ideal', issuer: 'INGBNL2A' });
    expect(chosen.status).toBe(303);
    const confirm = await page(member, chosen.headers.location as string);
    expect(confirm).toContain('TIMEBONUS25');
    const key = /name="key" value="([^"]+)"/.exec(confirm)![1]!;
    const started = await form(member, (chosen.headers.location as string).split('?')[0]!, { key, issuer: 'INGBNL2A' });
    expect(started.status).toBe(303);
    const checkout = new URL(started.headers.location as string);
    // The payer's choice on the simulated checkout, as the member who started it (SEC-14: only they may).
    const paid = await form(member, checkout.pathname, { choice: 'paid' });
    expect(paid.status).toBe(303);
    const [row] = await db().select({ paid: users.paidUser }).from(users).where(eq(users.id, member.id));
    expect(row!.paid).toBe(true);
    for (const path of ['/members', '/likes']) {
      const html = await page(member, path);
      expect(html, path).not.toContain('data-time-bonus');
      expect(html, path).not.toContain(SCRIPT);
    }
    expect((await server.request('/api/discountcode.php', as(member))).json()).toEqual({ discount: null });
  });
});
