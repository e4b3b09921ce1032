/**
 * SEC-18: a payment the provider reports paid after we closed it as failed, cancelled or expired was paid:
 * the money was taken. It is credited exactly once however many webhooks arrive and in whatever order
 * (duplicates at once on a pool of 20 on PostgreSQL), the move is recorded, and admins can list it. A
 * one-use discount it held that another payment used meanwhile is not taken from the member; the payment
 * says so for the admins.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../tests/setup/kit';
import { everyDatabaseKind } from '../../../tests/setup/databases';
import { choose, newMember, providerSays, start, webhook, withPaymentsDatabase } from '../../../tests/setup/payments';
import { creditLedger, discountCodes, paymentTransitions, payments, users } from '../../db/schema';
import { balance } from '../credits/ledger';
import { applyWebhook, cancelPayment, latePaidCount, latePaidPayments, reconcilePayments } from './service';

describe.each(await everyDatabaseKind())('SEC-18 a late "paid" on %s', (kind) => {
  it('SEC-18 failed, cancelled by the member, or expired, then reported paid: credited once over duplicate and reordered webhooks, recorded and listed', async () => {
    const clock = new FakeClock();
    await withPaymentsDatabase(kind, clock, async (w) => {
      const member = await newMember(w);
      const closed: Array<{ id: number; providerId: string; credits: number; as: 'failed' | 'cancelled' | 'expired' }> = [];
      for (const as of ['failed', 'cancelled', 'expired'] as const) {
        const s = await start(w, member);
        if (s.type !== 'ok') throw new Error('not started');
        const providerId = s.payment.providerPaymentId!;
        if (as === 'cancelled') {
          // The member gave up on the order page while the bank's page was still open.
          expect(await cancelPayment(w.deps, member.id, s.payment.id)).toEqual({ type: 'cancelled' });
        } else {
          await choose(w, providerId, as);
          expect(await applyWebhook(w.deps, 'simulated', webhook(w, providerId))).toMatchObject({ type: 'applied', status: as });
        }
        closed.push({ id: s.payment.id, providerId, credits: s.payment.credits, as });
      }
      expect(await balance(w.db, member.id)).toBe(0);

      // The bank confirms after all: twenty deliveries per payment at once, the three payments' shuffled together.
      for (const c of closed) await providerSays(w, c.providerId, 'paid');
      const deliveries = closed.flatMap((c) => Array.from({ length: 20 }, () => c.providerId));
      deliveries.sort(() => Math.random() - 0.5);
      const results = await Promise.all(deliveries.map((id) => applyWebhook(w.deps, 'simulated', webhook(w, id))));
      const applied = results.filter((r) => r.type === 'applied');
      console.info(`SEC-18 ${kind}: ${deliveries.length} webhooks for 3 late-paid payments → ${applied.length} applied, ${results.length - applied.length} unchanged`);
      expect(applied).toHaveLength(3);
      expect(applied.every((r) => r.type === 'applied' && r.late && r.granted && r.status === 'paid')).toBe(true);

      const credits = closed.reduce((sum, c) => sum + c.credits, 0);
      expect(await balance(w.db, member.id)).toBe(credits);
      const ledger = await w.db.select().from(creditLedger).where(eq(creditLedger.userId, member.id));
      expect(ledger.map((l) => l.reference).sort()).toEqual(closed.map((c) => `payment:${c.providerId}`).sort());
      const [user] = await w.db.select({ paid: users.paidUser }).from(users).where(eq(users.id, member.id));
      expect(user!.paid).toBe(true);

      for (const c of closed) {
        const [row] = await w.db.select().from(payments).where(eq(payments.id, c.id));
        expect(row).toMatchObject({ status: 'paid' });
        expect(row!.latePaidAt).toBeInstanceOf(Date);
        const moves = await w.db.select().from(paymentTransitions).where(eq(paymentTransitions.paymentId, c.id)).orderBy(paymentTransitions.id);
        expect(moves.map((m) => [m.fromStatus, m.toStatus, m.source])).toEqual([
          ['pending', c.as, c.as === 'cancelled' ? 'member' : 'provider'],
          [c.as, 'paid', 'provider'],
        ]);
      }
      const listed = await latePaidPayments(w.db);
      expect(listed.map((l) => [l.payment.id, l.closedAs]).sort()).toEqual(closed.map((c) => [c.id, c.as]).sort());
      expect(await latePaidCount(w.db)).toBe(3);

      // Paid stays paid: the provider's later word changes nothing, and the reconcile job leaves it alone.
      await providerSays(w, closed[0]!.providerId, 'failed');
      expect(await applyWebhook(w.deps, 'simulated', webhook(w, closed[0]!.providerId))).toMatchObject({ type: 'unchanged' });
      clock.advance(2 * 3600_000);
      expect(await reconcilePayments(w.deps)).toMatchObject({ checked: 0 });
      expect(await balance(w.db, member.id)).toBe(credits);
    });
  });

  it('SEC-18 a late-paid payment whose one-use code another payment used meanwhile is credited and marked for the admins', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      await w.db.insert(discountCodes).values({ code: 'ONCE30', percent: 30, siteId: w.siteId });
      const member = await newMember(w);
      const first = await start(w, member, { code: 'ONCE30' });
      if (first.type !== 'ok') throw new Error('not started');
      expect(await cancelPayment(w.deps, member.id, first.payment.id)).toEqual({ type: 'cancelled' });
      const second = await start(w, member, { code: 'ONCE30' });
      if (second.type !== 'ok') throw new Error('not started');
      await choose(w, second.payment.providerPaymentId!, 'paid');
      await applyWebhook(w.deps, 'simulated', webhook(w, second.payment.providerPaymentId!));
      // The cancelled one is paid at the bank after all.
      await providerSays(w, first.payment.providerPaymentId!, 'paid');
      expect(await applyWebhook(w.deps, 'simulated', webhook(w, first.payment.providerPaymentId!))).toMatchObject({ type: 'applied', late: true, granted: true });
      expect(await balance(w.db, member.id)).toBe(first.payment.credits + second.payment.credits);
      const rows = await w.db.select({ id: payments.id, reused: payments.discountReused }).from(payments).where(eq(payments.userId, member.id));
      expect(Object.fromEntries(rows.map((r) => [r.id, r.reused]))).toEqual({ [first.payment.id]: true, [second.payment.id]: false });
      expect((await latePaidPayments(w.db)).map((l) => [l.payment.id, l.payment.discountReused])).toEqual([[first.payment.id, true]]);
    });
  });
});
