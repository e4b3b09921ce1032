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
    /**
     * When the provider reported paid after we had closed the payment as failed, cancelled or expired
     * (SEC-18): the money was taken, so the credits were granted then. Listed for admins.
     */
    latePaidAt: timestamp('late_paid_at', { withTimezone: true }),
    /**
     * Set on a late-paid payment whose one-use discount had meanwhile been used by another payment of the
     * member: the credits were granted all the same (the member paid), and admins see the discount given twice.
     */
    discountReused: boolean('discount_reused').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_provider_payment').on(t.provider, t.providerPaymentId),
    uniqueIndex('payments_idempotency_key').on(t.idempotencyKey),
    index('payments_user').on(t.userId, t.createdAt),
    index('payments_pending').on(t.status, t.createdAt),
    index('payments_late_paid')
      .on(t.latePaidAt)
      .where(sql`${t.latePaidAt} is not null`),
    check('payments_status_values', sql`${t.status} in ('pending', 'paid', 'failed', 'cancelled', 'expired')`),
    check('payments_amounts', sql`${t.amountCents} > 0 and ${t.discountCents} >= 0 and ${t.credits} > 0 and ${t.transactionCostCents} >= 0`),
  ],
);

export type DiscountKind = 'welcome' | 'code' | 'time_bonus' | 'retention';

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
    /** A personal code: only this member may use it (the retention discount of the delete page, HON-03). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
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
    check('discount_codes_kind', sql`${t.kind} in ('welcome', 'code', 'time_bonus', 'retention')`),
    /** One retention discount per member, ever (HON-03): choosing it twice issues it once. */
    uniqueIndex('discount_codes_retention_member')
      .on(t.userId)
      .where(sql`${t.kind} = 'retention'`),
  ],
);

export type DiscountReservationStatus = 'open' | 'redeemed' | 'released';

/**
 * One-use offers held by payments (SEC-16, docs/decisions/061-one-use-offers-reserved-at-start.md). A
 * payment that starts with a one-use offer reserves it in the transaction that inserts the payment
 * ('open'); paid makes it 'redeemed' (the offer is used), failed, cancelled or expired 'released'. The
 * partial unique index lets a member hold each offer once at a time, open or redeemed, so concurrent
 * checkouts cannot all get it. Offers: `first_purchase` (the time bonus, the welcome code and codes for a
 * first purchase only: one discounted first purchase per member) and `code:<discount_codes.id>` (a code,
 * once per member).
 */
export const discountReservations = pgTable(
  'discount_reservations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offer: text('offer').notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    status: text('status').$type<DiscountReservationStatus>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discount_reservations_held')
      .on(t.userId, t.offer)
      .where(sql`${t.status} in ('open', 'redeemed')`),
    uniqueIndex('discount_reservations_payment').on(t.paymentId, t.offer),
    check('discount_reservations_status', sql`${t.status} in ('open', 'redeemed', 'released')`),
  ],
);

/**
 * Every move of a payment's status (SEC-18): who said so and when. A status moves pending → paid | failed |
 * cancelled | expired, and a closed one only to paid, when the provider reports the money taken after all.
 */
export const paymentTransitions = pgTable(
  'payment_transitions',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').$type<PaymentStatus>().notNull(),
    toStatus: text('to_status').$type<PaymentStatus>().notNull(),
    /** 'provider' (its status, fetched), 'member' (cancelled on the order page), 'system' (never reached the provider). */
    source: text('source').$type<PaymentTransitionSource>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_transitions_payment').on(t.paymentId, t.id)],
);

export type PaymentTransitionSource = 'provider' | 'member' | 'system';

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
