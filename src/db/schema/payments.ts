/**
 * Payments of credit packages (CRD-01..09) and discounts (CRD-06, CRD-07, TB-01). Money in integer
 * cents with a currency. A payment's status only moves forward: pending → paid | failed | cancelled |
 * expired (src/server/payments/service.ts, docs/decisions/034-payments-state-machine.md).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';
import { creditPackages } from './credits';

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired';

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    packageId: integer('package_id').references(() => creditPackages.id, { onDelete: 'set null' }),
    /** Credits the payment grants when paid (copied from the package when it started). */
    credits: integer('credits').notNull(),
    /** What the payer is charged: the package's price less the discount. */
    amountCents: integer('amount_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    currency: text('currency').notNull(),
    method: text('method').notNull(),
    issuer: text('issuer'),
    /** The method's transaction costs shown before paying (borne by the merchant, shown for transparency). */
    transactionCostCents: integer('transaction_cost_cents').notNull().default(0),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    provider: text('provider').notNull(),
    /** The provider's id of the payment; null only between our insert and the provider's answer. */
    providerPaymentId: text('provider_payment_id'),
    /** Where the payer goes to pay (the provider's checkout). */
    checkoutUrl: text('checkout_url'),
    /** Our idempotency key: the same start retried finds this row instead of a second payment. */
    idempotencyKey: text('idempotency_key').notNull(),
    discountCode: text('discount_code'),
    discountPercent: smallint('discount_percent'),
    /** The direct-debit mandate the payment collects on (method 'directdebit'). */
    mandateReference: text('mandate_reference'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_provider_payment').on(t.provider, t.providerPaymentId),
    uniqueIndex('payments_idempotency_key').on(t.idempotencyKey),
    index('payments_user').on(t.userId, t.createdAt),
    index('payments_pending').on(t.status, t.createdAt),
    check('payments_status_values', sql`${t.status} in ('pending', 'paid', 'failed', 'cancelled', 'expired')`),
    check('payments_amounts', sql`${t.amountCents} > 0 and ${t.discountCents} >= 0 and ${t.credits} > 0 and ${t.transactionCostCents} >= 0`),
  ],
);

export type DiscountKind = 'welcome' | 'code' | 'time_bonus';

/** Discount codes a site hands out (CRD-06); the welcome and time-bonus codes are rows here too. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    /** null: valid on every site. */
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    kind: text('kind').$type<DiscountKind>().notNull().default('code'),
    percent: smallint('percent').notNull(),
    /** Only for a member's first purchase (the welcome code). */
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    minimumOrderCents: integer('minimum_order_cents').notNull().default(0),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discount_codes_code').on(sql`upper(${t.code})`),
    check('discount_codes_percent', sql`${t.percent} between 1 and 90`),
    check('discount_codes_kind', sql`${t.kind} in ('welcome', 'code', 'time_bonus')`),
  ],
);

/** A code used by a member: each code once per member (the paid payment that used it). */
export const discountRedemptions = pgTable(
  'discount_redemptions',
  {
    id: serial('id').primaryKey(),
    codeId: integer('code_id')
      .notNull()
      .references(() => discountCodes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('discount_redemptions_once').on(t.codeId, t.userId)],
);

/**
 * The built-in simulated checkout's own books (the "provider side" of the default provider): what the
 * payer chose on /checkout/simulated/{id}. fetchStatus reads here, never our `payments` table.
 */
export const simulatedCheckouts = pgTable('simulated_checkouts', {
  id: text('id').primaryKey(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  method: text('method').notNull(),
  issuer: text('issuer'),
  description: text('description').notNull(),
  returnUrl: text('return_url').notNull(),
  webhookUrl: text('webhook_url').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  status: text('status').$type<PaymentStatus>().notNull().default('pending'),
  refundedCents: integer('refunded_cents').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
