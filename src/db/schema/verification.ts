/**
 * Photo verification (VER-01): a member's selfie in a requested pose, waiting for a moderator, then
 * approved or rejected. The selfie file lives in the PhotoStore under `filename` and is never public;
 * it is deleted 30 days after the decision (the row stays with `filename` null) and when the account is erased.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './members';

export type VerificationStatus = 'pending' | 'approved' | 'rejected';

export const verifications = pgTable(
  'verifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The pose asked (one of VERIFICATION_POSES). */
    pose: text('pose').notNull(),
    /** The selfie's file in the PhotoStore; null once deleted (30 days after the decision, or erased). */
    filename: text('filename'),
    status: text('status').$type<VerificationStatus>().notNull().default('pending'),
    /** Why it was rejected (one of VERIFICATION_REJECTION_REASONS), shown to the member. */
    rejectionReason: text('rejection_reason'),
    /** The main photo the moderator compared the selfie with (set on approval). */
    photoId: integer('photo_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by'),
  },
  (t) => [
    index('verifications_user').on(t.userId, t.createdAt),
    // The moderation queue: waiting selfies, oldest first.
    index('verifications_pending')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // The retention job: decided selfies whose file is still stored.
    index('verifications_retention')
      .on(t.decidedAt)
      .where(sql`${t.filename} is not null and ${t.status} <> 'pending'`),
  ],
);
