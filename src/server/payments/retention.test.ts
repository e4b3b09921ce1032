/**
 * HON-03: the delete page's retention discount is issued once and applied once, however the member's
 * checkouts race (PGlite and PostgreSQL with a pool of 20, so the starts really run at once).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../tests/setup/kit';
import { everyDatabaseKind } from '../../../tests/setup/databases';
import { choose, newMember, start, webhook, withPaymentsDatabase, type PaymentsWorld } from '../../../tests/setup/payments';
import { discountCodes } from '../../db/schema';
import { memberDiscount } from './discounts';
import { grantRetentionDiscount, retentionState } from './retention';
import { applyWebhook, cancelPayment, type StartResult } from './service';

const HOUR = 3600_000;

async function pay(w: PaymentsWorld, r: StartResult): Promise<void> {
  if (r.type !== 'ok') throw new Error(`not started: ${r.reason}`);
  await choose(w, r.payment.providerPaymentId!, 'paid');
  await applyWebhook(w.deps, 'simulated', webhook(w, r.payment.providerPaymentId!));
}

describe.each(await everyDatabaseKind())('HON-03 the retention discount on %s', (kind) => {
  it('HON-03 choosing the discount five times at once issues one personal code; ten checkouts at once get it once; paid, it is used and not offered again', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      const member = await newMember(w);
      const now = w.clock.now();
      const grants = await Promise.all(Array.from({ length: 5 }, () => grantRetentionDiscount(w.db, { memberId: member.id, siteId: w.siteId, percent: 50, now })));
      const codes = await w.db.select().from(discountCodes).where(eq(discountCodes.userId, member.id));
      expect(codes).toHaveLength(1);
      expect(codes[0]).toMatchObject({ kind: 'retention', percent: 50 });
      expect(new Set(grants.map((g) => (g.type === 'ready' ? g.code : null)))).toEqual(new Set([codes[0]!.code]));

      const results = await Promise.all(Array.from({ length: 10 }, () => start(w, member)));
      const started = results.filter((r) => r.type === 'ok');
      expect(started).toHaveLength(1);
      expect(results.filter((r) => r.type === 'error' && r.reason === 'discount_in_use')).toHaveLength(9);
      expect(started[0]).toMatchObject({ payment: { discountCode: codes[0]!.code, discountPercent: 50 } });
      expect(started[0]!.type === 'ok' && started[0]!.payment.discountCents).toBe(Math.round(w.package.priceCents / 2));

      await pay(w, started[0]!);
      expect(await retentionState(w.db, member.id)).toEqual({ type: 'used', percent: 50 });
      expect(await memberDiscount(w.db, { ...member, paid_user: true }, w.clock.now())).toBeNull();
      // Used for good: typed, it is refused; choosing it again issues nothing new.
      expect(await start(w, { ...member, paid_user: true }, { code: codes[0]!.code })).toEqual({ type: 'error', reason: 'discount_already_used' });
      expect(await grantRetentionDiscount(w.db, { memberId: member.id, siteId: w.siteId, percent: 50, now })).toEqual({ type: 'used', percent: 50 });
      expect(await w.db.select().from(discountCodes).where(eq(discountCodes.userId, member.id))).toHaveLength(1);
    });
  });

  it('HON-03 a cancelled checkout gives the discount back; it is the member’s only; the larger of it and the time bonus applies', async () => {
    await withPaymentsDatabase(kind, new FakeClock(), async (w) => {
      const member = await newMember(w);
      const granted = await grantRetentionDiscount(w.db, { memberId: member.id, siteId: w.siteId, percent: 30, now: w.clock.now() });
      if (granted.type !== 'ready') throw new Error('not granted');
      const first = await start(w, member);
      if (first.type !== 'ok') throw new Error('not started');
      expect(first.payment.discountCode).toBe(granted.code);
      expect(await cancelPayment(w.deps, member.id, first.payment.id)).toEqual({ type: 'cancelled' });
      expect(await start(w, member)).toMatchObject({ type: 'ok', payment: { discountCode: granted.code } });

      // Another member typing it: no such code for them.
      const other = await newMember(w);
      expect(await start(w, other, { code: granted.code })).toEqual({ type: 'error', reason: 'discount_not_found' });

      // A member in their first hours: the time bonus is 25 %; a 30 % retention code is larger and applies.
      const fresh = await newMember(w, HOUR);
      expect((await memberDiscount(w.db, fresh, w.clock.now()))?.discount.code).toBe('TIMEBONUS25');
      const mine = await grantRetentionDiscount(w.db, { memberId: fresh.id, siteId: w.siteId, percent: 30, now: w.clock.now() });
      expect((await memberDiscount(w.db, fresh, w.clock.now()))?.discount).toMatchObject({ kind: 'retention', percent: 30, code: mine.type === 'ready' ? mine.code : '' });
      // A discount that cannot be issued (0 % or more than 90 %) is not.
      expect(await grantRetentionDiscount(w.db, { memberId: other.id, siteId: w.siteId, percent: 0, now: w.clock.now() })).toEqual({ type: 'none' });
    });
  });
});
