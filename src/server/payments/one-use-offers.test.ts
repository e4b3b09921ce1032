/**
 * SEC-16: one-use offers and the direct-debit limit hold under concurrent purchases, on PGlite and on
 * PostgreSQL (a pool of 20: the starts really run at once). The audit's scenarios: a one-use code started
 * ten times at once, the time bonus and the welcome code started three and ten times before paying, and
 * ten direct-debit purchases at once against the limit. Nothing is ever used twice: a second checkout with
 * an offer the member's open payment holds is refused before payment, pointing at the open one; the offer
 * is free again when that payment fails, is cancelled or expires, and used for good when it is paid.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../tests/setup/kit';
import { everyDatabaseKind } from '../../../tests/setup/databases';
import { choose, newMember, start, webhook, withPaymentsDatabase, type PaymentsWorld, type TestMember } from '../../../tests/setup/payments';
import { discountCodes, discountReservations, payments } from '../../db/schema';
import { directDebitUsage } from '../directdebit/limit';
import { ProviderError } from './provider';
import { providersOf } from './registry';
import { applyWebhook, cancelPayment, type StartResult } from './service';
import type { SimulatedProvider } from './simulated';

const HOUR = 3600_000;

/** Pays every started payment at the provider and delivers its webhook: what a member who pays all their open checkouts gets. */
async function payAll(w: PaymentsWorld, results: StartResult[]): Promise<void> {
  for (const r of results) {
    if (r.type !== 'ok') continue;
    await choose(w, r.payment.providerPaymentId!, 'paid');
    await applyWebhook(w.deps, 'simulated', webhook(w, r.payment.providerPaymentId!));
  }
}

async function paidWith(w: PaymentsWorld, member: TestMember, codes: string[]) {
  return w.db
    .select({ id: payments.id, code: payments.discountCode })
    .from(payments)
    .where(and(eq(payments.userId, member.id), eq(payments.status, 'paid'), inArray(payments.discountCode, codes)));
}

describe.each(await everyDatabaseKind())('SEC-16 one-use offers under concurrent checkouts on %s', (kind) => {
  it('SEC-16 a one-use code started ten times at once is given to one checkout; paying them all uses it once', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      await w.db.insert(discountCodes).values({ code: 'HALF50', percent: 50, siteId: w.siteId });
      const member = await newMember(w);
      const results = await Promise.all(Array.from({ length: 10 }, () => start(w, member, { code: 'HALF50' })));
      const started = results.filter((r) => r.type === 'ok');
      const refused = results.filter((r) => r.type === 'error');
      console.info(
        `SEC-16 ${kind}: 10 simultaneous starts with one one-use code → ${started.length} started, ${refused.length} refused (${[...new Set(refused.map((r) => r.type === 'error' && r.reason))].join(', ')})`,
      );
      expect(started).toHaveLength(1);
      expect(refused.every((r) => r.type === 'error' && r.reason === 'discount_in_use' && r.openPayment?.id === (started[0] as Extract<StartResult, { type: 'ok' }>).payment.id)).toBe(true);
      expect(started[0]).toMatchObject({ payment: { discountCode: 'HALF50', discountPercent: 50 } });
      await payAll(w, results);
      expect(await paidWith(w, member, ['HALF50'])).toHaveLength(1);
      // Used for good: the next checkout with it is refused as used, not merely held.
      expect(await start(w, { ...member, paid_user: true }, { code: 'HALF50' })).toEqual({ type: 'error', reason: 'discount_already_used' });
    });
  });

  it('SEC-16 the time bonus (once per member) and the welcome code share one discounted first purchase, however the checkouts race', async () => {
    const clock = new FakeClock();
    await withPaymentsDatabase(kind, clock, async (w) => {
      // Ten checkouts of a fresh member at once, each with the time bonus the page applies by itself.
      const fresh = await newMember(w, HOUR);
      const results = await Promise.all(Array.from({ length: 10 }, () => start(w, fresh)));
      expect(results.filter((r) => r.type === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r.type === 'error' && r.reason === 'discount_in_use')).toHaveLength(9);
      // Typing the welcome code meanwhile is the same first purchase: held as well.
      expect(await start(w, fresh, { code: 'WELCOME25' })).toMatchObject({ type: 'error', reason: 'discount_in_use' });
      await payAll(w, results);
      expect(await paidWith(w, fresh, ['TIMEBONUS25', 'WELCOME25'])).toHaveLength(1);

      // The audit's three starts one after another before paying: the second and third are refused
      // before payment (never charged the full price silently), and point at the open payment.
      const welcome = await newMember(w, 2 * 24 * HOUR);
      const first = await start(w, welcome);
      expect(first).toMatchObject({ type: 'ok', payment: { discountCode: 'WELCOME25' } });
      if (first.type !== 'ok') return;
      for (let i = 0; i < 2; i++) expect(await start(w, welcome)).toMatchObject({ type: 'error', reason: 'discount_in_use', openPayment: { id: first.payment.id } });
      // Cancelling the open payment frees the welcome code for a new checkout (another package, say).
      expect(await cancelPayment(w.deps, welcome.id, first.payment.id)).toEqual({ type: 'cancelled' });
      const again = await start(w, welcome);
      expect(again).toMatchObject({ type: 'ok', payment: { discountCode: 'WELCOME25' } });
      await payAll(w, [again]);
      expect(await paidWith(w, welcome, ['TIMEBONUS25', 'WELCOME25'])).toHaveLength(1);
    });
  });

  it('SEC-16 an offer is free again when its payment fails, is cancelled at the provider or expires; a start the provider refuses frees it too', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      await w.db.insert(discountCodes).values({ code: 'TRYAGAIN', percent: 20, siteId: w.siteId });
      const member = await newMember(w);
      for (const outcome of ['failed', 'cancelled', 'expired'] as const) {
        const s = await start(w, member, { code: 'TRYAGAIN' });
        if (s.type !== 'ok') throw new Error(`not started: ${s.reason}`);
        expect(await start(w, member, { code: 'TRYAGAIN' })).toMatchObject({ type: 'error', reason: 'discount_in_use' });
        await choose(w, s.payment.providerPaymentId!, outcome);
        expect(await applyWebhook(w.deps, 'simulated', webhook(w, s.payment.providerPaymentId!))).toMatchObject({ type: 'applied', status: outcome });
        const [held] = await w.db.select({ status: discountReservations.status }).from(discountReservations).where(eq(discountReservations.paymentId, s.payment.id));
        expect(held!.status).toBe('released');
      }
      // The provider refuses to create the payment: it ends failed at once and holds nothing.
      const down = {
        ...w,
        deps: { ...w.deps, providers: providersOf([Object.assign(Object.create(w.sim) as SimulatedProvider, { createPayment: async () => Promise.reject(new ProviderError('down', 503)) })]) },
      };
      expect(await start(down, member, { code: 'TRYAGAIN' })).toEqual({ type: 'error', reason: 'provider_unavailable' });
      const last = await start(w, member, { code: 'TRYAGAIN' });
      expect(last).toMatchObject({ type: 'ok', payment: { discountCode: 'TRYAGAIN' } });
    });
  });

  it('SEC-16 ten direct-debit purchases at once stay within the limit', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      const member = await newMember(w);
      // The limit leaves room for three and a half of this package (with the 19 cents of direct debit's costs).
      const amount = w.package.priceCents + 19;
      const limit = { cents: Math.floor(3.5 * amount), days: 30 };
      const results = await Promise.all(Array.from({ length: 10 }, () => start(w, member, { method: 'directdebit', issuer: null, mandateReference: 'MANDATE-SEC16', directDebitLimit: limit })));
      const started = results.filter((r) => r.type === 'ok');
      const used = await directDebitUsage(w.db, member.id, new Date(0));
      console.info(`SEC-16 ${kind}: 10 simultaneous direct debits of ${amount} cents against a limit of ${limit.cents} → ${started.length} started, ${used} cents pending`);
      expect(started).toHaveLength(3);
      expect(results.filter((r) => r.type === 'error').every((r) => r.type === 'error' && r.reason === 'directdebit_limit_reached')).toBe(true);
      expect(used).toBeLessThanOrEqual(limit.cents);
    });
  });
});
