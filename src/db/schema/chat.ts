/**
 * Conversations between two members of one site and their messages (issue 10, CHT-01..11, GFT-01).
 * A message and its charge are written in one transaction with its credit-ledger row (reference
 * 'message:<sender>:<client id>'), so there is never a message without its charge or the reverse.
 * Message ids come from one sequence: they order every conversation and are the `id:` of the live stream.
 */
import { sql } from 'drizzle-orm';
import { bigserial, bigint, boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';

/** One conversation per pair of members: `member_low` < `member_high` keeps the pair unique. */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    memberLow: integer('member_low')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    memberHigh: integer('member_high')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who wrote first: a free member may start FREE_CONVERSATION_LIMIT of them (CHT-04). */
    startedBy: integer('started_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('conversations_pair').on(t.memberLow, t.memberHigh),
    index('conversations_started_by').on(t.startedBy),
    check('conversations_ordered_pair', sql`${t.memberLow} < ${t.memberHigh}`),
  ],
);

/**
 * Each member's side of a conversation: unread count, how far they read, and what they removed (CHT-06:
 * removed for the remover only; messages up to `cleared_through` stay hidden for them, and a later
 * message brings the conversation back with only what came after).
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otherId: integer('other_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unread: integer('unread').notNull().default(0),
    lastReadMessageId: bigint('last_read_message_id', { mode: 'number' }).notNull().default(0),
    clearedThrough: bigint('cleared_through', { mode: 'number' }).notNull().default(0),
    /** Set while the conversation is removed from this member's list (until the next message). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /** The last message this member sees (for their list's order and preview). */
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index('conversation_members_list').on(t.userId, t.lastMessageAt.desc()),
    check('conversation_members_unread_not_negative', sql`${t.unread} >= 0`),
  ],
);

export type MessageKind = 'text' | 'gift' | 'photo' | 'gif';

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MessageKind>().notNull().default('text'),
    body: text('body').notNull().default(''),
    /** The gift's id, the gif's id or the photo's file name, by kind. */
    attachment: text('attachment'),
    /** The sender's id for this send (CHT-11): a retry with the same id is the same message. */
    clientId: text('client_id').notNull(),
    credits: integer('credits').notNull().default(0),
    /**
     * SAFE-02: the text asks for money, payment details, gift cards or crypto, or to move to another app
     * (src/server/safety/phrases.ts), decided once when it was sent; never set on a fictional profile's
     * message. The recipient sees a safety notice with it; moderators count them per sender.
     */
    safetyFlagged: boolean('safety_flagged').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_client').on(t.senderId, t.clientId),
    index('messages_safety_flagged')
      .on(t.senderId, t.createdAt)
      .where(sql`${t.safetyFlagged}`),
    index('messages_conversation').on(t.conversationId, t.id.desc()),
    index('messages_recipient').on(t.recipientId, t.id),
    check('messages_credits_not_negative', sql`${t.credits} >= 0`),
  ],
);
