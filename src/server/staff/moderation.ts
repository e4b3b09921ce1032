/**
 * SAFE-01: what a moderator does from a member's report, besides the ban (members.ts): warn the member
 * — a mail in the member's own language, in our words only (staff do not write eleven languages, and a
 * warning must not read differently per moderator) — and remove all the member's photos. Each is audited
 * and noted on the complaint it came from, which moves from 'open' to 'in progress'.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { complaintNotes, complaints, photos, profiles, users } from '../../db/schema';
import { createTranslator } from '../../i18n';
import { isLanguage } from '../../shared/languages';
import { audit } from '../audit';
import type { DbTransaction } from '../credits/ledger';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer } from '../mail/mailer';
import type { Clock } from '../clock';
import type { SiteDirectory } from '../sites/directory';
import type { StaffMember } from './accounts';
import { moderatePhotos, type ModerationDeps } from './photos-admin';

export interface WarnDeps {
  db: Db;
  clock: Clock;
  mailer: Pick<Mailer, 'send'>;
  sites: Pick<SiteDirectory, 'forId'>;
}

/** Notes `text` on complaint `complaintId` (when given) and moves it to 'in progress' if it was open. */
async function noteOnComplaint(tx: Db | DbTransaction, by: StaffMember, complaintId: number | null, text: string, at: Date): Promise<void> {
  if (complaintId === null) return;
  await tx.insert(complaintNotes).values({ complaintId, staffId: by.id, kind: 'note', text, createdAt: at });
  await tx
    .update(complaints)
    .set({ status: 'in_progress' })
    .where(and(eq(complaints.id, complaintId), eq(complaints.status, 'open')));
}

export type WarnResult = 'ok' | 'not_found' | 'mail_failed';

/** Mails member `memberId` the warning in their language (else their site's); audited, noted on the complaint. */
export async function warnMember(deps: WarnDeps, by: StaffMember, memberId: number, complaintId: number | null): Promise<WarnResult> {
  const [member] = await deps.db
    .select({ email: users.email, language: users.language, siteId: users.siteId, status: users.status, name: profiles.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, memberId))
    .limit(1);
  if (!member || member.status === 'deleted') return 'not_found';
  const site = await deps.sites.forId(member.siteId);
  const lang = isLanguage(member.language) ? member.language : site.settings.domain_language;
  const t = createTranslator(lang);
  const values = { name: member.name ?? '', site: site.settings.name };
  const body = renderMail(site, {
    heading: t('mail:member_warning.heading', values),
    paragraphs: t('mail:member_warning.body', { ...values, returnObjects: true }) as unknown as string[],
    footer: t('mail:footer', values),
  });
  const sent = await deps.mailer.send({
    siteId: site.settings.id,
    userId: memberId,
    kind: 'member_warning',
    to: member.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t('mail:member_warning.subject', values),
    ...body,
  });
  if (sent.type !== 'ok') return 'mail_failed';
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await audit(tx, { staffId: by.id, action: 'member.warn', targetType: 'member', targetId: memberId, after: { complaint: complaintId, mail: sent.id, language: lang } }, now);
    await noteOnComplaint(tx, by, complaintId, `warned member #${memberId}`, now);
  });
  return 'ok';
}

/**
 * Removes every photo of member `memberId` that others could see or that waits for review, as a rejection
 * for `explicit` content would (moderatePhotos: audited per photo, files deleted, the member mailed why).
 * Answers how many were removed.
 */
export async function removeMemberPhotos(deps: ModerationDeps, by: StaffMember, memberId: number, complaintId: number | null): Promise<number> {
  const rows = await deps.db
    .select({ id: photos.id })
    .from(photos)
    .where(and(eq(photos.userId, memberId), inArray(photos.status, ['active', 'inspection_pending'])));
  const result = await moderatePhotos(
    deps,
    by,
    rows.map((r) => r.id),
    { type: 'reject', reason: 'explicit' },
    { includeActive: true },
  );
  if (complaintId !== null) await noteOnComplaint(deps.db, by, complaintId, `removed ${result.done.length} photo(s) of member #${memberId}`, deps.clock.now());
  return result.done.length;
}
