/**
 * Direct debit over HTTP on the built app (DD-01, DD-02, CRD-08): the /directdebit form without
 * script, IBANs and mobile numbers checked, the blocklist, the SMS code read from the offline outbox
 * (/dev/sms), codes that expire and are used once, three wrong codes → blocked for direct debit, the
 * SMS rate limits, the direct-debit limit per period, a purchase paid on the member's own mandate, no
 * member ever seeing another's mandate, and the HTTP SMS adapter against a local fake gateway.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import { composeIBAN } from 'ibantools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditPackages, directDebitAccounts, directDebitBlocklist, directDebitCodes, directDebitMandates, loginThrottle, payments, profiles, smsOutbox } from '../../src/db/schema';
import { maskIban, maskMobile } from '../../src/server/directdebit/validate';
import { startTestServer, type TestServer } from '../setup/server';
import { totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
type Member = { id: number; session: string };

let counter = 0;
/** A distinct valid Dutch mobile number per call (the rate limits count per number). */
const nextMobile = () => `06${String(20000000 + ++counter * 7919).padStart(8, '0')}`;
const e164 = (national: string) => `+31${national.slice(1)}`;

function harness(server: () => TestServer) {
  const db = () => server().booted.app.db;
  const origin = () => `http://localhost:${server().port}`;
  const as = (who: { session: string }, extra: Record<string, string> = {}) => ({ cookies: { lang: 'en', session: who.session }, headers: { origin: origin(), ...extra } });
  const post = (who: { session: string }, path: string, fields: Record<string, string>) =>
    server().request(path, { ...as(who, { 'content-type': 'application/x-www-form-urlencoded' }), method: 'POST', body: new URLSearchParams(fields).toString() });
  async function signup(name: string): Promise<Member> {
    const res = await server().request('/api/signup.php', {
      method: 'POST',
      headers: XHR,
      cookies: { lang: 'en' },
      body: {
        email: `${name.toLowerCase()}-${Date.now()}-${++counter}@example.com`,
        name,
        password: 'direct debit passphrase 2026',
        date_of_birth: '1990-04-12',
        gender: 'female',
        looking_for: 'male',
      },
    });
    expect(res.status).toBe(201);
    const id = res.json().id as number;
    await db().update(profiles).set({ country: 'NL' }).where(eq(profiles.userId, id));
    return { id, session: res.setCookies.session!.value };
  }
  const details = (overrides: Record<string, string> = {}) => ({
    step: 'details',
    accountHolder: 'Anna de Vries',
    iban: 'NL91 ABNA 0417 1643 00',
    street: 'Keizersgracht',
    houseNumber: '12a',
    zip: '1015 CJ',
    city: 'Amsterdam',
    mobile: nextMobile(),
    ...overrides,
  });
  const mandatesOf = (id: number) => db().select().from(directDebitMandates).where(eq(directDebitMandates.userId, id)).orderBy(desc(directDebitMandates.id));
  const smsTo = (mobile: string) => db().select().from(smsOutbox).where(eq(smsOutbox.toNumber, mobile)).orderBy(desc(smsOutbox.id));
  const codeIn = (text: string) => /code is (\d{6})/.exec(text)?.[1] ?? '';
  return { db, origin, as, post, signup, details, mandatesOf, smsTo, codeIn };
}

describe('direct debit', () => {
  let server: TestServer;
  const h = harness(() => server);
  let pkg: typeof creditPackages.$inferSelect;
  beforeAll(async () => {
    server = await startTestServer();
    [pkg] = (await h
      .db()
      .select()
      .from(creditPackages)
      .where(and(eq(creditPackages.siteId, 1), eq(creditPackages.active, true)))
      .orderBy(creditPackages.priceCents)
      .limit(1)) as [typeof creditPackages.$inferSelect];
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Details posted, the code read from the offline SMS viewer, confirmed: the member's active mandate. */
  async function setUpMandate(who: Member, extra: Record<string, string> = {}) {
    const fields = h.details(extra);
    const sent = await h.post(who, '/directdebit', fields);
    expect(sent.status).toBe(303);
    const viewer = await server.request(`/dev/sms?to=${encodeURIComponent(e164(fields.mobile))}`);
    expect(viewer.status).toBe(200);
    const code = h.codeIn(viewer.text);
    expect(code).toMatch(/^\d{6}$/);
    const confirmed = await h.post(who, '/directdebit', { step: 'confirm', code, ...(extra.package ? { package: extra.package } : {}) });
    expect(confirmed.status).toBe(303);
    const [mandate] = await h.mandatesOf(who.id);
    return { fields, code, confirmed, mandate: mandate! };
  }

  it('DD-01 /directdebit is for members: a visitor goes to the login with the way back', async () => {
    const res = await server.request('/directdebit?package=3', { cookies: { lang: 'en' } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent('/directdebit?package=3')}`);
  });

  it('DD-01 the form works without script: every field labelled, posted to the page itself, the phone keyboard for the number', async () => {
    const who = await h.signup('Form');
    const page = await server.request('/directdebit', h.as(who));
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(page.text).toContain('<form method="post" action="/directdebit"');
    for (const [field, label] of [
      ['accountHolder', 'Account holder'],
      ['iban', 'IBAN'],
      ['street', 'Street'],
      ['houseNumber', 'House number'],
      ['zip', 'Postcode'],
      ['city', 'City'],
      ['mobile', 'Mobile number'],
    ]) {
      expect(page.text).toContain(`<label class="form-label" for="directdebit-${field}">${label}</label>`);
      expect(page.text).toContain(`id="directdebit-${field}" name="${field}"`);
    }
    expect(page.text).toMatch(/id="directdebit-mobile"[^>]*inputmode="tel"/);
    // The page's own content needs no script (the layout's scripts are progressive extras).
    const main = page.text.slice(page.text.indexOf('<main'), page.text.indexOf('</main>'));
    expect(main).toContain('data-details-form');
    expect(main).not.toContain('<script');
    expect(main).not.toContain('astro-island');
  });

  it('DD-01 malformed IBANs and phone numbers are refused with a clear text; nothing is stored, no SMS sent', async () => {
    const who = await h.signup('Malformed');
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ iban: 'NL91 ABNA 0417 1643 01' }, 'iban', 'This IBAN is not correct (the check digits do not match). Please check it.'],
      [{ iban: 'hello world' }, 'iban', 'This is not valid. Please check what you entered.'],
      [{ iban: 'BR18 0036 0305 0000 1000 9795 493C 1' }, 'iban', 'Direct debit is not possible for accounts in this country. Use an IBAN from a SEPA country.'],
      [{ iban: '' }, 'iban', 'Please fill in this field.'],
      [{ mobile: '020 1234567' }, 'mobile', 'This is not a mobile number. Please enter a mobile number.'],
      [{ mobile: '06 12' }, 'mobile', 'This is not valid. Please check what you entered.'],
      [{ mobile: '<b>0612345678</b>' + 'x'.repeat(40) }, 'mobile', 'Use at most 24 characters.'],
      [{ accountHolder: 'x'.repeat(71) }, 'accountHolder', 'Use at most 70 characters.'],
      [{ zip: '!!' }, 'zip', 'This is not valid. Please check what you entered.'],
    ];
    for (const [overrides, field, text] of cases) {
      const res = await h.post(who, '/directdebit', h.details(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.text).toContain(`data-field-error="${field}"`);
      expect(res.text).toContain(text);
      expect(res.text).toContain('aria-invalid="true"');
    }
    // Garbage in any shape: never a 500.
    for (const body of ['step=details&iban=%00%00', 'step=nope', '', 'step=confirm&code=%E2%80%AE']) {
      const res = await server.request('/directdebit', { ...h.as(who, { 'content-type': 'application/x-www-form-urlencoded' }), method: 'POST', body });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
    expect(await h.mandatesOf(who.id)).toHaveLength(0);
    expect(await h.db().select().from(smsOutbox).where(eq(smsOutbox.userId, who.id))).toHaveLength(0);
  });

  it('DD-02 a blocked IBAN or mobile number is refused; nothing is stored, no SMS sent', async () => {
    const who = await h.signup('Blocklisted');
    const iban = composeIBAN({ countryCode: 'NL', bban: 'RABO0123456789' })!;
    const mobile = nextMobile();
    await h
      .db()
      .insert(directDebitBlocklist)
      .values([
        { kind: 'iban', value: iban, reason: 'chargebacks' },
        { kind: 'mobile', value: e164(mobile), reason: 'fraud' },
      ]);
    const byIban = await h.post(who, '/directdebit', h.details({ iban: iban.toLowerCase() }));
    expect(byIban.status).toBe(403);
    expect(byIban.text).toContain('This bank account cannot be used for direct debit.');
    const byMobile = await h.post(who, '/directdebit', h.details({ mobile: `+31 ${mobile.slice(1)}` }));
    expect(byMobile.status).toBe(403);
    expect(byMobile.text).toContain('This mobile number cannot be used for direct debit.');
    expect(await h.mandatesOf(who.id)).toHaveLength(0);
    expect(await h.smsTo(e164(mobile))).toHaveLength(0);
  });

  it('DD-01 DD-02 the code comes by SMS (offline outbox, /dev/sms on this machine only), is stored hashed, confirms the mandate once; its reference is shown', async () => {
    const who = await h.signup('Happy');
    const fields = h.details();
    const sent = await h.post(who, '/directdebit', fields);
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe('/directdebit');
    const step = await server.request('/directdebit', h.as(who));
    expect(step.text).toContain('data-code-step');
    expect(step.text).toContain('<label class="form-label" for="directdebit-code">SMS code</label>');
    expect(step.text).toContain('autocomplete="one-time-code"');
    const [sms] = await h.smsTo(e164(fields.mobile));
    expect(sms).toMatchObject({ userId: who.id, kind: 'directdebit_code', status: 'outbox' });
    const code = h.codeIn(sms!.text);
    const [stored] = await h.db().select().from(directDebitCodes).where(eq(directDebitCodes.userId, who.id));
    expect(stored!.codeHash).not.toContain(code);
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(10 * 60_000);
    // The viewer: not through a proxy, not by another host name.
    expect((await server.request('/dev/sms', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    expect((await server.request('/dev/sms', { host: 'evil.example' })).status).toBe(404);

    const ok = await h.post(who, '/directdebit', { step: 'confirm', code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/directdebit?confirmed=1');
    const [mandate] = await h.mandatesOf(who.id);
    expect(mandate).toMatchObject({ status: 'active', iban: 'NL91ABNA0417164300', mobile: e164(fields.mobile), accountHolder: 'Anna de Vries', zip: '1015 CJ' });
    expect(mandate!.reference).toMatch(/^DD1-\d+-[A-Z0-9]{10}$/);
    const shown = await server.request('/directdebit?confirmed=1', h.as(who));
    expect(shown.text).toContain(`Your direct-debit mandate is confirmed. Mandate reference: ${mandate!.reference}.`);
    expect(shown.text).toMatch(new RegExp(`data-mandate-reference[^>]*>${mandate!.reference}<`));
    expect(shown.text).toContain('NL91 **** **** **43 00');
    expect(shown.text).not.toContain('NL91ABNA0417164300');

    // Reused: the code was used; nothing changes, and it does not count as a wrong code.
    const again = await h.post(who, '/directdebit', { step: 'confirm', code });
    expect(again.status).toBe(400);
    expect(again.text).toContain('There is no open code (it was already used or replaced).');
    expect((await h.mandatesOf(who.id)).map((m) => m.status)).toEqual(['active']);
    // (The member's counter row exists since the first attempt, which took it before comparing: SEC-19.)
    expect((await h.db().select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, who.id))).map((r) => [r.wrongCodes, r.blockedAt])).toEqual([[0, null]]);
  });

  it('DD-02 an expired code is refused with its text and confirms nothing; a new code works and the old one no longer does', async () => {
    const who = await h.signup('Expired');
    const fields = h.details();
    await h.post(who, '/directdebit', fields);
    const first = h.codeIn((await h.smsTo(e164(fields.mobile)))[0]!.text);
    await h
      .db()
      .update(directDebitCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(directDebitCodes.userId, who.id));
    const late = await h.post(who, '/directdebit', { step: 'confirm', code: first });
    expect(late.status).toBe(400);
    expect(late.text).toContain('This code has expired. Request a new code.');
    expect((await h.mandatesOf(who.id))[0]!.status).toBe('pending');

    const resent = await h.post(who, '/directdebit', { step: 'resend' });
    expect(resent.status).toBe(303);
    expect((await server.request(resent.headers.location as string, h.as(who))).text).toContain('We sent a new code by SMS to');
    const second = h.codeIn((await h.smsTo(e164(fields.mobile)))[0]!.text);
    if (second !== first) {
      const old = await h.post(who, '/directdebit', { step: 'confirm', code: first });
      expect(old.text).toContain('This code is not correct. Attempts left: 2.');
    }
    expect((await h.post(who, '/directdebit', { step: 'confirm', code: second })).status).toBe(303);
    expect((await h.mandatesOf(who.id))[0]!.status).toBe('active');
  });

  it('DD-02 a wrong code three times blocks the account for direct debit; it is told so, and direct debit is refused from then on', async () => {
    const who = await h.signup('Wrong');
    const fields = h.details();
    await h.post(who, '/directdebit', fields);
    const code = h.codeIn((await h.smsTo(e164(fields.mobile)))[0]!.text);
    const wrong = code === '000000' ? '111111' : '000000';
    const malformed = await h.post(who, '/directdebit', { step: 'confirm', code: '12ab' });
    expect(malformed.text).toContain('Enter the 6-digit code from the SMS.');
    expect((await h.post(who, '/directdebit', { step: 'confirm', code: wrong })).text).toContain('Attempts left: 2.');
    expect((await h.post(who, '/directdebit', { step: 'confirm', code: wrong })).text).toContain('Attempts left: 1.');
    const third = await h.post(who, '/directdebit', { step: 'confirm', code: wrong });
    expect(third.status).toBe(403);
    expect(third.text).toContain('You entered a wrong code three times. Your account is now blocked for direct debit.');
    const [state] = await h.db().select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, who.id));
    expect(state).toMatchObject({ wrongCodes: 3, blockedReason: 'wrong_codes' });
    expect(state!.blockedAt).toBeInstanceOf(Date);
    // Even the right code does nothing now.
    expect((await h.post(who, '/directdebit', { step: 'confirm', code })).status).toBe(403);
    expect((await h.mandatesOf(who.id)).map((m) => m.status)).toEqual(['abandoned']);
    const page = await server.request('/directdebit', h.as(who));
    expect(page.text).toContain('data-directdebit-blocked');
    expect(page.text).toContain('Your account is blocked for direct debit.');
    expect(page.text).not.toContain('data-details-form');
    const again = await h.post(who, '/directdebit', h.details());
    expect(again.status).toBe(403);
    expect(await h.mandatesOf(who.id)).toHaveLength(1);
    const confirm = await server.request(`/credits/${pkg.id}/directdebit`, h.as(who));
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('data-payment-error="directdebit_blocked"');
    expect(confirm.text).not.toContain('data-pay-form');
    const pay = await h.post(who, `/credits/${pkg.id}/directdebit`, { key: 'blocked-member-key-1' });
    expect(pay.status).toBe(403);
    expect(await h.db().select().from(payments).where(eq(payments.userId, who.id))).toHaveLength(0);
  });

  it('DD-02 codes are rate-limited per number (3 an hour) and per member (8 a day), saying how long to wait; another number works at once', async () => {
    const a = await h.signup('RateA');
    const b = await h.signup('RateB');
    const mobile = nextMobile();
    for (let i = 0; i < 2; i++) expect((await h.post(a, '/directdebit', h.details({ mobile }))).status).toBe(303);
    expect((await h.post(b, '/directdebit', h.details({ mobile }))).status).toBe(303);
    const fourth = await h.post(b, '/directdebit', h.details({ mobile }));
    expect(fourth.status).toBe(429);
    expect(fourth.text).toMatch(/This number has already had 3 codes in the last hour\. Try again in (60|59) minutes, or check the number and enter the right one\./);
    expect(await h.smsTo(e164(mobile))).toHaveLength(3);
    // b mistyped it: the right number gets its code at once.
    expect((await h.post(b, '/directdebit', h.details())).status).toBe(303);
    // Per member: six more numbers for a (8 codes in the day), then the ninth request is refused until a time.
    for (let i = 0; i < 6; i++) expect((await h.post(a, '/directdebit', h.details())).status).toBe(303);
    const ninth = await h.post(a, '/directdebit', h.details());
    expect(ninth.status).toBe(429);
    expect(ninth.text).toMatch(/You have requested the most codes allowed for one day\. Try again on /);
    expect((await h.post(a, '/directdebit', { step: 'resend' })).status).toBe(429);
    expect(await h.db().select().from(smsOutbox).where(eq(smsOutbox.userId, a.id))).toHaveLength(8);
    expect(
      (
        await h
          .db()
          .select()
          .from(loginThrottle)
          .where(eq(loginThrottle.key, `dd-sms-member:${a.id}`))
      )[0]!.blockedUntil,
    ).toBeInstanceOf(Date);
  });

  it("DD-01 CRD-02 paying by direct debit: without a mandate to /directdebit and back to the purchase; with one the payment carries the member's own mandate (a forged one is ignored)", async () => {
    const who = await h.signup('Payer');
    const pay = await h.post(who, `/credits/${pkg.id}/directdebit`, { key: 'no-mandate-key-1', mandateReference: 'FORGED-123' });
    expect(pay.status).toBe(303);
    expect(pay.headers.location).toBe(`/directdebit?package=${pkg.id}`);
    expect(await h.db().select().from(payments).where(eq(payments.userId, who.id))).toHaveLength(0);
    const form = await server.request(pay.headers.location as string, h.as(who));
    expect(form.text).toContain(`name="package" value="${pkg.id}"`);

    const { confirmed, mandate } = await setUpMandate(who, { package: String(pkg.id) });
    expect(confirmed.headers.location).toBe(`/credits/${pkg.id}/directdebit`);
    const page = await server.request(`/credits/${pkg.id}/directdebit`, h.as(who));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-summary-mandate="${mandate.reference}"`);
    const key = /name="key" value="([^"]+)"/.exec(page.text)![1]!;
    const started = await h.post(who, `/credits/${pkg.id}/directdebit`, { key, mandateReference: 'FORGED-123' });
    expect(started.status).toBe(303);
    expect(new URL(started.headers.location as string).pathname).toMatch(/^\/checkout\/simulated\/sim_/);
    const [payment] = await h.db().select().from(payments).where(eq(payments.userId, who.id));
    expect(payment).toMatchObject({ method: 'directdebit', mandateReference: mandate.reference, status: 'pending', amountCents: pkg.priceCents + 19 - payment!.discountCents });
  });

  it('CRD-08 DD-02 the direct debit limit per period: over it the member sees "Direct debit limit reached" and nothing is started', async () => {
    const who = await h.signup('Limit');
    await setUpMandate(who);
    const limit = server.booted.app.config.DIRECT_DEBIT_LIMIT_CENTS;
    const now = new Date();
    await h
      .db()
      .insert(payments)
      .values({
        siteId: 1,
        userId: who.id,
        packageId: pkg.id,
        credits: 1,
        amountCents: limit - 1,
        currency: 'EUR',
        method: 'directdebit',
        provider: 'simulated',
        idempotencyKey: `${who.id}:limit-seed`,
        status: 'paid',
        createdAt: now,
        updatedAt: now,
        settledAt: now,
      });
    const page = await server.request(`/credits/${pkg.id}/directdebit`, h.as(who));
    expect(page.text).toContain('data-payment-error="directdebit_limit_reached"');
    expect(page.text).toContain('Direct debit limit reached. Please choose another payment method or try again later.');
    expect(page.text).not.toContain('data-pay-form');
    const res = await h.post(who, `/credits/${pkg.id}/directdebit`, { key: 'over-the-limit-key-1' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Direct debit limit reached.');
    expect(await h.db().select().from(payments).where(eq(payments.userId, who.id))).toHaveLength(1);
    // Outside the period the old collection no longer counts.
    const old = new Date(now.getTime() - 31 * 24 * 3600_000);
    await h.db().update(payments).set({ createdAt: old }).where(eq(payments.userId, who.id));
    expect((await server.request(`/credits/${pkg.id}/directdebit`, h.as(who))).text).toContain('data-pay-form');
    // Another method is not limited.
    expect((await server.request(`/credits/${pkg.id}/card`, h.as(who))).text).toContain('data-pay-form');
  });

  it("DD-01 another member's mandate, number and code are never visible or usable", async () => {
    const owner = await h.signup('Owner');
    const fields = h.details({ iban: composeIBAN({ countryCode: 'NL', bban: 'INGB0001234567' })! });
    await h.post(owner, '/directdebit', fields);
    const code = h.codeIn((await h.smsTo(e164(fields.mobile)))[0]!.text);
    const stranger = await h.signup('Stranger');
    const pendingView = await server.request('/directdebit', h.as(stranger));
    expect(pendingView.text).not.toContain('data-code-step');
    const stolen = await h.post(stranger, '/directdebit', { step: 'confirm', code });
    expect(stolen.status).toBe(400);
    expect(stolen.text).toContain('There is no open code');
    expect((await h.mandatesOf(owner.id))[0]!.status).toBe('pending');
    expect((await h.post(owner, '/directdebit', { step: 'confirm', code })).status).toBe(303);
    const [mandate] = await h.mandatesOf(owner.id);
    for (const path of ['/directdebit', '/directdebit?confirmed=1', `/credits/${pkg.id}/directdebit`]) {
      const res = await server.request(path, h.as(stranger));
      expect(res.text, path).not.toContain(mandate!.reference);
      expect(res.text, path).not.toContain(maskIban(mandate!.iban));
      expect(res.text, path).not.toContain(maskMobile(mandate!.mobile));
    }
    // And the other site (127.0.0.1) knows nothing of it either.
    const free2 = await server.request('/api/user.php', { method: 'POST', host: '127.0.0.1', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    const session = free2.setCookies.session!.value;
    expect((await server.request('/directdebit', { host: '127.0.0.1', cookies: { lang: 'en', session } })).text).not.toContain(mandate!.reference);
  });
});

describe('direct debit with an HTTP SMS gateway (a local fake)', () => {
  let server: TestServer;
  let gateway: Server;
  const received: Array<{ auth: string | undefined; body: Record<string, unknown> }> = [];
  let failNext = false;
  const h = harness(() => server);
  beforeAll(async () => {
    gateway = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        received.push({ auth: req.headers.authorization, body });
        if (failNext) {
          failNext = false;
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
          return;
        }
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `msg-${received.length}` }));
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    server = await startTestServer({ env: { SMS_GATEWAY_URL: `http://127.0.0.1:${port}/v1/sms`, SMS_GATEWAY_TOKEN: 'fake-gateway-token-0123456789', SMS_SENDER: 'Dating' } });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it('DD-02 the code goes to the gateway as JSON with the bearer token; the outbox records it as sent; /dev/sms is closed', async () => {
    const who = await h.signup('Gateway');
    const fields = h.details();
    const res = await h.post(who, '/directdebit', fields);
    expect(res.status).toBe(303);
    expect(received).toHaveLength(1);
    expect(received[0]!.auth).toBe('Bearer fake-gateway-token-0123456789');
    expect(received[0]!.body).toMatchObject({ from: 'Dating', to: e164(fields.mobile) });
    const code = h.codeIn(String(received[0]!.body.text));
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await h.smsTo(e164(fields.mobile));
    expect(row).toMatchObject({ status: 'sent', providerMessageId: 'msg-1' });
    expect((await server.request('/dev/sms')).status).toBe(404);
    expect((await h.post(who, '/directdebit', { step: 'confirm', code })).status).toBe(303);
    expect((await h.mandatesOf(who.id))[0]!.status).toBe('active');
  });

  it('DD-02 a gateway failure is told to the member, the request is abandoned and no code is open', async () => {
    const who = await h.signup('GatewayDown');
    const fields = h.details();
    failNext = true;
    const res = await h.post(who, '/directdebit', fields);
    expect(res.status).toBe(502);
    expect(res.text).toContain('The SMS could not be sent. Nothing was changed; please try again later.');
    expect((await h.mandatesOf(who.id)).map((m) => m.status)).toEqual(['abandoned']);
    expect((await h.smsTo(e164(fields.mobile)))[0]).toMatchObject({ status: 'failed' });
    expect((await server.request('/directdebit', h.as(who))).text).not.toContain('data-code-step');
  });
});

describe('DD-03 the direct-debit blocklist and member blocks in the back office', () => {
  let server: TestServer;
  const h = harness(() => server);
  const staffCookie: Record<'admin' | 'moderator', string> = { admin: '', moderator: '' };
  beforeAll(async () => {
    server = await startTestServer();
    for (const role of ['admin', 'moderator'] as const) {
      const login = await server.request('/admin/login', {
        method: 'POST',
        headers: { origin: h.origin(), 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en' },
        body: new URLSearchParams({ email: `${role}@demo.test`, password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
      });
      staffCookie[role] = login.setCookies.staff_session!.value;
    }
  });
  afterAll(async () => {
    await server?.close();
  });
  const staffPost = (role: 'admin' | 'moderator', path: string, fields: Record<string, string>) =>
    server.request(path, {
      method: 'POST',
      headers: { origin: h.origin(), 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', staff_session: staffCookie[role] },
      body: new URLSearchParams(fields).toString(),
    });
  const actions = async () => (await readAudit(h.db(), { limit: 50 })).map((r) => r.action);

  it('DD-03 admins block and lift an IBAN and a mobile number (normalised, audited); invalid input changes nothing; the member form follows at once', async () => {
    const iban = composeIBAN({ countryCode: 'NL', bban: 'INGB0001234567' })!;
    const spaced = iban
      .replace(/(.{4})/g, '$1 ')
      .trim()
      .toLowerCase();
    const before = await h.db().select().from(directDebitBlocklist);
    for (const [fields, field] of [
      [{ kind: 'iban', value: 'NL00 NOPE', reason: 'fraud' }, 'value'],
      [{ kind: 'iban', value: spaced, reason: ' ' }, 'reason'],
      [{ kind: 'fax', value: spaced, reason: 'x' }, 'kind'],
    ] as const) {
      const res = await staffPost('admin', '/admin/directdebit', { action: 'add', ...fields });
      expect(res.status, field).toBe(400);
      expect(res.text).toContain(`data-field-error="${field}"`);
    }
    expect(await h.db().select().from(directDebitBlocklist)).toEqual(before);

    expect((await staffPost('admin', '/admin/directdebit', { action: 'add', kind: 'iban', value: spaced, reason: 'chargebacks' })).headers.location).toBe('/admin/directdebit?done=added');
    expect((await staffPost('admin', '/admin/directdebit', { action: 'add', kind: 'mobile', value: '06 1234 5678', reason: 'fraud' })).status).toBe(303);
    const list = await server.request(`/admin/directdebit?q=${iban.slice(0, 8)}`, { cookies: { lang: 'en', staff_session: staffCookie.admin } });
    expect(list.text).toContain(`data-blocklist-entry="${iban}"`);
    expect(await h.db().select().from(directDebitBlocklist).where(eq(directDebitBlocklist.value, '+31612345678'))).toHaveLength(1);
    expect(await actions()).toEqual(expect.arrayContaining(['directdebit.blocklist_add']));

    const who = await h.signup('Blocklisted');
    const refused = await h.post(who, '/directdebit', h.details({ iban: spaced }));
    expect(refused.status).toBe(403);
    const [entry] = await h.db().select().from(directDebitBlocklist).where(eq(directDebitBlocklist.value, iban));
    expect((await staffPost('admin', '/admin/directdebit', { action: 'lift', id: String(entry!.id) })).headers.location).toBe('/admin/directdebit?done=lifted');
    expect(await actions()).toEqual(expect.arrayContaining(['directdebit.blocklist_lift']));
    expect((await h.post(who, '/directdebit', h.details({ iban: spaced }))).status).toBe(303);
    // Moderators neither see nor change it.
    expect((await server.request('/admin/directdebit', { cookies: { lang: 'en', staff_session: staffCookie.moderator } })).status).toBe(403);
  });

  it('DD-03 admins block a member for direct debit and lift it (the wrong codes start over); audited; moderators may not', async () => {
    const who = await h.signup('MemberBlock');
    expect((await h.post(who, '/directdebit', h.details())).status).toBe(303);
    const page = `/admin/members/${who.id}`;
    expect((await staffPost('moderator', page, { action: 'dd_block', reason: 'chargeback' })).status).toBe(403);
    expect((await staffPost('admin', page, { action: 'dd_block', reason: '' })).status).toBe(400);
    expect((await staffPost('admin', page, { action: 'dd_block', reason: 'chargeback' })).headers.location).toBe(`${page}?done=dd_block`);
    expect((await server.request(page, { cookies: { lang: 'en', staff_session: staffCookie.admin } })).text).toContain('data-member-dd="blocked"');
    expect((await h.mandatesOf(who.id)).map((m) => m.status)).toEqual(['abandoned']);
    expect((await h.post(who, '/directdebit', h.details())).status).toBe(403);
    await h.db().update(directDebitAccounts).set({ wrongCodes: 2 }).where(eq(directDebitAccounts.userId, who.id));
    expect((await staffPost('admin', page, { action: 'dd_unblock' })).headers.location).toBe(`${page}?done=dd_unblock`);
    const [state] = await h.db().select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, who.id));
    expect(state).toMatchObject({ blockedAt: null, wrongCodes: 0 });
    expect(await actions()).toEqual(expect.arrayContaining(['directdebit.member_block', 'directdebit.member_unblock']));
    expect((await h.post(who, '/directdebit', h.details())).status).toBe(303);
  });
});
