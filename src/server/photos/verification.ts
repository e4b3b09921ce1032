/**
 * Photo verification, the member's side (VER-01; docs/decisions/088-photo-verification.md): a selfie in a
 * pose the site asked for goes to the moderators' queue (staff/verification-admin.ts decides).
 *
 * - The selfie is judged by its content like any upload (checkImage), turned upright, cut to at most
 *   960 px and re-encoded as WebP without metadata. It is stored in the same PhotoStore as photos under
 *   a random name, but it is no photo: no `photos` row names it, so /photos/{name} never serves it
 *   (photoAccess finds no photo and answers "denied"). Only its owner (/verification/selfie/{name}) and
 *   moderators (/admin/verifications/file/{name}) receive it, never cached.
 * - A member is verified while the main photo the moderator checked is still their main photo
 *   (`profiles.verified_photo_id = profiles.main_photo_id`): a new main photo drops the mark at once,
 *   with nothing to keep in step; a new selfie brings it back.
 * - Fictional profiles are never verified: their selfie is refused, and the check excludes them.
 * - Selfies are kept until 30 days after the decision (purgeDecidedSelfies, a job), and go with the
 *   account's erasure (selfieFilesOf + the erase job).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNotNull, lte, ne, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { conversations, photos, profiles, users, verifications } from '../../db/schema';
import { isVerificationPose, isVerificationRejectionReason, SELFIE_RETENTION_DAYS, type VerificationPose, type VerificationState } from '../../shared/verification';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { checkImage, MAX_INPUT_PIXELS } from './upload';
import { PHOTO_NAME, type PhotoStore } from './store';

/** The SQL condition "this profile is verified" (VER-01); the search's partial index is on exactly this. */
export const verifiedCondition = sql<boolean>`(${profiles.verifiedPhotoId} = ${profiles.mainPhotoId} and not ${profiles.fictional})`;

/** Whether `userId` is verified now. */
export async function isVerified(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ verified: verifiedCondition }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row?.verified === true;
}

/** What the member sees of their verification on /verify and /settings. */
export async function verificationStateOf(db: Db, userId: number): Promise<VerificationState> {
  const [[profile], [last]] = await Promise.all([
    db.select({ verified: verifiedCondition, verifiedPhotoId: profiles.verifiedPhotoId }).from(profiles).where(eq(profiles.userId, userId)).limit(1),
    db
      .select({ status: verifications.status, pose: verifications.pose, reason: verifications.rejectionReason })
      .from(verifications)
      .where(eq(verifications.userId, userId))
      .orderBy(desc(verifications.createdAt), desc(verifications.id))
      .limit(1),
  ]);
  if (last?.status === 'pending' && isVerificationPose(last.pose)) return { state: 'pending', pose: last.pose };
  if (profile?.verified) return { state: 'verified' };
  if (profile?.verifiedPhotoId !== null && profile?.verifiedPhotoId !== undefined) return { state: 'lapsed' };
  if (last?.status === 'rejected') return { state: 'rejected', reason: isVerificationRejectionReason(last.reason) ? last.reason : null };
  return { state: 'none' };
}

/** A pose picked at random (the member may ask for another by reloading; the moderator checks the one sent). */
export function randomPose(poses: readonly VerificationPose[]): VerificationPose {
  return poses[randomBytes(1)[0]! % poses.length]!;
}

export type SelfieRefusal = 'photo_invalid' | 'photo_too_large' | 'invalid_pose' | 'verification_pending' | 'already_verified' | 'verification_not_allowed' | 'main_photo_required';

export type SelfieResult = { type: 'ok'; id: number } | { type: 'error'; reason: SelfieRefusal };

export interface SelfieDeps {
  db: Db;
  clock: Clock;
  photos: PhotoStore;
}

/** The longest side of a stored selfie: enough to compare a face and a hand with the photos. */
export const SELFIE_SIZE = 960;

export function newSelfieName(userId: number): string {
  const name = `${randomBytes(3).toString('hex')}-v${userId}-${randomBytes(10).toString('hex')}-selfie.webp`;
  if (!PHOTO_NAME.test(name)) throw new Error('generated selfie name does not fit PHOTO_NAME');
  return name;
}

/**
 * Stores the selfie of `userId` in `pose` and queues it for a moderator. Refused for fictional profiles,
 * for a member without a main photo (there is nothing to compare with), while one waits, and while the
 * member is verified.
 */
export async function submitSelfie(deps: SelfieDeps, userId: number, pose: unknown, body: Buffer): Promise<SelfieResult> {
  if (!isVerificationPose(pose)) return { type: 'error', reason: 'invalid_pose' };
  const [member] = await deps.db
    .select({ role: users.role, fictional: profiles.fictional, verified: verifiedCondition, mainStatus: photos.status })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!member || member.fictional || member.role !== 'member') return { type: 'error', reason: 'verification_not_allowed' };
  if (member.verified) return { type: 'error', reason: 'already_verified' };
  if (member.mainStatus === null || member.mainStatus === 'removed') return { type: 'error', reason: 'main_photo_required' };
  if (await hasPending(deps.db, userId)) return { type: 'error', reason: 'verification_pending' };

  const checked = await checkImage(body);
  if (checked.type === 'error') return checked;
  let image: Buffer;
  try {
    image = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .autoOrient()
      .resize(SELFIE_SIZE, SELFIE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    return { type: 'error', reason: 'photo_invalid' };
  }
  const filename = newSelfieName(userId);
  await deps.photos.put(filename, image);
  const now = deps.clock.now();
  const inserted = await deps.db.transaction(async (tx) => {
    // One waiting selfie per member: two sends at once are decided one after the other.
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for no key update`);
    const [waiting] = await tx
      .select({ id: verifications.id })
      .from(verifications)
      .where(and(eq(verifications.userId, userId), eq(verifications.status, 'pending')))
      .limit(1);
    if (waiting) return null;
    const [row] = await tx.insert(verifications).values({ userId, pose, filename, status: 'pending', createdAt: now }).returning({ id: verifications.id });
    return row!;
  });
  if (!inserted) {
    await deps.photos.delete(filename);
    return { type: 'error', reason: 'verification_pending' };
  }
  return { type: 'ok', id: inserted.id };
}

async function hasPending(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.userId, userId), eq(verifications.status, 'pending')))
    .limit(1);
  return row !== undefined;
}

/** Whether `name` is a stored selfie of `userId` (what /verification/selfie/{name} serves to its owner). */
export async function isOwnSelfie(db: Db, userId: number, name: string): Promise<boolean> {
  if (!PHOTO_NAME.test(name)) return false;
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.userId, userId), eq(verifications.filename, name)))
    .limit(1);
  return row !== undefined;
}

/** The member's latest selfie still stored, if any (shown on /verify while it waits). */
export async function latestSelfie(db: Db, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ filename: verifications.filename })
    .from(verifications)
    .where(and(eq(verifications.userId, userId), isNotNull(verifications.filename)))
    .orderBy(desc(verifications.createdAt), desc(verifications.id))
    .limit(1);
  return row?.filename ?? null;
}

/**
 * VER-02: whether `senderId`'s first message to `otherId` would be refused with 'verification_required'
 * (chat/send.ts decides, under its lock): no conversation between them yet, the other member lets only
 * verified members start one, and the sender is not verified. The profile and the chat screen say so
 * before anything is typed, and offer verification.
 */
export async function verificationRequired(db: Db, senderId: number, otherId: number): Promise<boolean> {
  const [other] = await db.select({ onlyVerified: users.onlyVerifiedContact }).from(users).where(eq(users.id, otherId)).limit(1);
  if (!other?.onlyVerified) return false;
  const [low, high] = senderId < otherId ? [senderId, otherId] : [otherId, senderId];
  const [existing] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.memberLow, low), eq(conversations.memberHigh, high)))
    .limit(1);
  if (existing) return false;
  return !(await isVerified(db, senderId));
}

/** VER-02: the member's setting "only verified members may start a conversation with me". */
export async function onlyVerifiedContactOf(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ on: users.onlyVerifiedContact }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.on ?? false;
}

export async function setOnlyVerifiedContact(db: Db, userId: number, on: boolean): Promise<void> {
  await db.update(users).set({ onlyVerifiedContact: on }).where(eq(users.id, userId));
}

/**
 * The retention job: deletes the files of selfies decided SELFIE_RETENTION_DAYS or more ago (the row
 * stays, with its decision, without the file). Returns how many files went.
 */
export async function purgeDecidedSelfies(deps: { db: Db; clock: Clock; photos: Pick<PhotoStore, 'delete'>; log?: Pick<Logger, 'warn' | 'info'> }, batch = 500): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - SELFIE_RETENTION_DAYS * 86_400_000);
  const due = await deps.db
    .select({ id: verifications.id, filename: verifications.filename })
    .from(verifications)
    .where(and(isNotNull(verifications.filename), ne(verifications.status, 'pending'), lte(verifications.decidedAt, cutoff)))
    .orderBy(verifications.decidedAt)
    .limit(batch);
  let deleted = 0;
  for (const row of due) {
    // The row first: a crash after it leaves a file nobody can name, never a row naming a missing file.
    const [cleared] = await deps.db
      .update(verifications)
      .set({ filename: null })
      .where(and(eq(verifications.id, row.id), eq(verifications.filename, row.filename!)))
      .returning({ id: verifications.id });
    if (!cleared) continue;
    try {
      await deps.photos.delete(row.filename!);
      deleted++;
    } catch (err) {
      deps.log?.warn({ err, name: row.filename }, 'selfie file not deleted');
    }
  }
  if (deleted > 0) deps.log?.info({ deleted }, 'selfies past their retention deleted');
  return deleted;
}
