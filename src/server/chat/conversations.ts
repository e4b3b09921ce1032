/**
 * Reading conversations (CHT-01, CHT-02, CHT-03, CHT-06, CHT-10): a member's list, one conversation's
 * history paged backwards by message id, reading (unread to 0, 'seen' for the other side when the
 * reader sends receipts) and removing (for the remover only).
 *
 * A conversation is the member's when they are one of its two members; a conversation with someone
 * either of them blocked is nobody's to see (BLK-01). Anything else answers null, so a foreign or hidden
 * id looks exactly like one that never existed (404, never 403).
 */
import { verifiedCondition } from '../photos/verification';
import { and, desc, eq, gt, inArray, isNull, lt, notInArray, or, sql, type AnyColumn, type Placeholder } from 'drizzle-orm';
import { descNullsLast } from '../../db/order';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { blocks, conversationMembers, conversations, messages, photos, profiles, users, type MessageKind } from '../../db/schema';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import { activeMainPhoto } from '../members/listing';
import { notBlockedEitherWay } from '../members/visibility';
import type { ChatMessage } from './send';

export interface ChatMember {
  siteId: number;
  userId: number;
}

export interface ChatPartner {
  id: number;
  name: string;
  fictional: boolean;
  /** VER-01: photo verified (shown by the name in the chat header and list). */
  verified: boolean;
  /** Main photo file names (approved or the member's own pending one is not shown to others). */
  thumb: string | null;
  image: string | null;
  /** The partner can be written to now: not deleted and confirmed (CHT-09). */
  confirmed: boolean;
}

export interface ChatSummary {
  id: number;
  partner: ChatPartner;
  unread: number;
  lastMessage: Pick<ChatMessage, 'id' | 'senderId' | 'kind' | 'body' | 'createdAt'> | null;
  lastMessageAt: Date | null;
}

const noBlockBetween = (a: typeof conversationMembers.userId, b: typeof conversationMembers.otherId) =>
  sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${a} and ${blocks.blockedId} = ${b}) or (${blocks.blockerId} = ${b} and ${blocks.blockedId} = ${a}))`;

const partnerColumns = {
  id: users.id,
  name: profiles.name,
  fictional: profiles.fictional,
  verified: verifiedCondition,
  status: users.status,
  thumb: photos.thumbFilename,
  image: photos.filename,
};

function toPartner(row: { id: number; name: string; fictional: boolean; verified: boolean | null; status: string; thumb: string | null; image: string | null }): ChatPartner {
  return { id: row.id, name: row.name, fictional: row.fictional, verified: row.verified === true, thumb: row.thumb, image: row.image, confirmed: row.status === 'active' };
}

/** The member's conversations, newest message first: not removed, not blocked either way (CHT-01). */
export async function listChats(db: Db, member: ChatMember, options: { limit?: number } = {}): Promise<ChatSummary[]> {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 200);
  // Built once per handle (src/db/prepared.ts): /chats and every open conversation on a desktop list them.
  const query = preparedOn(db, 'chat_list', (d) =>
    d
      .select({
        ...partnerColumns,
        conversationId: conversationMembers.conversationId,
        unread: conversationMembers.unread,
        lastMessageAt: conversationMembers.lastMessageAt,
        messageId: messages.id,
        messageSender: messages.senderId,
        messageKind: messages.kind,
        messageBody: messages.body,
        messageAt: messages.createdAt,
      })
      .from(conversationMembers)
      .innerJoin(users, eq(users.id, conversationMembers.otherId))
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .leftJoin(photos, activeMainPhoto)
      .leftJoin(messages, eq(messages.id, conversationMembers.lastMessageId))
      .where(
        and(
          eq(conversationMembers.userId, sql.placeholder('userId')),
          isNull(conversationMembers.removedAt),
          notInArray(users.status, ['deleted', 'banned']),
          eq(users.siteId, sql.placeholder('siteId')),
          notBlockedEitherWay(sql.placeholder('userId'), conversationMembers.otherId),
        ),
      )
      .orderBy(desc(conversationMembers.lastMessageAt), desc(conversationMembers.conversationId))
      .limit(sql.placeholder('limit'))
      .prepare('chat_list'),
  );
  const rows = await query.execute({ userId: member.userId, siteId: member.siteId, limit });
  return rows.map((row) => ({
    id: row.conversationId,
    partner: toPartner(row),
    unread: row.unread,
    lastMessageAt: row.lastMessageAt,
    lastMessage: row.messageId === null ? null : { id: row.messageId, senderId: row.messageSender!, kind: row.messageKind as MessageKind, body: row.messageBody!, createdAt: row.messageAt! },
  }));
}

/**
 * Unread messages over the member's visible conversations (the navigation badge, NAV-01): one aggregate
 * (always one row) for `userId` as a placeholder or a column of an outer query (src/server/members/counts.ts).
 */
export function unreadSelect(d: Db, userId: Placeholder | AnyColumn) {
  return d
    .select({ unread: sql<number>`coalesce(sum(${conversationMembers.unread}), 0)`.mapWith(Number).as('unread_messages') })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.userId, userId), gt(conversationMembers.unread, 0), isNull(conversationMembers.removedAt), notBlockedEitherWay(userId, conversationMembers.otherId)));
}

/** Unread messages over the member's visible conversations (the chat list's total). Built once. */
export async function unreadTotal(db: Db, member: ChatMember): Promise<number> {
  const query = preparedOn(db, 'chat_unread_total', (d) => unreadSelect(d, sql.placeholder('userId')).prepare('chat_unread_total'));
  const [row] = await query.execute({ userId: member.userId });
  return row?.unread ?? 0;
}

export interface ConversationView {
  id: number;
  partner: ChatPartner;
  unread: number;
  lastReadMessageId: number;
  /** The conversation's newest message when it was read (0 for none): with `unread` and `lastReadMessageId`, whether opening it reads anything (`needsRead`). */
  lastMessageId: number;
  clearedThrough: number;
  /** The newest of the member's own messages the partner has read, when the partner sends receipts (CHT-10). */
  seenThrough: number | null;
  /** Whether the member started it (a free member's count, CHT-04). */
  startedByMe: boolean;
}

/** One conversation of the member's, or null (another's, blocked, the partner gone, or no such id). */
export async function conversationFor(db: Db, member: ChatMember, conversationId: number): Promise<ConversationView | null> {
  if (!Number.isSafeInteger(conversationId) || conversationId <= 0 || conversationId > 2_147_483_647) return null;
  // Built once per handle (src/db/prepared.ts): every conversation page and chat call reads it.
  const query = preparedOn(db, 'chat_conversation_for', (d) =>
    d
      .select({
        ...partnerColumns,
        conversationId: conversationMembers.conversationId,
        unread: conversationMembers.unread,
        lastReadMessageId: conversationMembers.lastReadMessageId,
        lastMessageId: conversationMembers.lastMessageId,
        clearedThrough: conversationMembers.clearedThrough,
        startedBy: conversations.startedBy,
        siteId: conversations.siteId,
        chatSignals: users.chatSignals,
        partnerRead:
          sql<number>`(select ${conversationMembers.lastReadMessageId} from ${conversationMembers} other where other.conversation_id = ${conversationMembers.conversationId} and other.user_id = ${conversationMembers.otherId})`.mapWith(
            Number,
          ),
      })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .innerJoin(users, eq(users.id, conversationMembers.otherId))
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .leftJoin(photos, activeMainPhoto)
      .where(
        and(
          eq(conversationMembers.conversationId, sql.placeholder('conversationId')),
          eq(conversationMembers.userId, sql.placeholder('userId')),
          notInArray(users.status, ['deleted', 'banned']),
          noBlockBetween(conversationMembers.userId, conversationMembers.otherId),
        ),
      )
      .limit(1)
      .prepare('chat_conversation_for'),
  );
  const [row] = await query.execute({ conversationId, userId: member.userId });
  if (!row || row.siteId !== member.siteId) return null;
  return {
    id: row.conversationId,
    partner: toPartner(row),
    unread: row.unread,
    lastReadMessageId: row.lastReadMessageId,
    lastMessageId: row.lastMessageId ?? 0,
    clearedThrough: row.clearedThrough,
    seenThrough: row.chatSignals ? row.partnerRead : null,
    startedByMe: row.startedBy === member.userId,
  };
}

/** The conversation between the member and `otherId`, if there is one the member may see. */
export async function conversationWith(db: Db, member: ChatMember, otherId: number): Promise<ConversationView | null> {
  const [row] = await db
    .select({ id: conversationMembers.conversationId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.userId, member.userId), eq(conversationMembers.otherId, otherId)))
    .limit(1);
  return row ? conversationFor(db, member, row.id) : null;
}

export const HISTORY_PAGE = 30;

/** A page of a conversation's messages, oldest first, before message `before` (the newest page without it). */
export async function history(
  db: Db,
  view: Pick<ConversationView, 'id' | 'clearedThrough'>,
  options: { before?: number; after?: number; limit?: number } = {},
): Promise<{ messages: ChatMessage[]; more: boolean }> {
  const limit = Math.min(Math.max(options.limit ?? HISTORY_PAGE, 1), 100);
  const forward = options.after !== undefined;
  const backward = options.before !== undefined;
  // Built once per handle and direction (src/db/prepared.ts): every conversation page reads the newest page.
  const name = `chat_history_${forward ? 'after' : 'newest'}${backward ? '_before' : ''}`;
  const query = preparedOn(db, name, (d) => {
    const conditions = [eq(messages.conversationId, sql.placeholder('conversationId')), gt(messages.id, sql.placeholder('after'))];
    if (backward) conditions.push(lt(messages.id, sql.placeholder('before')));
    return d
      .select()
      .from(messages)
      .where(and(...conditions))
      .orderBy(forward ? messages.id : descNullsLast(messages.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  });
  const rows = await query.execute({ conversationId: view.id, after: Math.max(view.clearedThrough, options.after ?? 0), before: options.before ?? 0, limit: limit + 1 });
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (!forward) page.reverse();
  return { messages: page as ChatMessage[], more };
}

/**
 * Whether opening the conversation reads anything (markRead would change it): unread messages, or a
 * message newer than the member's read mark, among those `view` knew of or the page shows (`shownThrough`,
 * the newest message id on the page, read after the view).
 */
export function needsRead(view: Pick<ConversationView, 'unread' | 'lastReadMessageId' | 'lastMessageId'>, shownThrough = 0): boolean {
  return view.unread > 0 || view.lastReadMessageId < Math.max(view.lastMessageId, shownThrough);
}

export interface ReadDeps {
  db: Db;
  bus: EventBus;
}

/** Opening a conversation: its unread count becomes 0 and it is read through its newest message (CHT-03). */
export async function markRead(deps: ReadDeps, member: ChatMember, view: Pick<ConversationView, 'id' | 'partner'>): Promise<{ changed: boolean; through: number }> {
  const [row] = await deps.db
    .update(conversationMembers)
    .set({ unread: 0, lastReadMessageId: sql`greatest(${conversationMembers.lastReadMessageId}, coalesce(${conversationMembers.lastMessageId}, 0))` })
    .where(
      and(
        eq(conversationMembers.conversationId, view.id),
        eq(conversationMembers.userId, member.userId),
        or(gt(conversationMembers.unread, 0), sql`${conversationMembers.lastReadMessageId} < coalesce(${conversationMembers.lastMessageId}, 0)`),
      ),
    )
    .returning({ through: conversationMembers.lastReadMessageId });
  if (!row) return { changed: false, through: 0 };
  await deps.bus.publish('chat.read', { conversationId: view.id, readerId: member.userId, otherId: view.partner.id, messageId: row.through });
  return { changed: true, through: row.through };
}

/**
 * Removes conversations from the member's list (CHT-06): one by id, or every one with a profile. Only
 * for the remover: the other side keeps the history; what was removed stays hidden if the conversation
 * comes back with a new message. Answers the ids removed (none when nothing was the member's).
 */
export async function removeChats(deps: ReadDeps & { clock: Clock }, member: ChatMember, target: { conversationId: number } | { profileId: number }): Promise<number[]> {
  const which = 'conversationId' in target ? eq(conversationMembers.conversationId, target.conversationId) : eq(conversationMembers.otherId, target.profileId);
  const rows = await deps.db
    .update(conversationMembers)
    .set({ removedAt: deps.clock.now(), unread: 0, clearedThrough: sql`coalesce(${conversationMembers.lastMessageId}, 0)`, lastReadMessageId: sql`coalesce(${conversationMembers.lastMessageId}, 0)` })
    .where(
      and(
        eq(conversationMembers.userId, member.userId),
        which,
        isNull(conversationMembers.removedAt),
        inArray(conversationMembers.conversationId, deps.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.siteId, member.siteId))),
      ),
    )
    .returning({ id: conversationMembers.conversationId });
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await deps.bus.publish('chat.removed', { userId: member.userId, conversationIds: ids });
  return ids;
}
