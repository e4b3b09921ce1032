/** Credits: the append-only ledger and the bundles a site sells (CRD-09, PREM-01). */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';

/** Append-only credit ledger (CRD-09): users.credits is the running sum, kept in the same transaction. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_ledger_user').on(t.userId), uniqueIndex('credit_ledger_reason_ref').on(t.userId, t.reason, t.reference)],
);

/** Credit bundles a site sells (PREM-01, CRD-02): credits for a price in cents, per site. */
export const creditPackages = pgTable(
  'credit_packages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    credits: integer('credits').notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    /** Shown as the recommended choice. */
    highlighted: boolean('highlighted').notNull().default(false),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    index('credit_packages_site').on(t.siteId, t.active),
    check('credit_packages_positive', sql`${t.credits} > 0 and ${t.priceCents} > 0`),
  ],
);
