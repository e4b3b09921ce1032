/**
 * Erasing deleted accounts after 14 days (DEL-01, GDPR-01) against a real database (in-memory PGlite, and PostgreSQL when it answers)
 * and photo folder, with a clock the test moves instead of waiting.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, creditLedger, mailOutbox, pageEvents, photos, profiles, pushSubscriptions, sessions, sites, users } from '../../db/schema';
import { DELETE_GRACE_MS, reactivateAccount } from '../accounts/deletion';
import { issueToken } from '../accounts/tokens';
import { createSession } from '../auth/sessions';
import { grant } from '../credits/ledger';
import type { LocalPhotoStore } from '../photos/store';
import { uploadPhoto } from '../photos/upload';
import { eraseDeletedAccounts } from './erase-deleted';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { InProcessBus } from '../realtime/bus';

const DAY = 24 * 3600 * 1000;

describe.each(await databaseKinds())('on %s', (kind) => {
  const clock = new FakeClock();
  let testDb: TestDatabase;
  let kit: SeededDatabase;
  let database: SeededDatabase['database'];
  let store: LocalPhotoStore;
  let siteId: number;
  let n = 0;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    kit = await seededDatabase({ clock, url: testDb.url });
    database = kit.database;
    store = kit.photos;
    const [site] = await database.db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true));
    siteId = site!.id;
  });
  afterAll(async () => {
    await kit?.close();
    await testDb?.drop();
  });

  /** A member with everything personal: photos (files too), sessions, tokens, push, mails, page events, ledger. */
  async function fullMember(state: { deletedDaysAgo?: number } = {}) {
    n++;
    const email = `erase-${n}@example.com`;
    const deletedAt = state.deletedDaysAgo === undefined ? null : new Date(clock.now().getTime() - state.deletedDaysAgo * DAY);
    const [user] = await database.db
      .insert(users)
      .values({
        siteId,
        email,
        passwordHash: 'argon2-hash',
        status: deletedAt ? 'deleted' : 'active',
        emailConfirmedAt: clock.now(),
        deletedAt,
        language: 'nl',
        tracking: { network: 'n1' },
        signupMessage: 'Hoi!',
      })
      .returning({ id: users.id });
    const id = user!.id;
    await database.db.insert(profiles).values({
      userId: id,
      siteId,
      name: `Erasable ${n}`,
      status: deletedAt ? 'disabled' : 'active',
      gender: 'female',
      sexuality: 'bi',
      birthDate: '1991-08-17',
      country: 'NL',
      city: 'Utrecht',
      about: 'Personal words',
      hairColour: 'red',
      eyeColour: 'green',
      bodyType: 'slim',
      relationshipStatus: 'single',
      tattoos: 'some',
      interests: ['wine', 'music'],
      signupReason: 'chat',
    });
    const body = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    const uploaded = await uploadPhoto({ db: database.db, clock, photos: store }, { userId: id, body, setAsMain: true });
    if (uploaded.type !== 'ok') throw new Error('upload failed');
    await createSession(database.db, clock, id, { ip: '192.0.2.1', userAgent: 'UA' });
    await issueToken(database.db, clock, id, 'reactivation');
    await database.db.insert(pushSubscriptions).values({ userId: id, endpoint: `https://push.example/${id}`, p256dh: 'k', auth: 'a' });
    await database.db.insert(mailOutbox).values({ siteId, userId: id, kind: 'account_deleted', toAddress: email, fromAddress: 'x <x@x>', subject: 's', text: 't', html: 'h' });
    await database.db.insert(mailOutbox).values({ siteId, userId: null, kind: 'complaint', toAddress: email, fromAddress: 'x <x@x>', subject: 's2', text: 't', html: 'h' });
    await database.db.insert(pageEvents).values({ siteId, userId: id, kind: 'hidden', path: '/members' });
    await grant(database.db, { memberId: id, amount: 30, reason: 'signup_credits', reference: `signup:${id}` });
    return { id, email, photo: uploaded.photo };
  }

  const count = async (table: typeof sessions | typeof accountTokens | typeof pushSubscriptions | typeof pageEvents | typeof photos | typeof creditLedger, id: number) =>
    (await database.db.select().from(table).where(eq(table.userId, id))).length;

  describe('erase deleted accounts', () => {
    it('DEL-01 GDPR-01 an account deleted 14 days ago loses its personal data; the ledger stays on the anonymised id', async () => {
      const gone = await fullMember({ deletedDaysAgo: 14 });
      const result = await eraseDeletedAccounts({ db: database.db, clock, photos: store });
      expect(result.erased).toContain(gone.id);

      const [user] = await database.db.select().from(users).where(eq(users.id, gone.id));
      expect(user).toMatchObject({ email: `deleted-${gone.id}@invalid`, passwordHash: null, tracking: null, signupMessage: null, status: 'deleted', credits: 30 });
      const [profile] = await database.db.select().from(profiles).where(eq(profiles.userId, gone.id));
      expect(profile).toMatchObject({
        name: 'deleted',
        about: '',
        status: 'disabled',
        city: null,
        hairColour: null,
        eyeColour: null,
        bodyType: null,
        relationshipStatus: null,
        tattoos: null,
        signupReason: null,
        interests: [],
        mainPhotoId: null,
        birthDate: '1991-01-01',
      });
      expect(await store.exists(gone.photo.filename)).toBe(false);
      expect(await store.exists(gone.photo.thumbFilename)).toBe(false);
      for (const table of [photos, sessions, accountTokens, pushSubscriptions, pageEvents] as const) expect(await count(table, gone.id)).toBe(0);
      expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, gone.email))).toHaveLength(0);
      expect(await count(creditLedger, gone.id)).toBe(1);
    });

    it('DEL-01 an account deleted 13 days ago and a living account are left alone', async () => {
      const recent = await fullMember({ deletedDaysAgo: 13 });
      const alive = await fullMember();
      const result = await eraseDeletedAccounts({ db: database.db, clock, photos: store });
      for (const m of [recent, alive]) {
        expect(result.erased).not.toContain(m.id);
        const [user] = await database.db.select().from(users).where(eq(users.id, m.id));
        expect(user!.email).toBe(m.email);
        expect(user!.passwordHash).toBe('argon2-hash');
        expect(await store.exists(m.photo.filename)).toBe(true);
        expect(await count(photos, m.id)).toBe(1);
        expect(await count(sessions, m.id)).toBe(1);
      }
      // A day later the recent one is due, the living one still is not.
      clock.advance(DAY);
      const later = await eraseDeletedAccounts({ db: database.db, clock, photos: store });
      expect(later.erased).toContain(recent.id);
      expect(later.erased).not.toContain(alive.id);
    });

    it('DEL-01 erasing is done once: a second run finds nothing, and an erased account cannot be reactivated', async () => {
      const gone = await fullMember({ deletedDaysAgo: 20 });
      const token = await issueToken(database.db, clock, gone.id, 'reactivation', { ttlMs: 30 * DAY });
      expect((await eraseDeletedAccounts({ db: database.db, clock, photos: store })).erased).toContain(gone.id);
      expect((await eraseDeletedAccounts({ db: database.db, clock, photos: store })).erased).toEqual([]);
      expect((await reactivateAccount({ db: database.db, clock, bus: new InProcessBus() }, token, { siteId })).type).toBe('error');
    });

    it('DEL-01 an account reactivated in time is never erased', async () => {
      const back = await fullMember({ deletedDaysAgo: 20 });
      await database.db.update(users).set({ status: 'active', deletedAt: null }).where(eq(users.id, back.id));
      const result = await eraseDeletedAccounts({ db: database.db, clock, photos: store });
      expect(result.erased).not.toContain(back.id);
      expect((await database.db.select().from(users).where(eq(users.id, back.id)))[0]!.email).toBe(back.email);
    });

    it('DEL-01 the grace period is 14 days', () => {
      expect(DELETE_GRACE_MS).toBe(14 * DAY);
    });
  });
});
