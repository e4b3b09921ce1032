/** Credits: the append-only ledger and the bundles a site sells (CRD-09, PREM-01). */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';

/**
 * Append-only credit ledger (CRD-09): users.credits is the running sum, kept in the same transaction by
 * src/server/credits/ledger.ts, the only code that writes here. `reference` is the idempotency key of
 * the movement ('signup:<user id>', 'message:<uuid>', 'payment:<provider id>'): unique over the whole
 * table, so a retried grant or spend finds its first row instead of applying twice.
 * `balance_after` is the member's balance right after this row (what a retry answers again).
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_user').on(t.userId),
    uniqueIndex('credit_ledger_reference').on(t.reference),
    check('credit_ledger_delta_not_zero', sql`${t.delta} <> 0`),
    check('credit_ledger_balance_not_negative', sql`${t.balanceAfter} >= 0`),
  ],
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
    /** The staff's pick: the package /credits preselects and /premium emphasises (no claim is shown for it; the "most chosen" mark is computed, HON-03). */
    highlighted: boolean('highlighted').notNull().default(false),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('credit_packages_site').on(t.siteId, t.active), check('credit_packages_positive', sql`${t.credits} > 0 and ${t.priceCents} > 0`)],
);
