/**
 * HON-03: the "most chosen" mark on a credit package is the site's own figure, the package most members
 * bought in the last 90 days, or no mark at all when too few purchases back it or two packages tie.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock, withSeededDatabase } from '../../../tests/setup/kit';
import { databaseKinds } from '../../../tests/setup/databases';
import type { Db } from '../../db/client';
import { creditPackages, payments, sites, users } from '../../db/schema';
import type { PaymentStatus } from '../../db/schema/payments';
import { computeMostChosen, loadMostChosenPackage, MIN_BUYERS, mostChosenOf, refreshMostChosen } from './most-chosen';
import { listPackages } from './packages';

const DAY = 24 * 3600_000;
let serial = 0;

async function buyers(db: Db, siteId: number, n: number): Promise<number[]> {
  const rows = await db
    .insert(users)
    .values(Array.from({ length: n }, () => ({ siteId, email: `buyer-${++serial}@example.com`, language: 'nl', status: 'active' as const, role: 'member' as const })))
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

interface Purchase {
  siteId: number;
  userId: number;
  packageId: number;
  at: Date;
  status?: PaymentStatus;
  refunded?: boolean;
}

async function purchases(db: Db, list: Purchase[]): Promise<void> {
  await db.insert(payments).values(
    list.map((p) => ({
      siteId: p.siteId,
      userId: p.userId,
      packageId: p.packageId,
      credits: 100,
      amountCents: 995,
      currency: 'EUR',
      method: 'ideal',
      provider: 'simulated',
      idempotencyKey: `most-chosen-${++serial}`,
      status: p.status ?? 'paid',
      refundedAt: p.refunded ? p.at : null,
      createdAt: p.at,
      updatedAt: p.at,
    })),
  );
}

describe.each(await databaseKinds())('HON-03 the most chosen package on %s', (kind) => {
  it('HON-03 the most chosen package is the one most members bought in 90 days (paid, not refunded, each member once); the pages mark it and only it', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock, profilesPerSite: 4 }, async ({ db }) => {
      const [site, other] = await db.select({ id: sites.id }).from(sites).orderBy(asc(sites.id));
      const siteId = site!.id;
      await db.execute(sql`delete from payments`);
      const packs = await db
        .select({ id: creditPackages.id, highlighted: creditPackages.highlighted })
        .from(creditPackages)
        .where(eq(creditPackages.siteId, siteId))
        .orderBy(asc(creditPackages.sortOrder));
      expect(packs.length).toBeGreaterThanOrEqual(3);
      // The staff's pick is not the members' choice here: the mark must follow the purchases.
      const picked = packs.find((p) => p.highlighted)!;
      const [small, large] = packs.filter((p) => p !== picked);
      const now = clock.now();
      const recent = new Date(now.getTime() - 10 * DAY);
      const members = await buyers(db, siteId, 40);
      // 14 members bought the small package, one of them 6 times (counted once); 12 the staff's pick; 6 the large one.
      await purchases(db, [
        ...members.slice(0, 14).map((userId) => ({ siteId, userId, packageId: small!.id, at: recent })),
        ...Array.from({ length: 5 }, () => ({ siteId, userId: members[0]!, packageId: small!.id, at: recent })),
        ...members.slice(14, 26).map((userId) => ({ siteId, userId, packageId: picked.id, at: recent })),
        ...members.slice(26, 32).map((userId) => ({ siteId, userId, packageId: large!.id, at: recent })),
        // Not counted: payments not paid, a refunded one, one older than 90 days, another site's.
        ...(['pending', 'failed', 'cancelled', 'expired'] as const).flatMap((status) => members.slice(32, 40).map((userId) => ({ siteId, userId, packageId: picked.id, at: recent, status }))),
        ...members.slice(32, 40).map((userId) => ({ siteId, userId, packageId: picked.id, at: recent, refunded: true })),
        ...members.slice(32, 40).map((userId) => ({ siteId, userId, packageId: picked.id, at: new Date(now.getTime() - 91 * DAY) })),
      ]);
      const strangers = await buyers(db, other!.id, 10);
      await purchases(
        db,
        strangers.map((userId) => ({ siteId: other!.id, userId, packageId: picked.id, at: recent })),
      );

      expect(await computeMostChosen(db, siteId, now)).toEqual({ packageId: small!.id, buyers: 14, total: 32, days: 90 });
      expect(await loadMostChosenPackage(db, siteId)).toBe(small!.id);
      const listed = await listPackages(db, siteId);
      expect(listed.filter((p) => p.mostChosen).map((p) => p.id)).toEqual([small!.id]);

      // The daily job leaves a figure younger than a day alone; a day on, 3 more members bought the
      // staff's pick (15 against 14): the mark moves.
      await refreshMostChosen({ db, clock });
      await purchases(
        db,
        members.slice(32, 35).map((userId) => ({ siteId, userId, packageId: picked.id, at: new Date(now.getTime() + DAY / 2) })),
      );
      clock.time += DAY / 2;
      await refreshMostChosen({ db, clock });
      expect(await loadMostChosenPackage(db, siteId)).toBe(small!.id);
      clock.time += DAY / 2 + 1;
      await refreshMostChosen({ db, clock });
      expect(await loadMostChosenPackage(db, siteId)).toBe(picked.id);

      // A package taken off sale loses the mark to the most bought of the rest (large: 6 + 10 = 16 against
      // small's 14); with too few purchases left, no package has it.
      const more = await buyers(db, siteId, 15);
      await purchases(db, [
        ...more.slice(0, 10).map((userId) => ({ siteId, userId, packageId: large!.id, at: clock.now() })),
        ...more.slice(10).map((userId) => ({ siteId, userId, packageId: picked.id, at: clock.now() })),
      ]);
      clock.time += 1000;
      expect(await computeMostChosen(db, siteId, clock.now())).toMatchObject({ packageId: picked.id, buyers: 20 });
      await db.update(creditPackages).set({ active: false }).where(eq(creditPackages.id, picked.id));
      expect(await computeMostChosen(db, siteId, clock.now())).toEqual({ packageId: large!.id, buyers: 16, total: 30, days: 90 });
      expect(await loadMostChosenPackage(db, siteId)).toBe(large!.id);
      await db.delete(payments).where(eq(payments.packageId, large!.id));
      expect(await computeMostChosen(db, siteId, clock.now())).toBeNull();
      expect(await loadMostChosenPackage(db, siteId)).toBeNull();
      expect((await listPackages(db, siteId)).some((p) => p.mostChosen)).toBe(false);
    });
  });

  it('HON-03 no package is the most chosen with fewer than the minimum purchases or a tie at the top', () => {
    expect(mostChosenOf([])).toBeNull();
    expect(mostChosenOf([{ packageId: 1, buyers: MIN_BUYERS - 1 }])).toBeNull();
    expect(mostChosenOf([{ packageId: 1, buyers: MIN_BUYERS }])).toEqual({ packageId: 1, buyers: MIN_BUYERS, total: MIN_BUYERS });
    expect(
      mostChosenOf([
        { packageId: 1, buyers: 20 },
        { packageId: 2, buyers: 20 },
        { packageId: 3, buyers: 5 },
      ]),
    ).toBeNull();
    expect(
      mostChosenOf([
        { packageId: 1, buyers: 20 },
        { packageId: 2, buyers: 21 },
      ]),
    ).toEqual({ packageId: 2, buyers: 21, total: 41 });
  });
});
