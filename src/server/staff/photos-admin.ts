/**
 * The photo inspection queue (OPS-01, PHO-02; docs/decisions/043-photo-management-and-moderation.md):
 * photos waiting for review, oldest first, each with its member and the member's other photos; a
 * moderator approves (the photo becomes `active`: shown to others) or rejects with one of the fixed
 * reasons (`removed`: the owner sees why), one photo or many at once.
 *
 * Every decision is one transaction with its audit row (before and after). A photo that is no longer
 * waiting (another moderator was faster) is skipped, never decided twice. After the commit:
 * - `site.content_changed` is published for each site touched, so every process drops the site's
 *   cached teasers and rendered pages (TtlCache, render cache): an approved main photo is on the cards
 *   at once (cards read the main photo live; only visitors' pages are cached);
 * - each member with rejected photos gets one mail in their own language saying which and why;
 * - a rejected photo's files (main, thumbnail, blurred copy) are deleted from the photo store (SCALE-01,
 *   decision 082): the row stays, so the owner still sees that a photo was removed and why, but nobody —
 *   staff included — can open the image any more. A file that cannot be deleted is logged; the decision stands.
 */
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users, type PhotoStatus } from '../../db/schema';
import { createTranslator } from '../../i18n';
import { isLanguage } from '../../shared/languages';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer } from '../mail/mailer';
import { isRejectionReason, photoOrder, promoteNextMain, type PhotoRejectionReason } from '../photos/manage';
import type { PhotoStore } from '../photos/store';
import type { EventBus } from '../realtime/bus';
import type { SiteDirectory } from '../sites/directory';
import { audit } from '../audit';
import type { StaffMember } from './accounts';

/** How many waiting photos one page of the queue shows. */
export const QUEUE_PAGE = 30;

export interface QueuePhoto {
  id: number;
  filename: string;
  thumbFilename: string;
  premium: boolean;
  createdAt: Date;
  main: boolean;
  member: { id: number; siteId: number; name: string; email: string };
  /** The member's other photos (any state), in their order. */
  others: { id: number; thumbFilename: string; status: PhotoStatus; premium: boolean; main: boolean }[];
}

/** How many photos wait for review. */
export function waitingPhotoCount(db: Db): Promise<number> {
  return db.$count(photos, eq(photos.status, 'inspection_pending'));
}

/** The waiting photos, oldest first, at most `limit`; and how many wait in all. */
export async function photoQueue(db: Db, limit = QUEUE_PAGE): Promise<{ photos: QueuePhoto[]; total: number }> {
  const rows = await db
    .select({
      id: photos.id,
      filename: photos.filename,
      thumbFilename: photos.thumbFilename,
      premium: photos.premium,
      createdAt: photos.createdAt,
      userId: users.id,
      siteId: users.siteId,
      email: users.email,
      name: profiles.name,
      mainPhotoId: profiles.mainPhotoId,
    })
    .from(photos)
    .innerJoin(users, eq(users.id, photos.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(photos.status, 'inspection_pending'))
    .orderBy(asc(photos.createdAt), asc(photos.id))
    .limit(Math.min(Math.max(limit, 1), 200));
  const count = await waitingPhotoCount(db);
  const memberIds = [...new Set(rows.map((r) => r.userId))];
  const all = memberIds.length
    ? await db
        .select({ id: photos.id, userId: photos.userId, thumbFilename: photos.thumbFilename, status: photos.status, premium: photos.premium })
        .from(photos)
        .where(inArray(photos.userId, memberIds))
        .orderBy(...photoOrder)
    : [];
  return {
    total: count,
    photos: rows.map((r) => ({
      id: r.id,
      filename: r.filename,
      thumbFilename: r.thumbFilename,
      premium: r.premium,
      createdAt: r.createdAt,
      main: r.mainPhotoId === r.id,
      member: { id: r.userId, siteId: r.siteId, name: r.name, email: r.email },
      others: all.filter((p) => p.userId === r.userId && p.id !== r.id).map((p) => ({ id: p.id, thumbFilename: p.thumbFilename, status: p.status, premium: p.premium, main: p.id === r.mainPhotoId })),
    })),
  };
}

/** Whether `name` is a stored file of a member photo (main, thumbnail or blurred copy): what staff may open. */
export async function isMemberPhotoFile(db: Db, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: photos.id })
    .from(photos)
    .where(or(eq(photos.filename, name), eq(photos.thumbFilename, name), eq(photos.blurredFilename, name)))
    .limit(1);
  return row !== undefined;
}

export interface ModerationDeps {
  db: Db;
  clock: Clock;
  bus: EventBus;
  mailer: Pick<Mailer, 'send'>;
  sites: Pick<SiteDirectory, 'forId'>;
  photos: Pick<PhotoStore, 'delete'>;
  log: Pick<Logger, 'error'>;
}

export type Decision = { type: 'approve' } | { type: 'reject'; reason: PhotoRejectionReason };

export interface ModerationResult {
  /** Photos decided now. */
  done: number[];
  /** Photos not waiting any more (decided by someone else, deleted by the member) or unknown. */
  skipped: number[];
  /** Members whose rejection mail could not be sent (the decision stands; the owner sees it on /profile). */
  mailFailed: number[];
}

/** At most this many photos in one decision (a page of the queue is smaller). */
export const MAX_BULK = 200;

/** Approves or rejects the photos `ids` (one or many), each audited; see the module comment. */
/**
 * `includeActive` (SAFE-01, a moderator removing a reported member's photos, moderation.ts): a rejection
 * also takes photos already shown (`active`), not only waiting ones.
 */
export async function moderatePhotos(deps: ModerationDeps, by: StaffMember, ids: readonly number[], decision: Decision, options: { includeActive?: boolean } = {}): Promise<ModerationResult> {
  if (decision.type === 'reject' && !isRejectionReason(decision.reason)) throw new Error('moderatePhotos: unknown rejection reason');
  const unique = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647).slice(0, MAX_BULK);
  const now = deps.clock.now();
  const done: number[] = [];
  const skipped: number[] = [];
  const sites = new Set<number>();
  const rejectedBy = new Map<number, PhotoRejectionReason[]>();
  const rejectedFiles: string[] = [];
  for (const id of unique) {
    const outcome = await deps.db.transaction(async (tx) => {
      const [photo] = await tx
        .select({
          status: photos.status,
          userId: photos.userId,
          premium: photos.premium,
          siteId: users.siteId,
          mainPhotoId: profiles.mainPhotoId,
          filename: photos.filename,
          thumbFilename: photos.thumbFilename,
          blurredFilename: photos.blurredFilename,
        })
        .from(photos)
        .innerJoin(users, eq(users.id, photos.userId))
        .leftJoin(profiles, eq(profiles.userId, photos.userId))
        .where(eq(photos.id, id))
        .for('update', { of: photos });
      const decidable = photo?.status === 'inspection_pending' || (options.includeActive === true && decision.type === 'reject' && photo?.status === 'active');
      if (!photo || !decidable) return null;
      const main = photo.mainPhotoId === id;
      if (decision.type === 'approve') {
        await tx.update(photos).set({ status: 'active', rejectionReason: null, moderatedAt: now }).where(eq(photos.id, id));
        await audit(tx, { staffId: by.id, action: 'photo.approve', targetType: 'photo', targetId: id, before: { status: photo.status, member: photo.userId, main }, after: { status: 'active' } }, now);
      } else {
        await tx.update(photos).set({ status: 'removed', rejectionReason: decision.reason, moderatedAt: now }).where(eq(photos.id, id));
        if (main) await promoteNextMain(tx, photo.userId);
        await audit(
          tx,
          {
            staffId: by.id,
            action: 'photo.reject',
            targetType: 'photo',
            targetId: id,
            before: { status: photo.status, member: photo.userId, main },
            after: { status: 'removed', reason: decision.reason },
          },
          now,
        );
      }
      return { siteId: photo.siteId, userId: photo.userId, files: [photo.filename, photo.thumbFilename, photo.blurredFilename].filter((n): n is string => n !== null) };
    });
    if (!outcome) {
      skipped.push(id);
      continue;
    }
    done.push(id);
    sites.add(outcome.siteId);
    if (decision.type === 'reject') {
      rejectedBy.set(outcome.userId, [...(rejectedBy.get(outcome.userId) ?? []), decision.reason]);
      rejectedFiles.push(...outcome.files);
    }
  }
  // After the commits: a crash in between leaves files nobody can open (the row says removed), never a row without its file.
  for (const name of rejectedFiles) {
    try {
      await deps.photos.delete(name);
    } catch (err) {
      deps.log.error({ err, name }, 'rejected photo file not deleted');
    }
  }
  for (const siteId of sites) await deps.bus.publish('site.content_changed', { siteId });
  const mailFailed: number[] = [];
  for (const [userId, reasons] of rejectedBy) {
    try {
      if (!(await mailRejection(deps, userId, reasons))) mailFailed.push(userId);
    } catch (err) {
      deps.log.error({ err, userId }, 'photo rejection mail failed');
      mailFailed.push(userId);
    }
  }
  return { done, skipped, mailFailed };
}

/**
 * Tells the member, in their language (else their site's), that `reasons.length` photos were removed and
 * why, with a link to their profile. Returns false when the mail was not accepted; true also when no
 * mail is due (a deleted or banned account).
 */
async function mailRejection(deps: ModerationDeps, userId: number, reasons: PhotoRejectionReason[]): Promise<boolean> {
  const [member] = await deps.db
    .select({ email: users.email, language: users.language, siteId: users.siteId, status: users.status, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!member || member.status === 'deleted' || member.status === 'banned') return true;
  const site = await deps.sites.forId(member.siteId);
  const t = createTranslator(isLanguage(member.language) ? member.language : site.settings.domain_language);
  const values = { name: member.name, site: site.settings.name, count: reasons.length };
  const body = renderMail(site, {
    heading: t('photos_manage:mail.heading', values),
    paragraphs: [t('photos_manage:mail.intro', values), ...reasons.map((r) => `• ${t(`photos_manage:reasons.${r}`)}`), t('photos_manage:mail.outro', values)],
    button: { label: t('photos_manage:mail.button', values), url: `https://${site.settings.domain}/profile#photos` },
    footer: t('mail:footer', values),
  });
  const sent = await deps.mailer.send({
    siteId: site.settings.id,
    userId,
    kind: 'photo_rejected',
    to: member.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t('photos_manage:mail.subject', values),
    ...body,
  });
  return sent.type === 'ok';
}
