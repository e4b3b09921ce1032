/**
 * SAFE-01: a member reports another from the chat or the profile, with a reason (and a note if they
 * like), and may block them in the same step. The report is a complaint of kind 'report' in the back
 * office's queue (OPS-01), naming the reported member and carrying their messages to the reporter: the
 * newest EVIDENCE_MESSAGES of them, plus the message the report was made from (marked), copied so the
 * evidence stays as it was. A member files at most REPORTS_PER_DAY reports in 24 hours (counted under a
 * lock, so parallel posts cannot outrun it); a refusal stores and blocks nothing.
 */
import { and, count, eq, gt, sql } from 'drizzle-orm';
import { descNullsLast } from '../../db/order';
import type { Db } from '../../db/client';
import { complaintMessages, complaints, messages, profiles, users, type ReportReason } from '../../db/schema';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import { block } from './blocks';
import type { Member } from './likes';

export const REPORT_REASONS: readonly ReportReason[] = ['scam', 'harassment', 'fake', 'inappropriate', 'spam', 'underage', 'other'];
export const REPORTS_PER_DAY = 10;
export const EVIDENCE_MESSAGES = 20;
export const REPORT_NOTE_MAX = 1000;
const DAY_MS = 86_400_000;

export function isReportReason(value: unknown): value is ReportReason {
  return typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value);
}

export interface ReportInput {
  memberId: number;
  reason: ReportReason;
  /** The message the report was made from (one of the reported member's to the reporter), if any. */
  messageId: number | null;
  note: string;
  /** Block the reported member in the same step. */
  block: boolean;
}

export type ReportResult = { type: 'ok'; id: number; blocked: boolean; evidence: number } | { type: 'refused'; reason: 'self' | 'not_found' | 'rate_limited' };

export async function reportMember(deps: { db: Db; bus: EventBus; clock: Clock }, reporter: Member, input: ReportInput): Promise<ReportResult> {
  const { db } = deps;
  if (input.memberId === reporter.userId) return { type: 'refused', reason: 'self' };
  const person = (id: number) =>
    db.select({ id: users.id, siteId: users.siteId, email: users.email, name: profiles.name }).from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, id)).limit(1);
  const [[target], [me]] = await Promise.all([person(input.memberId), person(reporter.userId)]);
  if (!target || target.siteId !== reporter.siteId || !me) return { type: 'refused', reason: 'not_found' };
  const now = deps.clock.now();
  const note = input.note.replace(/\r\n?/g, '\n').trim().slice(0, REPORT_NOTE_MAX);

  const id = await db.transaction(async (tx) => {
    // One reporter's reports take turns, so the daily limit holds under parallel posts.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reports:${reporter.userId}`}))`);
    const [recent] = await tx
      .select({ n: count() })
      .from(complaints)
      .where(and(eq(complaints.userId, reporter.userId), eq(complaints.kind, 'report'), gt(complaints.createdAt, new Date(now.getTime() - DAY_MS))));
    if ((recent?.n ?? 0) >= REPORTS_PER_DAY) return null;
    const [row] = await tx
      .insert(complaints)
      .values({
        siteId: reporter.siteId,
        userId: reporter.userId,
        name: me.name ?? me.email,
        email: me.email,
        subject: `${target.name ?? target.email} (#${target.id})`,
        message: note,
        kind: 'report',
        reportedUserId: target.id,
        reason: input.reason,
        createdAt: now,
      })
      .returning({ id: complaints.id });
    const complaintId = row!.id;
    const theirs = and(eq(messages.senderId, target.id), eq(messages.recipientId, reporter.userId));
    const newest = await tx.select().from(messages).where(theirs).orderBy(descNullsLast(messages.id)).limit(EVIDENCE_MESSAGES);
    const evidence = new Map(newest.map((m) => [m.id, m]));
    if (input.messageId !== null && Number.isSafeInteger(input.messageId) && !evidence.has(input.messageId)) {
      const [reported] = await tx
        .select()
        .from(messages)
        .where(and(theirs, eq(messages.id, input.messageId)))
        .limit(1);
      if (reported) evidence.set(reported.id, reported);
    }
    if (evidence.size > 0) {
      await tx.insert(complaintMessages).values(
        [...evidence.values()].map((m) => ({
          complaintId,
          messageId: m.id,
          senderId: m.senderId,
          kind: m.kind,
          body: m.body,
          attachment: m.attachment,
          safetyFlagged: m.safetyFlagged,
          reported: m.id === input.messageId,
          sentAt: m.createdAt,
        })),
      );
    }
    return { complaintId, evidence: evidence.size };
  });
  if (id === null) return { type: 'refused', reason: 'rate_limited' };
  const blocked = input.block ? (await block(deps, reporter, target.id)).type === 'ok' : false;
  return { type: 'ok', id: id.complaintId, blocked, evidence: id.evidence };
}
