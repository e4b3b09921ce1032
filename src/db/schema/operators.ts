/**
 * The operator console for fictional profiles (issue 12, OPS-02, OPS-05): who holds which waiting
 * conversation (a lock with an end, renewed while the operator types, so two operators never answer the
 * same one), the notes operators share about a fictional profile or a member, and one row per answer
 * (who answered, how long the member waited) for the admins' figures.
 */
import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { conversations, messages } from './chat';
import { users } from './members';
import { staff } from './staff';

/** One row per conversation an operator took; it is theirs until `expires_at` (or they answer or let go). */
export const operatorLocks = pgTable('operator_locks', {
  conversationId: integer('conversation_id')
    .primaryKey()
    .references(() => conversations.id, { onDelete: 'cascade' }),
  staffId: integer('staff_id')
    .notNull()
    .references(() => staff.id, { onDelete: 'cascade' }),
  takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** What operators note about a fictional profile (its facts) or a member (what they told before): shared. */
export const operatorNotes = pgTable(
  'operator_notes',
  {
    id: serial('id').primaryKey(),
    /** The fictional profile or the member the note is about. */
    subjectId: integer('subject_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('operator_notes_subject').on(t.subjectId, t.id)],
);

/** Each answer an operator wrote as a fictional profile: the figures (time to answer, answers per hour). */
export const operatorReplies = pgTable(
  'operator_replies',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id').notNull(),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    /** From the member's first unanswered message to this answer. */
    waitedMs: bigint('waited_ms', { mode: 'number' }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('operator_replies_answered').on(t.answeredAt), index('operator_replies_staff').on(t.staffId, t.answeredAt)],
);
