/** What visitors send and operators publish: page beacons, complaints, token pages, invitation requests. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sites } from './sites';
import { users } from './members';

/** Client beacons: page hidden (CLI-06) and page bounce (CLI-05). */
export const pageEvents = pgTable('page_events', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull(),
  userId: integer('user_id'),
  kind: text('kind').$type<'hidden' | 'bounce'>().notNull(),
  path: text('path').notNull(),
  durationMs: integer('duration_ms'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Complaints filed through /complaints (STA-03) or as a member's report (SAFE-01); handled by support (OPS-01). */
export type ComplaintStatus = 'open' | 'in_progress' | 'handled';
/** 'form': the /complaints page; 'report': a member reported another from the chat or the profile (SAFE-01). */
export type ComplaintKind = 'form' | 'report';
/** Why a member reported another (SAFE-01). */
export type ReportReason = 'scam' | 'harassment' | 'fake' | 'inappropriate' | 'spam' | 'underage' | 'other';

export const complaints = pgTable(
  'complaints',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: integer('user_id'),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** new ('open'), in progress, resolved ('handled') — the back office moves it (OPS-01). */
    status: text('status').$type<ComplaintStatus>().notNull().default('open'),
    kind: text('kind').$type<ComplaintKind>().notNull().default('form'),
    /** A report's member (SAFE-01); null on the form's complaints. No foreign key: the complaint outlives the account. */
    reportedUserId: integer('reported_user_id'),
    reason: text('reason').$type<ReportReason>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('complaints_reported')
      .on(t.reportedUserId)
      .where(sql`${t.reportedUserId} is not null`),
    index('complaints_reporter').on(t.userId, t.createdAt),
  ],
);

/**
 * The messages a report carries (SAFE-01), copied when it was filed: the evidence stays what the
 * reporter saw even if the conversation or the account goes. `reported` marks the message the report was
 * made from (when it was made from one).
 */
export const complaintMessages = pgTable(
  'complaint_messages',
  {
    complaintId: integer('complaint_id')
      .notNull()
      .references(() => complaints.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    senderId: integer('sender_id').notNull(),
    kind: text('kind').notNull(),
    body: text('body').notNull(),
    attachment: text('attachment'),
    safetyFlagged: boolean('safety_flagged').notNull().default(false),
    reported: boolean('reported').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.complaintId, t.messageId] })],
);

/** Operator pages reached at `/{token}` (STA-01), per site and language. */
export const tokenPages = pgTable(
  'token_pages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    language: text('language').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('token_pages_site_token_lang').on(t.siteId, t.token, t.language)],
);

/** Visitors of an invite-only site asking for an invitation (LND-04). */
export const invitationRequests = pgTable(
  'invitation_requests',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitation_requests_site_email').on(t.siteId, sql`lower(${t.email})`)],
);

/**
 * Invitations to an invite-only site (LND-06): staff answer a request, or invite an address directly, with
 * a single-use link that expires. Only the token's SHA-256 is kept; the link signs that address up once.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The request it answers, if any. */
    requestId: integer('request_id').references(() => invitationRequests.id, { onDelete: 'set null' }),
    /** The staff member who sent it. */
    staffId: integer('staff_id'),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The account it created. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('invitations_token').on(t.tokenHash), index('invitations_site_email').on(t.siteId, sql`lower(${t.email})`)],
);

/** What staff wrote about a complaint (OPS-01): an internal note, or the answer mailed to the complainant. */
export const complaintNotes = pgTable('complaint_notes', {
  id: serial('id').primaryKey(),
  complaintId: integer('complaint_id')
    .notNull()
    .references(() => complaints.id, { onDelete: 'cascade' }),
  staffId: integer('staff_id'),
  kind: text('kind').$type<'note' | 'answer'>().notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
