/** Every mail the platform sends (outbox and record). */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export type MailStatus = 'outbox' | 'sent' | 'failed';

/**
 * Every mail the platform sends. Without SMTP configured the row is the delivery (an offline outbox
 * read through the development mail viewer); with SMTP it is the record of what was sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    userId: integer('user_id'),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('outbox'),
    error: text('error'),
    messageId: text('message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_to').on(t.toAddress), index('mail_outbox_created').on(t.createdAt)],
);
