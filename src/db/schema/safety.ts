/**
 * SAFE-02: the phrases that mark a message as asking for money, payment details, gift cards or crypto,
 * or to move to another app, one list per language, edited by admins in the back office. A language
 * without a row uses the built-in list (src/server/safety/phrases.ts); the first save stores the list,
 * an empty one included (docs/decisions/084-safety-notices.md).
 */
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { staff } from './staff';

export const safetyPhrases = pgTable('safety_phrases', {
  language: text('language').primaryKey(),
  phrases: text('phrases').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => staff.id, { onDelete: 'set null' }),
});
