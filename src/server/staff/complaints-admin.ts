/**
 * Complaints in the back office (OPS-01): the list by status (new, in progress, resolved), one complaint
 * with its notes, the member it came from, status changes, internal notes, and an answer mailed to the
 * complainant (kept as a note of kind 'answer'). Every change is audited in its transaction.
 */
import { and, asc, desc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { complaintMessages, complaintNotes, complaints, photos, profiles, staff, users, type ComplaintStatus } from '../../db/schema';
import { memberSafetyCount } from '../safety/counts';
import { createTranslator } from '../../i18n';
import type { Clock } from '../clock';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer } from '../mail/mailer';
import type { SiteDirectory } from '../sites/directory';
import { audit } from '../audit';
import type { StaffMember } from './accounts';

export const COMPLAINT_STATUSES: readonly ComplaintStatus[] = ['open', 'in_progress', 'handled'];

export function isComplaintStatus(value: unknown): value is ComplaintStatus {
  return typeof value === 'string' && (COMPLAINT_STATUSES as readonly string[]).includes(value);
}

/** How many complaints are not handled yet (open or in progress). */
export function unresolvedComplaintCount(db: Db): Promise<number> {
  return db.$count(complaints, inArray(complaints.status, ['open', 'in_progress']));
}

export async function listComplaints(db: Db, options: { status?: ComplaintStatus; limit?: number } = {}) {
  const where: SQL[] = [];
  if (options.status) where.push(eq(complaints.status, options.status));
  return (
    db
      .select()
      .from(complaints)
      .where(where.length ? and(...where) : undefined)
      // Unresolved ones oldest first (who waited longest), resolved ones newest first.
      .orderBy(options.status === 'handled' ? desc(complaints.id) : asc(complaints.id))
      .limit(Math.min(options.limit ?? 100, 500))
  );
}

/** The member complaint `id` reports (SAFE-01), or null: a form complaint, or no such complaint. */
export async function reportedMemberOf(db: Db, id: number): Promise<number | null> {
  const [row] = await db.select({ member: complaints.reportedUserId }).from(complaints).where(eq(complaints.id, id)).limit(1);
  return row?.member ?? null;
}

export async function complaintDetail(db: Db, id: number, now: Date = new Date()) {
  const [complaint] = await db.select().from(complaints).where(eq(complaints.id, id)).limit(1);
  if (!complaint) return null;
  const notes = await db
    .select({ id: complaintNotes.id, kind: complaintNotes.kind, text: complaintNotes.text, createdAt: complaintNotes.createdAt, staff: staff.name })
    .from(complaintNotes)
    .leftJoin(staff, eq(staff.id, complaintNotes.staffId))
    .where(eq(complaintNotes.complaintId, id))
    .orderBy(asc(complaintNotes.id));
  return { complaint, notes, report: complaint.reportedUserId === null ? null : await reportDetail(db, complaint.id, complaint.reportedUserId, now) };
}

/**
 * SAFE-01: what a member's report carries for the moderator: the reported member (as they are now: gone
 * when the account is), the messages copied into the report, how many photos they show or have waiting,
 * their flagged messages (SAFE-02) and how many other reports name them.
 */
async function reportDetail(db: Db, complaintId: number, memberId: number, now: Date) {
  const [[member], evidence, photoCount, flagged, otherReports] = await Promise.all([
    db
      .select({ id: users.id, name: profiles.name, status: users.status, fictional: profiles.fictional })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, memberId))
      .limit(1),
    db.select().from(complaintMessages).where(eq(complaintMessages.complaintId, complaintId)).orderBy(asc(complaintMessages.messageId)),
    db.$count(photos, and(eq(photos.userId, memberId), inArray(photos.status, ['active', 'inspection_pending']))),
    memberSafetyCount(db, memberId, now),
    db.$count(complaints, and(eq(complaints.reportedUserId, memberId), ne(complaints.id, complaintId))),
  ]);
  return { memberId, member: member ?? null, evidence, photos: photoCount, flagged, otherReports };
}

export interface ComplaintDeps {
  db: Db;
  clock: Clock;
  mailer: Pick<Mailer, 'send'>;
  sites: Pick<SiteDirectory, 'forId'>;
}

export async function setComplaintStatus(deps: Pick<ComplaintDeps, 'db' | 'clock'>, by: StaffMember, id: number, status: ComplaintStatus): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ status: complaints.status }).from(complaints).where(eq(complaints.id, id)).for('update');
    if (!before) return false;
    if (before.status === status) return true;
    await tx.update(complaints).set({ status }).where(eq(complaints.id, id));
    await audit(tx, { staffId: by.id, action: 'complaint.status', targetType: 'complaint', targetId: id, before: { status: before.status }, after: { status } }, deps.clock.now());
    return true;
  });
}

export async function addComplaintNote(deps: Pick<ComplaintDeps, 'db' | 'clock'>, by: StaffMember, id: number, text: string): Promise<'ok' | 'not_found' | 'empty'> {
  const note = text.trim().slice(0, 5000);
  if (note === '') return 'empty';
  return deps.db.transaction(async (tx) => {
    const [found] = await tx.select({ id: complaints.id }).from(complaints).where(eq(complaints.id, id));
    if (!found) return 'not_found';
    await tx.insert(complaintNotes).values({ complaintId: id, staffId: by.id, kind: 'note', text: note, createdAt: deps.clock.now() });
    await audit(tx, { staffId: by.id, action: 'complaint.note', targetType: 'complaint', targetId: id, after: { note } }, deps.clock.now());
    return 'ok';
  });
}

/** Mails `text` to the complainant from the site (reply-to its support address) and keeps it as an answer note. */
export async function answerComplaint(deps: ComplaintDeps, by: StaffMember, id: number, text: string): Promise<'ok' | 'not_found' | 'empty' | 'mail_failed'> {
  const answer = text.trim().slice(0, 5000);
  if (answer === '') return 'empty';
  const [complaint] = await deps.db.select().from(complaints).where(eq(complaints.id, id)).limit(1);
  if (!complaint) return 'not_found';
  const site = await deps.sites.forId(complaint.siteId);
  const t = createTranslator(site.settings.domain_language);
  const body = renderMail(site, { heading: t('complaints:mail_answer_heading', { id }), paragraphs: answer.split(/\n{2,}/), footer: t('complaints:mail_footer') });
  const sent = await deps.mailer.send({
    siteId: site.settings.id,
    userId: complaint.userId,
    kind: 'complaint_answer',
    to: complaint.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t('complaints:mail_answer_subject', { id, site: site.settings.name }),
    ...body,
  });
  if (sent.type !== 'ok') return 'mail_failed';
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.insert(complaintNotes).values({ complaintId: id, staffId: by.id, kind: 'answer', text: answer, createdAt: now });
    if (complaint.status === 'open') await tx.update(complaints).set({ status: 'in_progress' }).where(eq(complaints.id, id));
    await audit(
      tx,
      {
        staffId: by.id,
        action: 'complaint.answer',
        targetType: 'complaint',
        targetId: id,
        before: { status: complaint.status },
        after: { status: complaint.status === 'open' ? 'in_progress' : complaint.status, mail: sent.id },
      },
      now,
    );
  });
  return 'ok';
}
