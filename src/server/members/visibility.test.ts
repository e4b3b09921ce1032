/** The one listing rule (issue 9): who may be shown to whom, blocks both ways (BLK-01). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { blocks, profiles, sites, users } from '../../db/schema';
import { desc } from 'drizzle-orm';
import { selectMemberCards } from './listing';
import { isListedTo, listedTo } from './visibility';

const clock = new FakeClock();
let kit: SeededDatabase;
let siteId: number;
let otherSiteId: number;

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  const rows = await kit.db.select({ id: sites.id }).from(sites).orderBy(sites.id);
  siteId = rows[0]!.id;
  otherSiteId = rows[1]!.id;
});
afterAll(() => kit?.close());

let counter = 0;
async function member(site = siteId, extra: Partial<typeof users.$inferInsert> = {}) {
  const [user] = await kit.db
    .insert(users)
    .values({ siteId: site, email: `vis-${++counter}@example.com`, status: 'active', language: 'nl', emailConfirmedAt: clock.now(), publicProfile: true, ...extra })
    .returning({ id: users.id });
  await kit.db.insert(profiles).values({ userId: user!.id, siteId: site, name: `Vis${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return user!.id;
}

const listed = async (viewerId: number | null, id: number) =>
  (
    await selectMemberCards(kit.db)
      .where(listedTo({ siteId, userId: viewerId }))
      .orderBy(desc(profiles.lastActiveAt), desc(users.id))
      .limit(60)
  ).some((c) => c.id === id);

describe('who is listed to whom', () => {
  it('BLK-01 a block hides both members from each other, in lists and profile checks, and from nobody else', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    expect(await listed(a, b)).toBe(true);
    await kit.db.insert(blocks).values({ blockerId: a, blockedId: b });
    expect(await listed(a, b)).toBe(false);
    expect(await listed(b, a)).toBe(false);
    expect(await isListedTo(kit.db, { siteId, userId: a }, b)).toBe(false);
    expect(await isListedTo(kit.db, { siteId, userId: b }, a)).toBe(false);
    expect(await listed(c, a)).toBe(true);
    expect(await listed(null, b)).toBe(true);
    await kit.db.delete(blocks).where(eq(blocks.blockerId, a));
    expect(await isListedTo(kit.db, { siteId, userId: b }, a)).toBe(true);
  });

  it('MEM-01 never listed: the viewer, invisible, deleted, unconfirmed, disabled profiles and other sites', async () => {
    const viewer = await member();
    const invisible = await member(siteId, { invisible: true });
    const deleted = await member(siteId, { status: 'deleted' });
    const unconfirmed = await member(siteId, { status: 'not_confirmed' });
    const disabled = await member();
    await kit.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    const elsewhere = await member(otherSiteId);
    const visible = await member();
    const v = { siteId, userId: viewer };
    for (const id of [viewer, invisible, deleted, unconfirmed, disabled, elsewhere]) {
      expect(await isListedTo(kit.db, v, id), `member ${id}`).toBe(false);
      expect(await listed(viewer, id)).toBe(false);
    }
    expect(await isListedTo(kit.db, v, visible)).toBe(true);
  });

  it('HON-02 a visitor is shown only members who chose the public pages, and fictional profiles; members see everyone listed', async () => {
    const viewer = await member();
    const chose = await member();
    const private_ = await member(siteId, { publicProfile: false });
    const fictional = await member(siteId, { publicProfile: false, role: 'fictional' });
    await kit.db.update(profiles).set({ fictional: true }).where(eq(profiles.userId, fictional));
    const visitor = { siteId, userId: null };
    expect(await isListedTo(kit.db, visitor, chose)).toBe(true);
    expect(await isListedTo(kit.db, visitor, private_)).toBe(false);
    expect(await isListedTo(kit.db, visitor, fictional)).toBe(true);
    for (const id of [chose, private_, fictional]) expect(await isListedTo(kit.db, { siteId, userId: viewer }, id), `member ${id}`).toBe(true);
  });
});
