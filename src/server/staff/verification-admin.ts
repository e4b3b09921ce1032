/**
 * The verification queue (VER-01; docs/decisions/088-photo-verification.md): selfies waiting for a
 * moderator, oldest first, each with the pose asked and the member's photos (the main photo first) to
 * compare with. Approve records the main photo the moderator compared (posted with the form): the member
 * is verified while that photo stays their main photo. Reject names one of the fixed reasons. Either way
 * the member gets a mail in their language, and the decision is audited. Fictional profiles are never
 * approved. A selfie no longer waiting (another moderator was faster) is skipped, never decided twice.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users, verifications, type PhotoStatus } from '../../db/schema';
import { createTranslator } from '../../i18n';
import { isLanguage } from '../../shared/languages';
import { isVerificationPose, isVerificationRejectionReason, type VerificationPose, type VerificationRejectionReason } from '../../shared/verification';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer } from '../mail/mailer';
import { photoOrder } from '../photos/manage';
import type { EventBus } from '../realtime/bus';
import type { SiteDirectory } from '../sites/directory';
import { audit } from '../audit';
import type { StaffMember } from './accounts';

export const VERIFICATION_QUEUE_PAGE = 20;

export interface QueueSelfie {
  id: number;
  filename: string;
  pose: VerificationPose;
  createdAt: Date;
  member: { id: number; siteId: number; name: string; email: string; fictional: boolean };
  /** The member's main photo now (what an approval verifies), or null. */
  mainPhotoId: number | null;
  /** The member's photos not removed, main first, then in their order. */
  photos: { id: number; filename: string; status: PhotoStatus; main: boolean }[];
}

/** How many selfies wait for a moderator. */
export function waitingVerificationCount(db: Db): Promise<number> {
  return db.$count(verifications, eq(verifications.status, 'pending'));
}

/** The waiting selfies, oldest first, at most `limit`; and how many wait in all. */
export async function verificationQueue(db: Db, limit = VERIFICATION_QUEUE_PAGE): Promise<{ selfies: QueueSelfie[]; total: number }> {
  const rows = await db
    .select({
      id: verifications.id,
      filename: verifications.filename,
      pose: verifications.pose,
      createdAt: verifications.createdAt,
      userId: users.id,
      siteId: users.siteId,
      email: users.email,
      name: profiles.name,
      fictional: profiles.fictional,
      mainPhotoId: profiles.mainPhotoId,
    })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(verifications.status, 'pending'))
    .orderBy(asc(verifications.createdAt), asc(verifications.id))
    .limit(Math.min(Math.max(limit, 1), 100));
  const total = await waitingVerificationCount(db);
  const selfies: QueueSelfie[] = [];
  for (const r of rows) {
    if (r.filename === null || !isVerificationPose(r.pose)) continue;
    const own = await db
      .select({ id: photos.id, filename: photos.filename, status: photos.status })
      .from(photos)
      .where(and(eq(photos.userId, r.userId), sql`${photos.status} <> 'removed'`))
      .orderBy(...photoOrder);
    const list = own.map((p) => ({ ...p, main: p.id === r.mainPhotoId })).sort((a, b) => Number(b.main) - Number(a.main));
    selfies.push({
      id: r.id,
      filename: r.filename,
      pose: r.pose,
      createdAt: r.createdAt,
      member: { id: r.userId, siteId: r.siteId, name: r.name, email: r.email, fictional: r.fictional },
      mainPhotoId: r.mainPhotoId,
      photos: list,
    });
  }
  return { selfies, total };
}

/** Whether `name` is a stored selfie (what a moderator may open at /admin/verifications/file/{name}). */
export async function isSelfieFile(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ id: verifications.id }).from(verifications).where(eq(verifications.filename, name)).limit(1);
  return row !== undefined;
}

export interface VerificationDecisionDeps {
  db: Db;
  clock: Clock;
  bus: EventBus;
  mailer: Pick<Mailer, 'send'>;
  sites: Pick<SiteDirectory, 'forId'>;
  log: Pick<Logger, 'error'>;
}

/** `photoId`: the main photo the moderator compared the selfie with (from the form). */
export type VerificationDecision = { type: 'approve'; photoId: number } | { type: 'reject'; reason: VerificationRejectionReason };

export type VerificationDecisionResult = { type: 'done'; mailed: boolean } | { type: 'skipped' } | { type: 'main_photo_changed' } | { type: 'not_allowed' };

export async function decideVerification(deps: VerificationDecisionDeps, by: StaffMember, id: number, decision: VerificationDecision): Promise<VerificationDecisionResult> {
  if (decision.type === 'reject' && !isVerificationRejectionReason(decision.reason)) throw new Error('decideVerification: unknown rejection reason');
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: verifications.status, userId: verifications.userId, siteId: users.siteId, fictional: profiles.fictional, role: users.role, mainPhotoId: profiles.mainPhotoId })
      .from(verifications)
      .innerJoin(users, eq(users.id, verifications.userId))
      .innerJoin(profiles, eq(profiles.userId, verifications.userId))
      .where(eq(verifications.id, id))
      .for('update', { of: verifications });
    if (!row || row.status !== 'pending') return { type: 'skipped' } as const;
    if (decision.type === 'approve') {
      if (row.fictional || row.role !== 'member') return { type: 'not_allowed' } as const;
      // The moderator compared the main photo shown on the page; if the member changed it since, look again.
      if (row.mainPhotoId !== decision.photoId) return { type: 'main_photo_changed' } as const;
      await tx.update(verifications).set({ status: 'approved', photoId: decision.photoId, decidedAt: now, decidedBy: by.id }).where(eq(verifications.id, id));
      await tx.update(profiles).set({ verifiedPhotoId: decision.photoId }).where(eq(profiles.userId, row.userId));
      await audit(
        tx,
        { staffId: by.id, action: 'verification.approve', targetType: 'user', targetId: row.userId, before: { verification: id }, after: { status: 'approved', photo: decision.photoId } },
        now,
      );
    } else {
      await tx.update(verifications).set({ status: 'rejected', rejectionReason: decision.reason, decidedAt: now, decidedBy: by.id }).where(eq(verifications.id, id));
      await audit(
        tx,
        { staffId: by.id, action: 'verification.reject', targetType: 'user', targetId: row.userId, before: { verification: id }, after: { status: 'rejected', reason: decision.reason } },
        now,
      );
    }
    return { type: 'done', userId: row.userId, siteId: row.siteId } as const;
  });
  if (outcome.type !== 'done') return outcome;
  // The mark is on cards: every process drops the site's cached teasers and pages.
  await deps.bus.publish('site.content_changed', { siteId: outcome.siteId });
  let mailed = false;
  try {
    mailed = await mailDecision(deps, outcome.userId, decision);
  } catch (err) {
    deps.log.error({ err, userId: outcome.userId }, 'verification decision mail failed');
  }
  return { type: 'done', mailed };
}

/** Tells the member the decision in their language (else their site's); a rejection says why and links to /verify. */
async function mailDecision(deps: VerificationDecisionDeps, userId: number, decision: VerificationDecision): Promise<boolean> {
  const [member] = await deps.db
    .select({ email: users.email, language: users.language, siteId: users.siteId, status: users.status, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!member || member.status === 'deleted' || member.status === 'banned') return true;
  const site = await deps.sites.forId(member.siteId);
  const t = createTranslator(isLanguage(member.language) ? member.language : site.settings.domain_language);
  const values = { name: member.name, site: site.settings.name };
  const approved = decision.type === 'approve';
  const body = renderMail(site, {
    heading: t(approved ? 'verification:mail.approved_heading' : 'verification:mail.rejected_heading', values),
    paragraphs: approved
      ? [t('verification:mail.approved_intro', values)]
      : [t('verification:mail.rejected_intro', values), `• ${t(`verification:reasons.${decision.reason}`)}`, t('verification:mail.rejected_outro', values)],
    button: approved
      ? { label: t('verification:mail.approved_button', values), url: `https://${site.settings.domain}/profile` }
      : { label: t('verification:mail.rejected_button', values), url: `https://${site.settings.domain}/verify` },
    footer: t('mail:footer', values),
  });
  const sent = await deps.mailer.send({
    siteId: site.settings.id,
    userId,
    kind: approved ? 'verification_approved' : 'verification_rejected',
    to: member.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t(approved ? 'verification:mail.approved_subject' : 'verification:mail.rejected_subject', values),
    ...body,
  });
  return sent.type === 'ok';
}
