/**
 * Photo verification (VER-01, VER-02) against a real (in-memory PGlite) database, a real photo folder and
 * real images made by sharp: the selfie's storage and privacy, the moderator's decision with its mail and
 * audit row, the mark that goes with a new main photo, the "verified only" search, the retention job,
 * erasure and the data export, and the server's refusal of a first message from a member not verified.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { auditLog, mailOutbox, photos, profiles, users, verifications } from '../../db/schema';
import { InProcessBus } from '../realtime/bus';
import { photoAccess } from '../photos/access';
import { isOwnSelfie, isVerified, purgeDecidedSelfies, setOnlyVerifiedContact, submitSelfie, verificationRequired, verificationStateOf } from '../photos/verification';
import { sendMessage, type ChatPrices } from '../chat/send';
import { searchMembers } from '../members/search';
import { exportUserData } from '../accounts/data-export';
import { eraseDeletedAccounts } from '../jobs/erase-deleted';
import { createStaff, type StaffMember } from './accounts';
import { decideVerification, isSelfieFile, verificationQueue, waitingVerificationCount } from './verification-admin';

const PRICES: ChatPrices = { message_credits: 0, photo_credits: 0, gift_credits: 0, message_length: 200 };
const clock = new FakeClock();
let kit: SeededDatabase;
let siteId: number;
let moderator: StaffMember;
let serial = 0;
const log = { error: () => undefined, warn: () => undefined, info: () => undefined };

beforeAll(async () => {
  kit = await seededDatabase({ clock, profilesPerSite: 0 });
  const site = await kit.site();
  siteId = site.settings.id;
  moderator = await createStaff({ db: kit.db }, { email: 'verify-mod@example.com', name: 'Vera', role: 'moderator', password: 'a-staff-password-9' });
});
afterAll(() => kit?.close());

const selfieDeps = () => ({ db: kit.db, clock, photos: kit.photos });
const decideDeps = () => ({ db: kit.db, clock, bus: new InProcessBus(), mailer: kit.mailer, sites: kit.sites, log });

/** A confirmed member with an active main photo (and a second active photo), or none with `photo: false`. */
async function member(options: { photo?: boolean; fictional?: boolean; language?: string; gender?: string } = {}): Promise<{ id: number; mainPhotoId: number | null; otherPhotoId: number | null }> {
  serial++;
  const [user] = await kit.db
    .insert(users)
    .values({ siteId, email: `verify-${serial}@example.com`, status: 'active', language: options.language ?? 'en', role: options.fictional ? 'fictional' : 'member' })
    .returning({ id: users.id });
  const id = user!.id;
  await kit.db
    .insert(profiles)
    .values({ userId: id, siteId, name: `Verifier ${serial}`, gender: options.gender ?? 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL', fictional: options.fictional ?? false });
  if (options.photo === false) return { id, mainPhotoId: null, otherPhotoId: null };
  const rows = await kit.db
    .insert(photos)
    .values([0, 1].map((k) => ({ userId: id, filename: `ab-v${id}-${k}-main.webp`, thumbFilename: `ab-v${id}-${k}-thumb.webp`, status: 'active' as const, width: 480, height: 600, position: k })))
    .returning({ id: photos.id });
  await kit.db.update(profiles).set({ mainPhotoId: rows[0]!.id }).where(eq(profiles.userId, id));
  return { id, mainPhotoId: rows[0]!.id, otherPhotoId: rows[1]!.id };
}

/** A real JPEG as a phone camera would send it, with camera EXIF. */
async function selfieJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#c08060' } })
    .withExif({ IFD0: { Make: 'PhoneCam', Model: 'Selfie 1' } })
    .jpeg()
    .toBuffer();
}

async function pendingOf(userId: number) {
  const [row] = await kit.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.userId, userId), eq(verifications.status, 'pending')));
  return row!;
}

describe('photo verification (VER-01)', () => {
  it('VER-01 a selfie in a pose is stored re-encoded without metadata, queued with the pose, and served to nobody on the public photo route', async () => {
    const m = await member();
    const result = await submitSelfie(selfieDeps(), m.id, 'thumb_up', await selfieJpeg());
    expect(result.type).toBe('ok');
    const row = await pendingOf(m.id);
    expect(row.pose).toBe('thumb_up');
    const file = await kit.photos.get(row.filename!);
    const meta = await sharp(file!.body).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(960);
    expect(meta.exif).toBeUndefined();
    // Never a public photo: not for the owner, a premium member or a visitor on /photos/{name}.
    expect(await photoAccess(kit.db, row.filename!, siteId, { id: m.id, paid_user: true })).toEqual({ type: 'denied' });
    expect(await photoAccess(kit.db, row.filename!, siteId, null)).toEqual({ type: 'denied' });
    // Its owner and the moderators only.
    const other = await member();
    expect(await isOwnSelfie(kit.db, m.id, row.filename!)).toBe(true);
    expect(await isOwnSelfie(kit.db, other.id, row.filename!)).toBe(false);
    expect(await isSelfieFile(kit.db, row.filename!)).toBe(true);
    expect(await verificationStateOf(kit.db, m.id)).toEqual({ state: 'pending', pose: 'thumb_up' });
    const queue = await verificationQueue(kit.db);
    const queued = queue.selfies.find((s) => s.member.id === m.id)!;
    expect(queued).toMatchObject({ pose: 'thumb_up', mainPhotoId: m.mainPhotoId });
    expect(queued.photos[0]).toMatchObject({ id: m.mainPhotoId, main: true });
    expect(queue.total).toBe(await waitingVerificationCount(kit.db));
  });

  it('VER-01 refuses a selfie for an unknown pose, without a main photo, from a fictional profile, a second while one waits, and a broken file — storing nothing', async () => {
    const m = await member();
    const jpeg = await selfieJpeg();
    expect(await submitSelfie(selfieDeps(), m.id, 'headstand', jpeg)).toEqual({ type: 'error', reason: 'invalid_pose' });
    expect(await submitSelfie(selfieDeps(), m.id, 'thumb_up', Buffer.from('not an image'))).toEqual({ type: 'error', reason: 'photo_invalid' });
    const bare = await member({ photo: false });
    expect(await submitSelfie(selfieDeps(), bare.id, 'thumb_up', jpeg)).toEqual({ type: 'error', reason: 'main_photo_required' });
    const fictional = await member({ fictional: true });
    expect(await submitSelfie(selfieDeps(), fictional.id, 'thumb_up', jpeg)).toEqual({ type: 'error', reason: 'verification_not_allowed' });
    expect(await kit.db.$count(verifications, eq(verifications.userId, m.id))).toBe(0);
    expect((await submitSelfie(selfieDeps(), m.id, 'peace_sign', jpeg)).type).toBe('ok');
    expect(await submitSelfie(selfieDeps(), m.id, 'thumb_up', jpeg)).toEqual({ type: 'error', reason: 'verification_pending' });
    expect(await kit.db.$count(verifications, eq(verifications.userId, m.id))).toBe(1);
  });

  it('VER-01 approval verifies the member against the main photo compared, mails them in their language and is audited; a new main photo drops the mark until a new selfie is approved', async () => {
    const m = await member({ language: 'de' });
    await submitSelfie(selfieDeps(), m.id, 'hand_beside_face', await selfieJpeg());
    const row = await pendingOf(m.id);
    expect(await decideVerification(decideDeps(), moderator, row.id, { type: 'approve', photoId: m.mainPhotoId! })).toEqual({ type: 'done', mailed: true });
    expect(await isVerified(kit.db, m.id)).toBe(true);
    expect(await verificationStateOf(kit.db, m.id)).toEqual({ state: 'verified' });
    const [mail] = await kit.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, m.id), eq(mailOutbox.kind, 'verification_approved')));
    expect(mail!.subject).toMatch(/verifiziert/);
    const [entry] = await kit.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'verification.approve'), eq(auditLog.targetId, String(m.id))));
    expect(entry!.staffId).toBe(moderator.id);
    // Deciding it again does nothing.
    expect(await decideVerification(decideDeps(), moderator, row.id, { type: 'reject', reason: 'poor_quality' })).toEqual({ type: 'skipped' });
    expect(await submitSelfie(selfieDeps(), m.id, 'thumb_up', await selfieJpeg())).toEqual({ type: 'error', reason: 'already_verified' });

    // The main photo changes to one not checked: the mark goes.
    await kit.db.update(profiles).set({ mainPhotoId: m.otherPhotoId }).where(eq(profiles.userId, m.id));
    expect(await isVerified(kit.db, m.id)).toBe(false);
    expect(await verificationStateOf(kit.db, m.id)).toEqual({ state: 'lapsed' });
    // A new selfie, approved against the new main photo, brings it back.
    await submitSelfie(selfieDeps(), m.id, 'three_fingers', await selfieJpeg());
    const again = await pendingOf(m.id);
    // The moderator's page showed the old main photo: looked at again, not approved.
    expect(await decideVerification(decideDeps(), moderator, again.id, { type: 'approve', photoId: m.mainPhotoId! })).toEqual({ type: 'main_photo_changed' });
    expect(await isVerified(kit.db, m.id)).toBe(false);
    expect((await decideVerification(decideDeps(), moderator, again.id, { type: 'approve', photoId: m.otherPhotoId! })).type).toBe('done');
    expect(await isVerified(kit.db, m.id)).toBe(true);
  });

  it('VER-01 rejection tells the member why, by mail and on the page; fictional profiles are never approved', async () => {
    const m = await member({ language: 'nl' });
    await submitSelfie(selfieDeps(), m.id, 'point_at_ear', await selfieJpeg());
    const row = await pendingOf(m.id);
    expect((await decideVerification(decideDeps(), moderator, row.id, { type: 'reject', reason: 'pose_not_matching' })).type).toBe('done');
    expect(await verificationStateOf(kit.db, m.id)).toEqual({ state: 'rejected', reason: 'pose_not_matching' });
    expect(await isVerified(kit.db, m.id)).toBe(false);
    const [mail] = await kit.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, m.id), eq(mailOutbox.kind, 'verification_rejected')));
    expect(mail!.subject).toMatch(/verificatie/);
    expect(mail!.text).toContain('De houding is niet de gevraagde houding');

    // A fictional profile's selfie (written past the service) cannot be approved.
    const fictional = await member({ fictional: true });
    const [fake] = await kit.db.insert(verifications).values({ userId: fictional.id, pose: 'thumb_up', filename: 'ab-fake-selfie.webp' }).returning({ id: verifications.id });
    expect(await decideVerification(decideDeps(), moderator, fake!.id, { type: 'approve', photoId: fictional.mainPhotoId! })).toEqual({ type: 'not_allowed' });
    expect(await isVerified(kit.db, fictional.id)).toBe(false);
  });

  it('VER-01 the search finds verified members only when asked, and the cards carry the mark', async () => {
    const verified = await member({ gender: 'male' });
    const plain = await member({ gender: 'male' });
    await submitSelfie(selfieDeps(), verified.id, 'thumb_up', await selfieJpeg());
    await decideVerification(decideDeps(), moderator, (await pendingOf(verified.id)).id, { type: 'approve', photoId: verified.mainPhotoId! });
    const viewer = { siteId, userId: (await member()).id };
    const all = await searchMembers(kit.db, { viewer, filters: { gender: ['male'], country: 'NL' }, now: clock.now(), perPage: 60 });
    const only = await searchMembers(kit.db, { viewer, filters: { gender: ['male'], country: 'NL', verified: true }, now: clock.now(), perPage: 60 });
    const ids = (r: typeof all) => r.cards.map((c) => c.id);
    expect(ids(all)).toEqual(expect.arrayContaining([verified.id, plain.id]));
    expect(ids(only)).toContain(verified.id);
    expect(ids(only)).not.toContain(plain.id);
    expect(only.cards.every((c) => c.verified)).toBe(true);
    expect(all.cards.find((c) => c.id === plain.id)!.verified).toBe(false);
    expect(only.filters.verified).toBe(true);
  });

  it('VER-01 a selfie is kept until 30 days after the decision, then its file is deleted (the decision stays)', async () => {
    const m = await member();
    await submitSelfie(selfieDeps(), m.id, 'hand_on_head', await selfieJpeg());
    const row = await pendingOf(m.id);
    await decideVerification(decideDeps(), moderator, row.id, { type: 'reject', reason: 'face_not_visible' });
    const purge = () => purgeDecidedSelfies({ db: kit.db, clock, photos: kit.photos });
    clock.advance(29 * 86_400_000);
    await purge();
    expect(await kit.photos.exists(row.filename!)).toBe(true);
    clock.advance(2 * 86_400_000);
    await purge();
    expect(await kit.photos.exists(row.filename!)).toBe(false);
    const [after] = await kit.db.select().from(verifications).where(eq(verifications.id, row.id));
    expect(after).toMatchObject({ filename: null, status: 'rejected', rejectionReason: 'face_not_visible' });
  });

  it('VER-01 the data export lists the selfies; erasing the account deletes them and the mark', async () => {
    const m = await member();
    await submitSelfie(selfieDeps(), m.id, 'thumb_up', await selfieJpeg());
    const row = await pendingOf(m.id);
    await decideVerification(decideDeps(), moderator, row.id, { type: 'approve', photoId: m.mainPhotoId! });
    const exported = await exportUserData(kit.db, await kit.site(), m.id, clock.now());
    expect(exported!.verifications).toEqual([expect.objectContaining({ pose: 'thumb_up', filename: row.filename, status: 'approved' })]);
    await kit.db
      .update(users)
      .set({ status: 'deleted', deletedAt: new Date(clock.now().getTime() - 15 * 86_400_000) })
      .where(eq(users.id, m.id));
    const erased = await eraseDeletedAccounts({ db: kit.db, clock, photos: kit.photos });
    expect(erased.erased).toContain(m.id);
    expect(await kit.photos.exists(row.filename!)).toBe(false);
    expect(await kit.db.$count(verifications, eq(verifications.userId, m.id))).toBe(0);
    const [profile] = await kit.db.select({ verifiedPhotoId: profiles.verifiedPhotoId }).from(profiles).where(eq(profiles.userId, m.id));
    expect(profile!.verifiedPhotoId).toBeNull();
  });
});

describe('only verified members may start a conversation (VER-02)', () => {
  const chatDeps = () => ({ db: kit.db, bus: new InProcessBus(), clock });
  const sender = (id: number) => ({ siteId, userId: id, paidUser: true });
  let n = 0;
  const send = (from: number, to: number, kind: 'text' | 'gift' = 'text') =>
    sendMessage(chatDeps(), sender(from), PRICES, { to, clientId: `ver02-client-${++n}`, kind, body: kind === 'text' ? 'Hallo!' : '', attachment: kind === 'gift' ? 'rose' : null });

  it('VER-02 a member not verified cannot start a conversation (text or gift) with a member who asks for verified members; told before typing; nothing written', async () => {
    const picky = await member();
    const stranger = await member({ gender: 'male' });
    await setOnlyVerifiedContact(kit.db, picky.id, true);
    expect(await verificationRequired(kit.db, stranger.id, picky.id)).toBe(true);
    expect(await send(stranger.id, picky.id)).toEqual({ type: 'refused', reason: 'verification_required' });
    expect(await send(stranger.id, picky.id, 'gift')).toEqual({ type: 'refused', reason: 'verification_required' });
    // The setting only: without it the same member may write.
    const open = await member();
    expect(await verificationRequired(kit.db, stranger.id, open.id)).toBe(false);
    expect((await send(stranger.id, open.id)).type).toBe('sent');
  });

  it('VER-02 a verified member may start it, and a conversation that exists goes on whatever the setting', async () => {
    const picky = await member();
    const verified = await member({ gender: 'male' });
    await submitSelfie(selfieDeps(), verified.id, 'thumb_up', await selfieJpeg());
    await decideVerification(decideDeps(), moderator, (await pendingOf(verified.id)).id, { type: 'approve', photoId: verified.mainPhotoId! });
    const earlier = await member({ gender: 'male' });
    expect((await send(earlier.id, picky.id)).type).toBe('sent');
    await setOnlyVerifiedContact(kit.db, picky.id, true);
    expect(await verificationRequired(kit.db, verified.id, picky.id)).toBe(false);
    expect((await send(verified.id, picky.id)).type).toBe('sent');
    expect(await verificationRequired(kit.db, earlier.id, picky.id)).toBe(false);
    expect((await send(earlier.id, picky.id)).type).toBe('sent');
  });
});
