/**
 * SEPA direct debit (DD-01, DD-02; docs/decisions/042-direct-debit-and-sms.md): a member's mandates,
 * the SMS codes that confirm them (hashed, single-use, expiring), the numbers and IBANs that are
 * refused, the member's direct-debit state ('blocked for direct debit', SPEC §4) and the SMS outbox.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';

/** pending: details given, waiting for the SMS code; active: confirmed; replaced: a newer one took over; abandoned: never confirmed. */
export type MandateStatus = 'pending' | 'active' | 'replaced' | 'abandoned';

export const directDebitMandates = pgTable(
  'direct_debit_mandates',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The SEPA mandate reference (at most 35 characters), sent with every collection. */
    reference: text('reference').notNull(),
    accountHolder: text('account_holder').notNull(),
    /** Electronic format: upper case, no spaces. */
    iban: text('iban').notNull(),
    street: text('street').notNull(),
    houseNumber: text('house_number').notNull(),
    zip: text('zip').notNull(),
    city: text('city').notNull(),
    /** E.164 (+31612345678). */
    mobile: text('mobile').notNull(),
    status: text('status').$type<MandateStatus>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('direct_debit_mandates_reference').on(t.reference),
    index('direct_debit_mandates_user').on(t.userId, t.status),
    // At most one active mandate per member: a new confirmation replaces the old one in the same transaction.
    uniqueIndex('direct_debit_mandates_one_active')
      .on(t.userId)
      .where(sql`${t.status} = 'active'`),
    check('direct_debit_mandates_status', sql`${t.status} in ('pending', 'active', 'replaced', 'abandoned')`),
  ],
);

/** One SMS code sent for a pending mandate: only its hash is kept; used once; expires. */
export const directDebitCodes = pgTable(
  'direct_debit_codes',
  {
    id: serial('id').primaryKey(),
    mandateId: integer('mandate_id')
      .notNull()
      .references(() => directDebitMandates.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url HMAC-SHA256 of salt and code, keyed with a secret of app_secrets. */
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('direct_debit_codes_mandate').on(t.mandateId, t.createdAt)],
);

export type BlocklistKind = 'iban' | 'mobile';

/** IBANs and mobile numbers refused for direct debit (fraud, chargebacks), kept by the operator. */
export const directDebitBlocklist = pgTable(
  'direct_debit_blocklist',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<BlocklistKind>().notNull(),
    /** The IBAN in electronic format, or the number in E.164. */
    value: text('value').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('direct_debit_blocklist_value').on(t.kind, t.value), check('direct_debit_blocklist_kind', sql`${t.kind} in ('iban', 'mobile')`)],
);

/**
 * A member's direct-debit state: wrong SMS codes since the last right one, and the account state
 * 'blocked for direct debit' (SPEC §4) once they reach the limit.
 */
export const directDebitAccounts = pgTable(
  'direct_debit_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    wrongCodes: smallint('wrong_codes').notNull().default(0),
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('direct_debit_accounts_wrong_codes', sql`${t.wrongCodes} >= 0`)],
);

export type SmsStatus = 'outbox' | 'sent' | 'failed';

/**
 * Every SMS the platform sends. Without an SMS gateway configured the row is the delivery (an offline
 * outbox read through /dev/sms); with one it is the record of what was sent.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id'),
    userId: integer('user_id'),
    kind: text('kind').notNull(),
    toNumber: text('to_number').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<SmsStatus>().notNull().default('outbox'),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_outbox_to').on(t.toNumber), index('sms_outbox_created').on(t.createdAt)],
);
