/**
 * The operator console for fictional profiles (issue 12, OPS-02, OPS-05).
 *
 * Members who write to a fictional profile wait for a person: an operator answers as that profile,
 * through the same `sendMessage` as everyone (the member pays for their own messages only; the profile's
 * answer costs nothing). Honest by design:
 * - the inbox holds only conversations between a member and a fictional profile whose last message is the
 *   member's (never a conversation between two members: those answer 404 here);
 * - taking a conversation is a lock with an end (`OPERATOR_LOCK_MS`), renewed while the operator types:
 *   one conditional upsert, so two operators racing for one conversation cannot both get it;
 * - the only live signal the member can get is 'typing', and only while an operator really types;
 * - phrases that promise a meeting are flagged before sending (the operator must confirm), and the site's
 *   fictional-profile disclosure is one action away;
 * - every take, answer, release and note is in the audit log; each answer is kept with its waiting time
 *   for the admins' figures.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lte, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { descNullsLast } from '../../db/order';
import type { Db } from '../../db/client';
import { blocks, conversationMembers, conversations, messages, operatorLocks, operatorNotes, operatorReplies, profiles, staff, users } from '../../db/schema';
import { isLanguage, type Language } from '../../shared/languages';
import type { Clock } from '../clock';
import { sendMessage, type ChatDeps, type ChatPrices, type SendRefusal } from '../chat/send';
import { ageOn } from '../members/listing';
import type { EventBus } from '../realtime/bus';
import type { SiteDirectory } from '../sites/directory';
import { siteText } from '../sites/texts';
import { audit } from '../audit';
import { flaggedPhrases } from '../config/flagged-phrases';
import type { StaffMember } from './accounts';

/** How long a taken conversation stays the operator's without a sign of life (typing renews it). */
export const OPERATOR_LOCK_MS = 5 * 60_000;

export interface OperatorDeps {
  db: Db;
  clock: Clock;
  bus: EventBus;
  sites: Pick<SiteDirectory, 'forId'>;
}

const fic = alias(users, 'fic');
const mem = alias(users, 'mem');
const ficProfile = alias(profiles, 'fic_profile');
const memProfile = alias(profiles, 'mem_profile');
const lastMessage = alias(messages, 'last_message');

/** The fictional side and the member side of a conversation; no row for a conversation between two members. */
const pairJoin = {
  fictional: and(eq(fic.role, 'fictional'), or(eq(fic.id, conversations.memberLow), eq(fic.id, conversations.memberHigh)))!,
  member: and(eq(mem.role, 'member'), ne(mem.id, fic.id), or(eq(mem.id, conversations.memberLow), eq(mem.id, conversations.memberHigh)))!,
};

/** Since when the member has waited: their first message after the profile's last answer. */
const waitingSince =
  sql<Date>`(select min(w.created_at) from ${messages} w where w.conversation_id = ${conversations.id} and w.sender_id = ${mem.id} and w.id > coalesce((select max(a.id) from ${messages} a where a.conversation_id = ${conversations.id} and a.sender_id = ${fic.id}), 0))`.mapWith(
    (v: unknown) => new Date(v as string),
  );

const notBlocked = notExists(sql`(select 1 from ${blocks} b where (b.blocker_id = ${fic.id} and b.blocked_id = ${mem.id}) or (b.blocker_id = ${mem.id} and b.blocked_id = ${fic.id}))`);

export interface WaitingConversation {
  id: number;
  siteId: number;
  language: string;
  member: { id: number; name: string };
  fictional: { id: number; name: string };
  preview: string;
  kind: string;
  waitingSince: Date;
  lockedBy: string | null;
  lockedUntil: Date | null;
}

/** The conversations waiting for an answer (one row each), optionally of one site and member language: the inbox's rows and its count. */
function waitingQuery(db: Db, now: Date, filter: { siteId?: number; language?: string }) {
  const where: SQL[] = [eq(lastMessage.senderId, mem.id), inArray(mem.status, ['active', 'not_confirmed']), eq(memProfile.status, 'active'), notBlocked];
  if (filter.siteId) where.push(eq(conversations.siteId, filter.siteId));
  if (filter.language) where.push(eq(mem.language, filter.language));
  return (
    db
      .select({
        id: conversations.id,
        siteId: conversations.siteId,
        language: mem.language,
        memberId: mem.id,
        memberName: memProfile.name,
        fictionalId: fic.id,
        fictionalName: ficProfile.name,
        preview: lastMessage.body,
        kind: lastMessage.kind,
        waitingSince,
        lockedBy: staff.name,
        lockedUntil: operatorLocks.expiresAt,
      })
      .from(conversations)
      .innerJoin(fic, pairJoin.fictional)
      .innerJoin(mem, pairJoin.member)
      .innerJoin(ficProfile, eq(ficProfile.userId, fic.id))
      .innerJoin(memProfile, eq(memProfile.userId, mem.id))
      .innerJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
      // A member who removed the conversation has left it: nobody writes into it until they write again.
      .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.userId, mem.id), sql`${conversationMembers.removedAt} is null`))
      .leftJoin(operatorLocks, and(eq(operatorLocks.conversationId, conversations.id), gt(operatorLocks.expiresAt, now)))
      .leftJoin(staff, eq(staff.id, operatorLocks.staffId))
      .where(and(...where))
  );
}

/** How many conversations wait for an answer (taken ones too), optionally of one site and member language. */
export async function countWaiting(db: Db, now: Date, filter: { siteId?: number; language?: string } = {}): Promise<number> {
  const [row] = await db.select({ n: count() }).from(waitingQuery(db, now, filter).as('waiting'));
  return Number(row?.n ?? 0);
}

/** Conversations waiting for an answer, who waited longest first; optionally of one site and member language. */
export async function listWaiting(db: Db, now: Date, filter: { siteId?: number; language?: string; limit?: number } = {}): Promise<WaitingConversation[]> {
  const rows = await waitingQuery(db, now, filter)
    .orderBy(asc(waitingSince), asc(conversations.id))
    .limit(Math.min(filter.limit ?? 200, 500));
  return rows.map((r) => ({
    id: r.id,
    siteId: r.siteId,
    language: r.language,
    member: { id: r.memberId, name: r.memberName },
    fictional: { id: r.fictionalId, name: r.fictionalName },
    preview: r.kind === 'text' ? r.preview.slice(0, 140) : '',
    kind: r.kind,
    waitingSince: r.waitingSince,
    lockedBy: r.lockedBy,
    lockedUntil: r.lockedUntil,
  }));
}

export interface PersonFacts {
  id: number;
  name: string;
  age: number;
  gender: string;
  country: string;
  city: string | null;
  about: string;
  interests: string[];
  language: string;
}

export interface OperatorConversation {
  id: number;
  siteId: number;
  member: PersonFacts;
  fictional: PersonFacts;
  lock: { staffId: number; staffName: string; until: Date } | null;
}

/** A conversation between a member and a fictional profile, with both sides' facts; null for anything else. */
export async function operatorConversation(db: Db, id: number, now: Date): Promise<OperatorConversation | null> {
  const facts = (u: typeof users, p: typeof profiles) => ({
    id: u.id,
    name: p.name,
    birthDate: p.birthDate,
    gender: p.gender,
    country: p.country,
    city: p.city,
    about: p.about,
    interests: p.interests,
    language: u.language,
  });
  const [row] = await db
    .select({
      id: conversations.id,
      siteId: conversations.siteId,
      member: facts(mem as unknown as typeof users, memProfile as unknown as typeof profiles),
      fictional: facts(fic as unknown as typeof users, ficProfile as unknown as typeof profiles),
      lockStaff: operatorLocks.staffId,
      lockName: staff.name,
      lockUntil: operatorLocks.expiresAt,
    })
    .from(conversations)
    .innerJoin(fic, pairJoin.fictional)
    .innerJoin(mem, pairJoin.member)
    .innerJoin(ficProfile, eq(ficProfile.userId, fic.id))
    .innerJoin(memProfile, eq(memProfile.userId, mem.id))
    .leftJoin(operatorLocks, and(eq(operatorLocks.conversationId, conversations.id), gt(operatorLocks.expiresAt, now)))
    .leftJoin(staff, eq(staff.id, operatorLocks.staffId))
    .where(eq(conversations.id, id))
    .limit(1);
  if (!row) return null;
  const person = (p: typeof row.member): PersonFacts => ({ ...p, age: ageOn(p.birthDate, now) });
  return {
    id: row.id,
    siteId: row.siteId,
    member: person(row.member),
    fictional: person(row.fictional),
    lock: row.lockStaff !== null && row.lockUntil ? { staffId: row.lockStaff, staffName: row.lockName ?? '', until: row.lockUntil } : null,
  };
}

/** The whole history, oldest first (operators read all of it; the member's removals do not hide it here). */
export async function conversationHistory(db: Db, conversationId: number, limit = 500) {
  const rows = await db
    .select({ id: messages.id, senderId: messages.senderId, kind: messages.kind, body: messages.body, attachment: messages.attachment, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(descNullsLast(messages.id))
    .limit(limit);
  return rows.reverse();
}

export async function notesAbout(db: Db, subjectId: number) {
  return db
    .select({ id: operatorNotes.id, text: operatorNotes.text, createdAt: operatorNotes.createdAt, staff: staff.name })
    .from(operatorNotes)
    .leftJoin(staff, eq(staff.id, operatorNotes.staffId))
    .where(eq(operatorNotes.subjectId, subjectId))
    .orderBy(asc(operatorNotes.id))
    .limit(200);
}

export type TakeResult = { type: 'taken'; until: Date; renewed: boolean } | { type: 'locked'; by: string; until: Date } | { type: 'not_found' };

/**
 * Takes (or renews) the conversation for `by` until now + OPERATOR_LOCK_MS: an upsert that only
 * overwrites a lock of the same operator or one that has ended, so of two operators racing exactly one wins.
 */
export async function takeConversation(deps: Pick<OperatorDeps, 'db' | 'clock'>, by: StaffMember, conversationId: number): Promise<TakeResult> {
  const now = deps.clock.now();
  const conversation = await operatorConversation(deps.db, conversationId, now);
  if (!conversation) return { type: 'not_found' };
  const until = new Date(now.getTime() + OPERATOR_LOCK_MS);
  return deps.db.transaction(async (tx) => {
    const [won] = await tx
      .insert(operatorLocks)
      .values({ conversationId, staffId: by.id, takenAt: now, expiresAt: until })
      .onConflictDoUpdate({
        target: operatorLocks.conversationId,
        set: { staffId: by.id, expiresAt: until, takenAt: sql`case when ${operatorLocks.staffId} = ${by.id} then ${operatorLocks.takenAt} else ${now.toISOString()}::timestamptz end` },
        setWhere: or(eq(operatorLocks.staffId, by.id), lte(operatorLocks.expiresAt, now)),
      })
      .returning({ takenAt: operatorLocks.takenAt });
    if (!won) {
      const [holder] = await tx
        .select({ name: staff.name, until: operatorLocks.expiresAt })
        .from(operatorLocks)
        .innerJoin(staff, eq(staff.id, operatorLocks.staffId))
        .where(eq(operatorLocks.conversationId, conversationId));
      return { type: 'locked', by: holder?.name ?? '', until: holder?.until ?? until };
    }
    const renewed = conversation.lock?.staffId === by.id;
    if (!renewed) await audit(tx, { staffId: by.id, action: 'operator.take', targetType: 'conversation', targetId: conversationId, after: { until: until.toISOString() } }, now);
    return { type: 'taken', until, renewed };
  });
}

/** Lets the conversation go (another operator may take it at once). */
export async function releaseConversation(deps: Pick<OperatorDeps, 'db' | 'clock'>, by: StaffMember, conversationId: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(operatorLocks)
      .where(and(eq(operatorLocks.conversationId, conversationId), eq(operatorLocks.staffId, by.id)))
      .returning({ id: operatorLocks.conversationId });
    if (gone.length === 0) return false;
    await audit(tx, { staffId: by.id, action: 'operator.release', targetType: 'conversation', targetId: conversationId }, deps.clock.now());
    return true;
  });
}

async function holdsLock(db: Db, by: StaffMember, conversationId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: operatorLocks.conversationId })
    .from(operatorLocks)
    .where(and(eq(operatorLocks.conversationId, conversationId), eq(operatorLocks.staffId, by.id), gt(operatorLocks.expiresAt, now)));
  return row !== undefined;
}

export type ReplyResult =
  { type: 'sent'; messageId: number; replayed: boolean } | { type: 'not_found' } | { type: 'not_locked' } | { type: 'flagged'; phrases: string[] } | { type: 'refused'; reason: SendRefusal };

export interface ReplyInput {
  text: string;
  clientId: string;
  /** The operator saw the flagged phrases and sends anyway. */
  confirmFlagged?: boolean;
  /** The site's fictional-profile disclosure: never flagged. */
  disclosure?: boolean;
}

/**
 * Answers as the fictional profile: only while `by` holds the conversation; flagged phrases first need a
 * confirmation. Sent through `sendMessage` (the profile pays nothing; the client id makes a repeated post
 * one message). The answer's row (waiting time) and audit entry are written once per message, also when a
 * retry finds the message already sent; the lock is let go, so the member's next message is anyone's.
 */
export async function replyAsFictional(deps: OperatorDeps & { chat: ChatDeps; flagged: readonly string[] }, by: StaffMember, conversationId: number, input: ReplyInput): Promise<ReplyResult> {
  const now = deps.clock.now();
  const conversation = await operatorConversation(deps.db, conversationId, now);
  if (!conversation) return { type: 'not_found' };
  const [already] = await deps.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.senderId, conversation.fictional.id), eq(messages.clientId, input.clientId)))
    .limit(1);
  if (!already && !(await holdsLock(deps.db, by, conversationId, now))) return { type: 'not_locked' };
  if (!input.disclosure && !input.confirmFlagged) {
    const phrases = flaggedPhrases(input.text, deps.flagged);
    if (phrases.length > 0) return { type: 'flagged', phrases };
  }
  const [waiting] = await deps.db
    .select({ since: sql<Date>`min(${messages.createdAt})`.mapWith((v: unknown) => new Date(v as string)) })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.senderId, conversation.member.id),
        gt(
          messages.id,
          sql`coalesce((select max(a.id) from ${messages} a where a.conversation_id = ${conversationId} and a.sender_id = ${conversation.fictional.id}${already ? sql` and a.id < ${already.id}` : sql``}), 0)`,
        ),
      ),
    );
  const site = await deps.sites.forId(conversation.siteId);
  const prices: ChatPrices = { message_credits: 0, photo_credits: 0, gift_credits: 0, message_length: site.settings.message_length };
  const sent = await sendMessage(deps.chat, { siteId: conversation.siteId, userId: conversation.fictional.id, paidUser: true }, prices, {
    to: conversation.member.id,
    clientId: input.clientId,
    kind: 'text',
    body: input.text,
  });
  if (sent.type === 'refused') return { type: 'refused', reason: sent.reason };
  const messageId = sent.message.id;
  await deps.db.transaction(async (tx) => {
    const since = waiting?.since && !Number.isNaN(waiting.since.getTime()) ? waiting.since : sent.message.createdAt;
    const [kept] = await tx
      .insert(operatorReplies)
      .values({ messageId, conversationId, staffId: by.id, waitedMs: Math.max(0, sent.message.createdAt.getTime() - since.getTime()), answeredAt: sent.message.createdAt })
      .onConflictDoNothing()
      .returning({ id: operatorReplies.messageId });
    if (kept) {
      await audit(
        tx,
        {
          staffId: by.id,
          action: input.disclosure ? 'operator.disclose' : 'operator.reply',
          targetType: 'conversation',
          targetId: conversationId,
          after: { message: messageId, flagged: input.confirmFlagged ? flaggedPhrases(input.text, deps.flagged) : [] },
        },
        now,
      );
      await tx.delete(operatorLocks).where(and(eq(operatorLocks.conversationId, conversationId), eq(operatorLocks.staffId, by.id)));
    }
  });
  return { type: 'sent', messageId, replayed: sent.replayed };
}

/** The site's fictional-profile disclosure in the member's language (the same text the site shows). */
export async function disclosureFor(deps: Pick<OperatorDeps, 'sites'>, conversation: OperatorConversation): Promise<string> {
  const site = await deps.sites.forId(conversation.siteId);
  const lang: Language = isLanguage(conversation.member.language) ? conversation.member.language : site.settings.domain_language;
  return siteText(site, 'fictional_warning', lang);
}

/**
 * Tells the member that the profile is typing: only for the operator who holds the conversation, and it
 * renews their lock (the operator is there). Nothing is stored.
 */
export async function operatorTyping(deps: Pick<OperatorDeps, 'db' | 'clock' | 'bus'>, by: StaffMember, conversationId: number): Promise<boolean> {
  const now = deps.clock.now();
  const conversation = await operatorConversation(deps.db, conversationId, now);
  if (!conversation || conversation.lock?.staffId !== by.id) return false;
  await deps.db
    .update(operatorLocks)
    .set({ expiresAt: new Date(now.getTime() + OPERATOR_LOCK_MS) })
    .where(and(eq(operatorLocks.conversationId, conversationId), eq(operatorLocks.staffId, by.id)));
  await deps.bus.publish('chat.typing', { conversationId, typistId: conversation.fictional.id, otherId: conversation.member.id });
  return true;
}

/** A shared note about one side of the conversation (the profile's facts, or what the member told). */
export async function addOperatorNote(
  deps: Pick<OperatorDeps, 'db' | 'clock'>,
  by: StaffMember,
  conversationId: number,
  about: 'member' | 'fictional',
  text: string,
): Promise<'ok' | 'empty' | 'not_found'> {
  const note = text.trim().slice(0, 2000);
  if (note === '') return 'empty';
  const now = deps.clock.now();
  const conversation = await operatorConversation(deps.db, conversationId, now);
  if (!conversation) return 'not_found';
  const subjectId = about === 'member' ? conversation.member.id : conversation.fictional.id;
  await deps.db.transaction(async (tx) => {
    await tx.insert(operatorNotes).values({ subjectId, staffId: by.id, text: note, createdAt: now });
    await audit(tx, { staffId: by.id, action: 'operator.note', targetType: 'user', targetId: subjectId, after: { conversation: conversationId, note } }, now);
  });
  return 'ok';
}

export interface OperatorFigures {
  waiting: number;
  answered: number;
  medianMs: number | null;
  p90Ms: number | null;
  perOperatorHour: { staff: string; hour: Date; answered: number }[];
}

/** The p-th percentile (0..1) of sorted values, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** For admins: conversations waiting now; time to answer (median, p90) over `days`; answers per operator per hour over the last day. */
export async function operatorFigures(db: Db, now: Date, days = 7): Promise<OperatorFigures> {
  const waiting = (await listWaiting(db, now, { limit: 500 })).length;
  const since = new Date(now.getTime() - days * 86_400_000);
  const waits = (await db.select({ ms: operatorReplies.waitedMs }).from(operatorReplies).where(gte(operatorReplies.answeredAt, since)).orderBy(asc(operatorReplies.waitedMs)).limit(100_000)).map(
    (r) => r.ms,
  );
  const hour = sql<Date>`date_trunc('hour', ${operatorReplies.answeredAt})`.mapWith((v: unknown) => new Date(v as string));
  const perOperatorHour = await db
    .select({ staff: sql<string>`coalesce(${staff.name}, '-')`, hour, answered: count() })
    .from(operatorReplies)
    .leftJoin(staff, eq(staff.id, operatorReplies.staffId))
    .where(gte(operatorReplies.answeredAt, new Date(now.getTime() - 86_400_000)))
    .groupBy(staff.name, sql`2`)
    .orderBy(desc(sql`2`), asc(staff.name));
  return { waiting, answered: waits.length, medianMs: percentile(waits, 0.5), p90Ms: percentile(waits, 0.9), perOperatorHour };
}
