/**
 * Credits and payments over HTTP on the built app (CRD-01..09, NAV-02, TB-01): buying a package through
 * the simulated checkout (a real webhook from the simulator to our endpoint), prices only from our own
 * packages whatever the form says, webhook duplicates and reordering, bad signatures, another member's
 * ids, discount codes, repeat order, receipts and the navigation's credits entry.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, creditPackages, discountCodes, payments, profiles, users } from '../../src/db/schema';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { spend } from '../../src/server/credits/ledger';
import { paymentProviders } from '../../src/server/payments/registry';
import { SIMULATED_SIGNATURE_HEADER } from '../../src/server/payments/simulated';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('credits and payments', () => {
  let server: TestServer;
  let free: { id: number; session: string };
  let other: { id: number; session: string };
  let pkg: typeof creditPackages.$inferSelect;
  const db = () => server.booted.app.db;
  beforeAll(async () => {
    server = await startTestServer();
    const login = async (email: string) => {
      const [row] = await db()
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), eq(users.siteId, 1)));
      const session = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } })).setCookies.session!.value;
      await db().update(profiles).set({ country: 'NL' }).where(eq(profiles.userId, row!.id));
      return { id: row!.id, session };
    };
    free = await login('free@demo.test');
    other = await login('premium@demo.test');
    // Signed up long ago: no time bonus, no welcome code (the prices are the packages' own).
    await db()
      .update(users)
      .set({ signupDate: new Date('2025-01-01T00:00:00Z') })
      .where(eq(users.id, free.id));
    [pkg] = (await db()
      .select()
      .from(creditPackages)
      .where(and(eq(creditPackages.siteId, 1), eq(creditPackages.active, true)))
      .orderBy(creditPackages.priceCents)
      .limit(1)) as [typeof creditPackages.$inferSelect];
  });
  afterAll(async () => {
    await server?.close();
  });

  const origin = () => `http://localhost:${server.port}`;
  const as = (who: { session: string }, extra: Record<string, string> = {}) => ({ cookies: { lang: 'en', session: who.session }, headers: { origin: origin(), ...extra } });
  const form = (fields: Record<string, string>) => ({ body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const post = (who: { session: string }, path: string, fields: Record<string, string>) => {
    const f = form(fields);
    const o = as(who, f.headers);
    return server.request(path, { ...o, method: 'POST', body: f.body });
  };
  const keyOf = (html: string) => /name="key" value="([^"]+)"/.exec(html)?.[1] ?? '';

  /** Starts a payment of `pkg` by iDEAL for `who` through the two forms; answers the checkout URL and the payment row. */
  async function startIdeal(who: { id: number; session: string }, extra: Record<string, string> = {}) {
    const chosen = await post(who, '/credits', { package: String(pkg.id), method: 'ideal', issuer: 'INGBNL2A' });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.location).toBe(`/credits/${pkg.id}/ideal?issuer=INGBNL2A`);
    const confirm = await server.request(chosen.headers.location as string, as(who));
    expect(confirm.status).toBe(200);
    const started = await post(who, `/credits/${pkg.id}/ideal`, { key: keyOf(confirm.text), issuer: 'INGBNL2A', ...extra });
    expect(started.status).toBe(303);
    const checkout = new URL(started.headers.location as string);
    expect(checkout.pathname).toMatch(/^\/checkout\/simulated\/sim_/);
    const providerId = checkout.pathname.split('/').pop()!;
    const [row] = await db().select().from(payments).where(eq(payments.providerPaymentId, providerId));
    return { checkout, providerId, payment: row! };
  }
  /** The payer's choice on the simulated checkout, as the member who started the payment (SEC-14: only they may). */
  async function pay(checkout: URL, choice: string, who: { session: string } = free) {
    const f = form({ choice });
    return server.request(checkout.pathname, { method: 'POST', body: f.body, cookies: { lang: 'en', session: who.session }, headers: { ...f.headers, origin: origin() } });
  }
  async function signedWebhook(providerId: string, signature?: string) {
    const body = JSON.stringify({ id: providerId });
    const sim = (await paymentProviders(server.booted.app)).simulated!;
    return server.request('/api/payment-webhook.php?provider=simulated', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signature ?? sim.sign(body) },
    });
  }

  it('CRD-02 CRD-05 /credits shows packages with price per credit, the methods with their transaction costs and the banks', async () => {
    const page = await server.request('/credits', as(free));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-package="${pkg.id}"`);
    expect(page.text).toContain('data-method="ideal"');
    expect(page.text).toContain('data-method="card"');
    expect(page.text).toContain('data-method="directdebit"');
    expect(page.text).toContain('data-transaction-cost="29"');
    expect(page.text).toContain('value="INGBNL2A"');
    expect(page.text).toContain('per credit');
    expect((await server.request('/credits', { cookies: { lang: 'en' } })).headers.location).toBe('/login?next=%2Fcredits');
  });

  it('CRD-06 a code not found is refused with its text on /credits and by /api/discountcode.php', async () => {
    const refused = await post(free, '/credits', { package: String(pkg.id), method: 'ideal', issuer: 'INGBNL2A', code: 'NO-SUCH-CODE' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('data-field-error="code"');
    expect(refused.text).toContain('This discount code does not exist.');
    const api = await server.request('/api/discountcode.php?code=NO-SUCH-CODE', as(free));
    expect(api.status).toBe(400);
    expect(api.json()).toEqual({ error: 'discount_not_found', message: 'This discount code does not exist.' });
    expect((await server.request('/api/discountcode.php', { cookies: { lang: 'en' } })).json().error).toBe('authentication_required');
  });

  it('CRD-07 TB-01 /api/discountcode.php answers the time bonus for a fresh free member, else the welcome code, else null', async () => {
    const now = server.booted.app.clock.now().getTime();
    await db()
      .update(users)
      .set({ signupDate: new Date(now - 3600_000) })
      .where(eq(users.id, other.id));
    await db().update(users).set({ paidUser: false }).where(eq(users.id, other.id));
    const bonus = (await server.request('/api/discountcode.php', as(other))).json();
    expect(bonus).toEqual({ discount: { code: 'TIMEBONUS25', percent: 25, kind: 'time_bonus', expires_at: new Date(now - 3600_000 + 4 * 3600_000).toISOString() } });
    expect((await server.request('/api/discountcode.php?welcome=true', as(other))).json().discount).toMatchObject({ code: 'WELCOME25', kind: 'welcome' });
    await db()
      .update(users)
      .set({ signupDate: new Date(now - 5 * 3600_000) })
      .where(eq(users.id, other.id));
    expect((await server.request('/api/discountcode.php', as(other))).json().discount).toMatchObject({ code: 'WELCOME25', percent: 25, kind: 'welcome' });
    expect((await server.request('/api/discountcode.php', as(free))).json()).toEqual({ discount: null });
  });

  it('CRD-02 CRD-09 amounts tampered with in the request change nothing: the price comes from our package', async () => {
    const { payment } = await startIdeal(free, { amount: '1', amountCents: '1', price: '1', credits: '99999', package: '1', currency: 'XXX' });
    expect(payment).toMatchObject({ amountCents: pkg.priceCents + 29, discountCents: 0, credits: pkg.credits, currency: pkg.currency, status: 'pending', userId: free.id });
    const sim = (await paymentProviders(server.booted.app)).simulated!;
    expect((await sim.checkout(payment.providerPaymentId!))!.amountCents).toBe(pkg.priceCents + 29);
  });

  it('CRD-01 CRD-02 CRD-09 paying through the simulated checkout: a real webhook, completed, premium and the new balance', async () => {
    const before = (await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id)))[0]!.credits;
    const { checkout, payment, providerId } = await startIdeal(free);
    const back = await pay(checkout, 'paid');
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`${origin()}/credits/order/${payment.id}`);
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row!.status).toBe('paid');
    const order = await server.request(`/credits/order/${payment.id}`, as(free));
    expect(order.text).toContain('data-order-status="paid"');
    expect(order.text).toContain('data-premium-now');
    expect(order.text).toContain(`Your balance is now ${before + pkg.credits} credits`);
    const [user] = await db().select({ paid: users.paidUser, credits: users.credits }).from(users).where(eq(users.id, free.id));
    expect(user).toEqual({ paid: true, credits: before + pkg.credits });
    // Duplicates over HTTP: every one answered 200, nothing booked twice.
    for (let i = 0; i < 5; i++) {
      const res = await signedWebhook(providerId);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, result: 'unchanged', status: 'paid' });
    }
    expect(
      await db()
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.reference, `payment:${providerId}`)),
    ).toHaveLength(1);
  });

  it('CRD-09 a webhook with a bad signature is 401, for an unknown provider 404; a webhook before the payer chose changes nothing', async () => {
    const { checkout, providerId, payment } = await startIdeal(free);
    expect((await signedWebhook(providerId, 'f'.repeat(64))).json()).toMatchObject({ error: 'invalid_signature' });
    expect((await signedWebhook(providerId, 'f'.repeat(64))).status).toBe(401);
    expect((await server.request('/api/payment-webhook.php?provider=nope', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(404);
    expect((await signedWebhook(providerId)).json()).toMatchObject({ result: 'unchanged', status: 'pending' });
    const pending = await server.request(`/credits/order/${payment.id}`, as(free));
    expect(pending.text).toContain('data-order-status="pending"');
    expect(pending.headers.refresh).toBe('5');
    await pay(checkout, 'cancelled');
    // A late duplicate after the final status: still cancelled.
    expect((await signedWebhook(providerId)).json()).toMatchObject({ result: 'unchanged', status: 'cancelled' });
    const cancelled = await server.request(`/credits/order/${payment.id}`, as(free));
    expect(cancelled.text).toContain('data-order-status="cancelled"');
    expect(cancelled.text).toContain('You cancelled the payment.');
  });

  it('SEC-14 only the member who started a payment may open or act on its simulated checkout: a visitor or another member gets 404 and changes nothing', async () => {
    const before = (await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id)))[0]!.credits;
    const { checkout, payment, providerId } = await startIdeal(free);
    const f = form({ choice: 'paid' });
    const visitor = { method: 'POST', body: f.body, cookies: { lang: 'en' }, headers: { ...f.headers, origin: origin() } };
    expect((await server.request(checkout.pathname, { cookies: { lang: 'en' } })).status).toBe(404);
    expect((await server.request(checkout.pathname, visitor)).status).toBe(404);
    expect((await server.request(checkout.pathname, as(other))).status).toBe(404);
    expect((await pay(checkout, 'paid', other)).status).toBe(404);
    const sim = (await paymentProviders(server.booted.app)).simulated!;
    expect((await sim.checkout(providerId))!.status).toBe('pending');
    const [row] = await db().select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
    expect(row!.status).toBe('pending');
    expect((await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id)))[0]!.credits).toBe(before);
    // The payer sees and uses it.
    const own = await server.request(checkout.pathname, as(free));
    expect(own.status).toBe(200);
    expect(own.text).toContain(`data-simulated-checkout="${providerId}"`);
    expect((await pay(checkout, 'cancelled')).status).toBe(303);
  });

  it("SEC-16 a second checkout with a discount the member's open payment holds is refused before payment, on the page and for scripts; cancelling the open one frees it", async () => {
    await db().insert(discountCodes).values({ code: 'HTTP40', percent: 40, siteId: 1 });
    const first = await startIdeal(free, { code: 'HTTP40' });
    expect(first.payment).toMatchObject({ discountCode: 'HTTP40', discountPercent: 40 });
    // The confirm page says so before the member clicks, with the way to the open payment, and has no pay button.
    const confirm = await server.request(`/credits/${pkg.id}/ideal?issuer=INGBNL2A&code=HTTP40`, as(free));
    expect(confirm.text).toContain('data-payment-error="discount_in_use"');
    expect(confirm.text).toContain(`data-open-payment="${first.payment.id}"`);
    expect(confirm.text).not.toContain('data-pay-form');
    // A post anyway (an old tab): 409 with the same text; a script gets the JSON error.
    const refused = await post(free, `/credits/${pkg.id}/ideal`, { key: 'http-second-checkout-1', issuer: 'INGBNL2A', code: 'HTTP40' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('This discount is held by a payment you started earlier');
    expect(refused.text).toContain(`href="/credits/order/${first.payment.id}"`);
    const f = form({ key: 'http-second-checkout-2', issuer: 'INGBNL2A', code: 'HTTP40' });
    const script = await server.request(`/credits/${pkg.id}/ideal`, { ...as(free, { ...f.headers, ...XHR }), method: 'POST', body: f.body });
    expect(script.status).toBe(409);
    expect(script.json()).toEqual({ error: 'discount_in_use', message: expect.stringContaining('held by a payment') });
    expect(
      await db()
        .select()
        .from(payments)
        .where(and(eq(payments.userId, free.id), eq(payments.discountCode, 'HTTP40'))),
    ).toHaveLength(1);
    // The order page of the open payment lets the member cancel it; then the discount is theirs again.
    const order = await server.request(`/credits/order/${first.payment.id}`, as(free));
    expect(order.text).toContain('data-cancel-payment');
    const cancelled = await post(free, `/credits/order/${first.payment.id}`, {});
    expect(cancelled.status).toBe(303);
    expect((await server.request(`/credits/order/${first.payment.id}`, as(free))).text).toContain('data-order-status="cancelled"');
    expect((await post(free, `/credits/order/${first.payment.id}`, {})).status).toBe(409);
    const second = await startIdeal(free, { code: 'HTTP40' });
    expect(second.payment).toMatchObject({ discountCode: 'HTTP40', status: 'pending' });
    await pay(second.checkout, 'failed');
  });

  it('SEC-18 a payment cancelled on our side and then paid at the provider is credited once, shown on the transactions and the receipt, and listed for admins', async () => {
    const { checkout, payment, providerId } = await startIdeal(free);
    expect((await post(free, `/credits/order/${payment.id}`, {})).status).toBe(303);
    const before = (await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id)))[0]!.credits;
    // The bank's page was still open: the payer pays there. The provider's webhook reaches us.
    expect((await pay(checkout, 'paid')).status).toBe(303);
    for (let i = 0; i < 3; i++) expect((await signedWebhook(providerId)).json()).toMatchObject({ ok: true, status: 'paid' });
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: 'paid' });
    expect(row!.latePaidAt).not.toBeNull();
    expect((await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id)))[0]!.credits).toBe(before + pkg.credits);
    expect(
      await db()
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.reference, `payment:${providerId}`)),
    ).toHaveLength(1);
    expect((await server.request(`/credits/order/${payment.id}`, as(free))).text).toContain('data-order-status="paid"');
    const list = await server.request('/transactions', as(free));
    expect(list.text).toContain(`data-late-paid="${payment.id}"`);
    expect(list.text).toContain('Confirmed by the payment provider after it had been cancelled');
    const receipt = await server.request(`/transactions/${payment.id}`, as(free));
    expect(receipt.text).toContain(`data-receipt-credits="${pkg.credits}"`);
    expect(receipt.text).toContain(`data-late-paid="${payment.id}"`);
    // The admins' list in the back office.
    const login = await server.request('/admin/login', {
      method: 'POST',
      cookies: { lang: 'en' },
      headers: { origin: origin(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
    });
    expect(login.status).toBe(303);
    const admin = await server.request('/admin/payments', { cookies: { lang: 'en', staff_session: login.setCookies.staff_session!.value } });
    expect(admin.status).toBe(200);
    expect(admin.text).toContain(`data-late-paid="${payment.id}"`);
    expect(admin.text).toContain('data-closed-as="cancelled"');
  });

  it('CRD-08 a failed payment shows its text and a way to try again', async () => {
    const { checkout, payment } = await startIdeal(free);
    await pay(checkout, 'failed');
    const page = await server.request(`/credits/order/${payment.id}`, as(free));
    expect(page.text).toContain('data-order-status="failed"');
    expect(page.text).toContain('Your payment failed or was cancelled.');
    expect(page.text).toContain('data-try-again');
  });

  it("CRD-04 another member's order and transaction ids are 404; the member's own receipt shows the company, VAT and the credits booked", async () => {
    const [mine] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, free.id), eq(payments.status, 'paid')))
      .limit(1);
    for (const path of [`/credits/order/${mine!.id}`, `/transactions/${mine!.id}`]) {
      expect((await server.request(path, as(other))).status, path).toBe(404);
    }
    expect((await server.request('/transactions/999999', as(free))).status).toBe(404);
    const list = await server.request('/transactions', as(free));
    expect(list.text).toContain(`data-transaction="${mine!.id}"`);
    expect((await server.request('/transactions', as(other))).text).not.toContain(`data-transaction="${mine!.id}"`);
    const receipt = await server.request(`/transactions/${mine!.id}`, as(free));
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('data-company-name');
    expect(receipt.text).toContain('data-company-kvk');
    expect(receipt.text).toContain(`data-receipt-credits="${pkg.credits}"`);
    expect(receipt.text).toContain(`data-receipt-total="${pkg.priceCents + 29}"`);
    expect(receipt.text).toContain(`data-receipt-vat="${Math.round(((pkg.priceCents + 29) * 2100) / 12100)}"`);
  });

  it('CRD-03 repeat order buys the last package again with the same method and bank in one click', async () => {
    const page = await server.request('/credits/repeat-order', as(free));
    expect(page.text).toContain(`data-repeat-order="${pkg.id}"`);
    const action = /<form method="post" action="([^"]+)"/.exec(page.text.slice(page.text.indexOf('data-repeat-order')))![1]!;
    expect(action).toBe(`/credits/${pkg.id}/ideal`);
    const res = await post(free, action, { key: keyOf(page.text), issuer: 'INGBNL2A' });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.location as string).pathname).toMatch(/^\/checkout\/simulated\/sim_/);
    expect((await server.request('/credits/repeat-order', as(other))).text).toContain('data-repeat-none');
  });

  it("CRD-09 a forged Host header never becomes the webhook or return address: the site's own domain is used", async () => {
    const host = 'evil.example';
    const f = form({ key: 'forged-host-key-1', issuer: 'INGBNL2A' });
    const res = await server.request(`/credits/${pkg.id}/ideal`, {
      method: 'POST',
      host,
      body: f.body,
      cookies: { lang: 'en', session: free.session },
      headers: { ...f.headers, origin: `http://${host}:${server.port}` },
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(location.host).not.toContain(host);
    const sim = (await paymentProviders(server.booted.app)).simulated!;
    const checkout = await sim.checkout(location.pathname.split('/').pop()!);
    expect(new URL(checkout!.webhookUrl).protocol).toBe('https:');
    expect(checkout!.webhookUrl).not.toContain(host);
    expect(checkout!.returnUrl).not.toContain(host);
  });

  it('CRD-02 direct debit goes to the mandate form first', async () => {
    const res = await server.request(`/credits/${pkg.id}/directdebit`, as(free));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/directdebit?package=${pkg.id}`);
  });

  it("NAV-02 a paid member's credits entry leads to repeat order with a balance badge at 10 or less: warning above 0, danger at 0", async () => {
    const nav = async () => (await server.request('/members', as(free))).text;
    expect(await nav()).toContain('href="/credits/repeat-order" data-nav="credits"');
    expect(await nav()).not.toContain('data-badge="credits"');
    const [row] = await db().select({ credits: users.credits }).from(users).where(eq(users.id, free.id));
    await spend(db(), { memberId: free.id, amount: row!.credits - 5, reason: 'test', reference: `test-nav-1-${free.id}` });
    expect(await nav()).toContain('data-variant="warning"');
    await spend(db(), { memberId: free.id, amount: 5, reason: 'test', reference: `test-nav-2-${free.id}` });
    expect(await nav()).toContain('data-variant="danger"');
    // A member who never paid sees Get Premium, which leads to /credits.
    await db().update(users).set({ paidUser: false }).where(eq(users.id, other.id));
    expect((await server.request('/members', as(other))).text).toMatch(/href="\/credits" data-nav="premium"/);
  });
});
