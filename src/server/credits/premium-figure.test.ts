/**
 * HON-03: the premium claim is the site's own figure, computed from its first messages and their answers
 * (on the test database: tests/setup/databases.ts), or nothing when there is too little data.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock, withSeededDatabase } from '../../../tests/setup/kit';
import { databaseKinds } from '../../../tests/setup/databases';
import type { Db } from '../../db/client';
import { conversations, messages, payments, siteFigures, sites, users } from '../../db/schema';
import { computePremiumFigure, loadPremiumFigure, MIN_FIRST_MESSAGES, premiumAdvantage, refreshPremiumFigures } from './premium-figure';

const DAY = 24 * 3600_000;
let serial = 0;

async function people(db: Db, siteId: number, n: number, role: 'member' | 'fictional' = 'member'): Promise<number[]> {
  const rows = await db
    .insert(users)
    .values(Array.from({ length: n }, () => ({ siteId, email: `fig-${++serial}@example.com`, language: 'nl', status: 'active' as const, role })))
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

/** `sender` writes first to `recipient` at `at`; the recipient answers an hour later when `answered`. */
async function firstMessage(db: Db, siteId: number, sender: number, recipient: number, at: Date, answered: boolean): Promise<void> {
  const [c] = await db
    .insert(conversations)
    .values({ siteId, memberLow: Math.min(sender, recipient), memberHigh: Math.max(sender, recipient), startedBy: sender, createdAt: at })
    .returning({ id: conversations.id });
  await db.insert(messages).values({ conversationId: c!.id, senderId: sender, recipientId: recipient, body: 'hoi', clientId: `c${++serial}`, createdAt: at });
  if (answered)
    await db.insert(messages).values({ conversationId: c!.id, senderId: recipient, recipientId: sender, body: 'hallo', clientId: `c${++serial}`, createdAt: new Date(at.getTime() + 3600_000) });
}

describe.each(await databaseKinds())('HON-03 the premium figure on %s', (kind) => {
  it('HON-03 the figure is how much more often premium members’ first messages were answered, over 90 days, real members only; too little data gives none', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock, profilesPerSite: 8 }, async ({ db }) => {
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
      const siteId = site!.id;
      // Only this test's conversations count.
      await db.execute(sql`delete from messages`);
      await db.execute(sql`delete from conversation_members`);
      await db.execute(sql`delete from conversations`);
      const now = clock.now();
      const recent = new Date(now.getTime() - 10 * DAY);
      const recipients = await people(db, siteId, 10);
      const premium = await people(db, siteId, 40);
      const free = await people(db, siteId, 50);
      // Premium since before their first messages.
      await db.insert(payments).values(
        premium.map((userId, i) => ({
          siteId,
          userId,
          credits: 100,
          amountCents: 995,
          currency: 'EUR',
          method: 'ideal',
          provider: 'simulated',
          idempotencyKey: `fig-${i}`,
          status: 'paid' as const,
          createdAt: new Date(now.getTime() - 20 * DAY),
          updatedAt: new Date(now.getTime() - 20 * DAY),
        })),
      );
      // Premium: 120 first messages, 60 answered (50 %). Free: 150, 45 answered (30 %).
      let n = 0;
      for (const sender of premium) for (const r of recipients.slice(0, 3)) await firstMessage(db, siteId, sender, r, recent, n++ % 2 === 0);
      n = 0;
      for (const sender of free) for (const r of recipients.slice(0, 3)) await firstMessage(db, siteId, sender, r, recent, n++ % 10 < 3);
      // Not counted: a conversation begun before the window, first messages to a fictional profile
      // (answered by an operator), and a first message of someone who paid only afterwards counts as free.
      const fictional = await people(db, siteId, 5, 'fictional');
      for (const sender of premium.slice(0, 5)) await firstMessage(db, siteId, sender, fictional[0]!, recent, true);
      await firstMessage(db, siteId, premium[0]!, recipients[5]!, new Date(now.getTime() - 100 * DAY), true);

      const figure = await computePremiumFigure(db, siteId, now);
      // 0.50 / 0.30 − 1 = 66.7 % → 67.
      expect(figure).toMatchObject({ percent: 67, premiumSent: 120, premiumAnswered: 60, freeSent: 150, freeAnswered: 45, days: 90 });
      expect(await loadPremiumFigure(db, siteId)).toMatchObject({ percent: 67, premiumSent: 120 });

      // The nightly job leaves a figure younger than a day alone, and computes it again a day later.
      expect(await refreshPremiumFigures({ db, clock })).toEqual({ computed: (await db.select().from(sites)).length - 1 });
      clock.time += DAY + 1;
      // A day on, 30 more free first messages, all answered: the advantage shrinks.
      for (const sender of free.slice(0, 30)) for (const r of recipients.slice(3, 4)) await firstMessage(db, siteId, sender, r, new Date(clock.now().getTime() - DAY), true);
      await refreshPremiumFigures({ db, clock });
      const after = await loadPremiumFigure(db, siteId);
      // Free: 180 sent, 75 answered (41.7 %) → 0.5 / 0.4167 − 1 = 20 %.
      expect(after).toMatchObject({ percent: 20, freeSent: 180, freeAnswered: 75 });
    });
  });

  it('HON-03 with fewer than the minimum first messages in a group, or no advantage, there is no figure and no claim', () => {
    const enough = MIN_FIRST_MESSAGES;
    expect(premiumAdvantage({ premiumSent: enough - 1, premiumAnswered: 90, freeSent: 500, freeAnswered: 10 })).toBeNull();
    expect(premiumAdvantage({ premiumSent: 500, premiumAnswered: 400, freeSent: enough - 1, freeAnswered: 10 })).toBeNull();
    expect(premiumAdvantage({ premiumSent: enough, premiumAnswered: 30, freeSent: enough, freeAnswered: 30 })).toBeNull();
    expect(premiumAdvantage({ premiumSent: enough, premiumAnswered: 20, freeSent: enough, freeAnswered: 30 })).toBeNull();
    expect(premiumAdvantage({ premiumSent: enough, premiumAnswered: 46, freeSent: enough, freeAnswered: 0 })).toBeNull();
    expect(premiumAdvantage({ premiumSent: enough, premiumAnswered: 73, freeSent: enough, freeAnswered: 50 })).toBe(46);
  });
});

// A site without enough data stores nothing (the claim disappears).
describe.each(await databaseKinds())('HON-03 no data on %s', (kind) => {
  it('HON-03 a site with too few first messages keeps no figure, and an old one is removed', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock, profilesPerSite: 8 }, async ({ db }) => {
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
      await db
        .insert(siteFigures)
        .values({ siteId: site!.id, key: 'premium_answer_rate', value: { percent: 46, premiumSent: 1, premiumAnswered: 1, freeSent: 1, freeAnswered: 1, days: 90 }, computedAt: new Date(0) });
      expect(await computePremiumFigure(db, site!.id, clock.now())).toBeNull();
      expect(await loadPremiumFigure(db, site!.id)).toBeNull();
    });
  });
});
