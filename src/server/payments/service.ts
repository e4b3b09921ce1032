/**
 * The payments service (CRD-01..05, CRD-08, CRD-09; docs/decisions/034-payments-state-machine.md).
 * - `startPayment`: the price comes ONLY from the site's own package; the discount is decided here; the
 *   method's transaction costs are added; one payment per idempotency key.
 * - `applyWebhook` / `settle`: the webhook only names a payment; its status is always fetched from the
 *   provider. A status moves pending → paid | failed | cancelled | expired and never back (a
 *   conditional update on `status = 'pending'`, so concurrent deliveries settle it once). Paid grants
 *   the credits through the ledger (reference 'payment:<provider id>') and sets users.paid_user in the
 *   SAME transaction (CRD-01, CRD-09).
 * - `reconcilePayments`: pending payments older than N minutes are asked for again (a lost webhook).
 * - `refundPayment`: within the site's refund_days, only while the credits are unused.
 */
import { and, desc, eq, isNotNull, isNull, lt, TransactionRollbackError } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditPackages, discountRedemptions, payments, sites, users, type PaymentStatus } from '../../db/schema';
import type { Clock } from '../clock';
import { grant, spend, type DbTransaction } from '../credits/ledger';
import { directDebitLimitReached, type DirectDebitLimit } from '../directdebit/limit';
import type { Logger } from '../logger';
import { activeDiscount, checkCode, discountCents, storedCodeId, type Discount, type DiscountMember, type DiscountRefusal } from './discounts';
import { ProviderError, type PaymentMethod, type PaymentProvider, type WebhookRequest } from './provider';
import type { PaymentProviders } from './registry';

export type Payment = typeof payments.$inferSelect;

export interface PaymentDeps {
  db: Db;
  clock: Clock;
  providers: PaymentProviders;
  log?: Logger;
}

export const FINAL_STATUSES: readonly PaymentStatus[] = ['paid', 'failed', 'cancelled', 'expired'];

/** The price of a package for a member, as shown before paying and charged (CRD-05). */
export interface Quote {
  priceCents: number;
  discountCents: number;
  transactionCostCents: number;
  /** What the payer pays: price − discount + transaction costs. */
  amountCents: number;
  currency: string;
  credits: number;
  discount: Discount | null;
}

export function quote(pkg: { priceCents: number; currency: string; credits: number }, discount: Discount | null, transactionCostCents: number): Quote {
  const off = discount ? discountCents(pkg.priceCents, discount.percent) : 0;
  return {
    priceCents: pkg.priceCents,
    discountCents: off,
    transactionCostCents,
    amountCents: pkg.priceCents - off + transactionCostCents,
    currency: pkg.currency,
    credits: pkg.credits,
    discount,
  };
}

export interface StartPaymentInput {
  siteId: number;
  siteName: string;
  member: DiscountMember;
  /** The member's country: which methods are offered. */
  country: string;
  packageId: number;
  method: string;
  issuer?: string | null;
  /** A code the member typed; without it the active discount applies (CRD-07). */
  code?: string | null;
  /** From the confirm form: the same form posted twice starts one payment. */
  idempotencyKey: string;
  /** Our origin for the return and webhook URLs. */
  origin: string;
  /** The member's active direct-debit mandate (DD-01), looked up by the caller; required for 'directdebit'. */
  mandateReference?: string | null;
  /** The most a member may have collected by direct debit per period (DD-02, CRD-08). */
  directDebitLimit?: DirectDebitLimit | null;
}

export type StartRefusal =
  | 'package_not_found'
  | 'method_unavailable'
  | 'issuer_required'
  | 'issuer_unknown'
  | 'invalid_request'
  | DiscountRefusal
  | 'provider_unavailable'
  | 'directdebit_mandate_required'
  | 'directdebit_limit_reached';

export type StartResult = { type: 'ok'; payment: Payment; checkoutUrl: string | null; replayed: boolean } | { type: 'error'; reason: StartRefusal };

const KEY_SHAPE = /^[A-Za-z0-9_-]{8,80}$/;

/** The site's active package by id, or null (another site's or an inactive one is not there). */
export async function findPackage(db: Db, siteId: number, packageId: number) {
  if (!Number.isSafeInteger(packageId) || packageId <= 0) return null;
  const [pkg] = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.id, packageId), eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
    .limit(1);
  return pkg ?? null;
}

/** Resolves the discount for a start: the typed code, else the active discount. */
export async function resolveDiscount(db: Db, input: { member: DiscountMember; siteId: number; code?: string | null; now: Date }): Promise<{ ok: true; discount: Discount | null } | { ok: false; reason: DiscountRefusal }> {
  if (input.code && input.code.trim() !== '') {
    const checked = await checkCode(db, { member: input.member, siteId: input.siteId, code: input.code, now: input.now });
    return checked.ok ? { ok: true, discount: checked.discount } : checked;
  }
  return { ok: true, discount: activeDiscount(input.member, input.now) };
}

export async function startPayment(deps: PaymentDeps, input: StartPaymentInput): Promise<StartResult> {
  const { db, clock } = deps;
  const provider = deps.providers.current;
  if (!KEY_SHAPE.test(input.idempotencyKey)) return { type: 'error', reason: 'invalid_request' };
  const key = `${input.member.id}:${input.idempotencyKey}`;
  const earlier = await byKey(db, key);
  if (earlier?.providerPaymentId) return { type: 'ok', payment: earlier, checkoutUrl: earlier.checkoutUrl, replayed: true };

  let payment = earlier;
  if (!payment) {
    const pkg = await findPackage(db, input.siteId, input.packageId);
    if (!pkg) return { type: 'error', reason: 'package_not_found' };
    const offers = await provider.listMethods(input.country);
    const offer = offers.find((o) => o.id === input.method);
    if (!offer) return { type: 'error', reason: 'method_unavailable' };
    const issuer = input.issuer?.trim() || null;
    if (offer.issuers.length > 0 && !issuer) return { type: 'error', reason: 'issuer_required' };
    if (issuer && !offer.issuers.some((i) => i.id === issuer)) return { type: 'error', reason: 'issuer_unknown' };
    const now = clock.now();
    const discount = await resolveDiscount(db, { member: input.member, siteId: input.siteId, code: input.code, now });
    if (!discount.ok) return { type: 'error', reason: discount.reason };
    const price = quote(pkg, discount.discount, offer.transactionCostCents);
    if (offer.id === 'directdebit') {
      if (!input.mandateReference) return { type: 'error', reason: 'directdebit_mandate_required' };
      if (input.directDebitLimit && (await directDebitLimitReached(db, { memberId: input.member.id, amountCents: price.amountCents, limit: input.directDebitLimit, now }))) {
        return { type: 'error', reason: 'directdebit_limit_reached' };
      }
    }
    const [inserted] = await db
      .insert(payments)
      .values({
        siteId: input.siteId,
        userId: input.member.id,
        packageId: pkg.id,
        credits: pkg.credits,
        amountCents: price.amountCents,
        discountCents: price.discountCents,
        currency: pkg.currency,
        method: offer.id,
        issuer,
        transactionCostCents: price.transactionCostCents,
        provider: provider.name,
        idempotencyKey: key,
        discountCode: price.discount?.code ?? null,
        discountPercent: price.discount?.percent ?? null,
        mandateReference: offer.id === 'directdebit' ? (input.mandateReference ?? null) : null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: payments.idempotencyKey })
      .returning();
    payment = inserted ?? (await byKey(db, key))!;
    if (!inserted && payment.providerPaymentId) return { type: 'ok', payment, checkoutUrl: payment.checkoutUrl, replayed: true };
  }

  try {
    const created = await provider.createPayment({
      amountCents: payment.amountCents,
      currency: payment.currency,
      method: payment.method as PaymentMethod,
      issuer: payment.issuer,
      description: `${payment.credits} credits ${input.siteName}`.slice(0, 32),
      returnUrl: `${input.origin}/credits/order/${payment.id}`,
      webhookUrl: `${input.origin}/api/payment-webhook.php?provider=${provider.name}`,
      idempotencyKey: `payment-${payment.id}`,
      mandateReference: payment.mandateReference,
    });
    const [updated] = await db
      .update(payments)
      .set({ providerPaymentId: created.providerPaymentId, checkoutUrl: created.checkoutUrl, updatedAt: clock.now() })
      .where(and(eq(payments.id, payment.id), isNull(payments.providerPaymentId)))
      .returning();
    const row = updated ?? (await byId(db, payment.id))!;
    return { type: 'ok', payment: row, checkoutUrl: row.checkoutUrl, replayed: !updated };
  } catch (err) {
    deps.log?.error({ err, paymentId: payment.id }, 'payment provider refused to create a payment');
    if (!(err instanceof ProviderError) && !(err instanceof TypeError)) throw err;
    // Nothing can be paid on it: it ends as failed (the member may start again with a new form).
    await db.update(payments).set({ status: 'failed', settledAt: clock.now(), updatedAt: clock.now() }).where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
    return { type: 'error', reason: 'provider_unavailable' };
  }
}

async function byKey(db: Db, key: string): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, key)).limit(1);
  return row ?? null;
}

async function byId(db: Db, id: number): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row ?? null;
}

/** A member's own payment (another member's id, or another site's, is null: a 404). */
export async function memberPayment(db: Db, memberId: number, paymentId: number): Promise<Payment | null> {
  if (!Number.isSafeInteger(paymentId) || paymentId <= 0) return null;
  const [row] = await db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.userId, memberId))).limit(1);
  return row ?? null;
}

/** The member's payments, newest first (/transactions). */
export async function memberPayments(db: Db, memberId: number, limit = 100): Promise<Payment[]> {
  return db.select().from(payments).where(eq(payments.userId, memberId)).orderBy(desc(payments.createdAt), desc(payments.id)).limit(limit);
}

/** The member's last paid order (CRD-03, repeat order). */
export async function lastPaidPayment(db: Db, memberId: number): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, memberId), eq(payments.status, 'paid')))
    .orderBy(desc(payments.settledAt), desc(payments.id))
    .limit(1);
  return row ?? null;
}

export type SettleResult =
  | { type: 'applied'; payment: Payment; status: PaymentStatus; granted: boolean }
  | { type: 'unchanged'; payment: Payment }
  | { type: 'refused'; reason: 'amount_mismatch' };

/**
 * Applies the provider's status to our payment. Only pending → final moves; anything else (pending
 * again, a second delivery, an older status arriving late) changes nothing.
 */
export async function settle(deps: Pick<PaymentDeps, 'db' | 'clock' | 'log'>, payment: Payment, state: { status: PaymentStatus; amountCents: number; currency: string }): Promise<SettleResult> {
  if (state.status === 'pending' || payment.status !== 'pending') return { type: 'unchanged', payment };
  if (state.status === 'paid' && (state.amountCents !== payment.amountCents || state.currency !== payment.currency)) {
    deps.log?.error({ paymentId: payment.id, expected: payment.amountCents, got: state.amountCents }, 'paid amount differs from the payment; not applied');
    return { type: 'refused', reason: 'amount_mismatch' };
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(payments)
      .set({ status: state.status, settledAt: now, updatedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
      .returning();
    if (!moved) return { type: 'unchanged', payment: (await tx.select().from(payments).where(eq(payments.id, payment.id)))[0]! } as const;
    let granted = false;
    if (moved.status === 'paid') {
      await grantPurchase(tx, moved, now);
      granted = true;
    }
    return { type: 'applied', payment: moved, status: moved.status, granted } as const;
  });
}

/** CRD-01, CRD-09: credits through the ledger and premium, in the caller's transaction. */
async function grantPurchase(tx: DbTransaction, payment: Payment, now: Date): Promise<void> {
  await grant(tx, { memberId: payment.userId, amount: payment.credits, reason: 'purchase', reference: `payment:${payment.providerPaymentId}`, at: now });
  await tx.update(users).set({ paidUser: true }).where(eq(users.id, payment.userId));
  if (payment.discountCode) {
    const codeId = await storedCodeId(tx, payment.discountCode);
    if (codeId !== null) await tx.insert(discountRedemptions).values({ codeId, userId: payment.userId, paymentId: payment.id, createdAt: now }).onConflictDoNothing();
  }
}

export type WebhookResult = { type: 'refused'; reason: 'unknown_provider' | 'bad_signature' | 'malformed' } | { type: 'ignored' } | SettleResult;

/** A webhook: verified, then the payment's status fetched from the provider and settled. */
export async function applyWebhook(deps: PaymentDeps, providerName: string, request: WebhookRequest): Promise<WebhookResult> {
  const provider = deps.providers.byName(providerName);
  if (!provider) return { type: 'refused', reason: 'unknown_provider' };
  const check = await provider.verifyWebhook(request);
  if (!check.ok) return { type: 'refused', reason: check.reason };
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider.name), eq(payments.providerPaymentId, check.providerPaymentId)))
    .limit(1);
  // Not ours (or not yet stored): nothing to do; the provider's retry or the reconcile job catches up.
  if (!payment) return { type: 'ignored' };
  return refresh(deps, provider, payment);
}

/** Asks the provider for the payment's status and settles it. */
export async function refresh(deps: Pick<PaymentDeps, 'db' | 'clock' | 'log'>, provider: PaymentProvider, payment: Payment): Promise<SettleResult> {
  if (payment.status !== 'pending' || !payment.providerPaymentId) return { type: 'unchanged', payment };
  const state = await provider.fetchStatus(payment.providerPaymentId);
  return settle(deps, payment, state);
}

/**
 * The reconcile job: pending payments older than `afterMinutes` are fetched from their provider
 * (a webhook may have been lost). A payment the provider never took (no provider id) after a day expires.
 */
export async function reconcilePayments(deps: PaymentDeps, options: { afterMinutes?: number; limit?: number } = {}): Promise<{ checked: number; settled: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - (options.afterMinutes ?? 15) * 60_000);
  const stale = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lt(payments.createdAt, before), isNotNull(payments.providerPaymentId)))
    .orderBy(payments.createdAt)
    .limit(options.limit ?? 200);
  let settled = 0;
  for (const payment of stale) {
    const provider = deps.providers.byName(payment.provider);
    if (!provider) continue;
    try {
      const result = await refresh(deps, provider, payment);
      if (result.type === 'applied') settled++;
    } catch (err) {
      deps.log?.warn({ err, paymentId: payment.id }, 'reconcile: provider status not available');
    }
  }
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const abandoned = await deps.db
    .update(payments)
    .set({ status: 'expired', settledAt: now, updatedAt: now })
    .where(and(eq(payments.status, 'pending'), isNull(payments.providerPaymentId), lt(payments.createdAt, dayAgo)))
    .returning({ id: payments.id });
  return { checked: stale.length, settled: settled + abandoned.length };
}

export type RefundResult = { type: 'ok'; refundId: string } | { type: 'error'; reason: 'not_found' | 'not_paid' | 'already_refunded' | 'refund_period_over' | 'credits_used' | 'provider_refused' };

/**
 * A refund (return policy, by an operator in the back office): a paid payment within the site's
 * refund_days whose credits are still unused. The credits go back through the ledger
 * ('refund:<provider id>') and the provider refunds, in one transaction: a provider refusal undoes both.
 */
export async function refundPayment(deps: PaymentDeps, paymentId: number): Promise<RefundResult> {
  const { db, clock } = deps;
  const [row] = await db.select({ payment: payments, refundDays: sites.refundDays }).from(payments).innerJoin(sites, eq(sites.id, payments.siteId)).where(eq(payments.id, paymentId)).limit(1);
  if (!row) return { type: 'error', reason: 'not_found' };
  const { payment, refundDays } = row;
  if (payment.status !== 'paid' || !payment.settledAt || !payment.providerPaymentId) return { type: 'error', reason: 'not_paid' };
  if (payment.refundedAt) return { type: 'error', reason: 'already_refunded' };
  const now = clock.now();
  if (now.getTime() > payment.settledAt.getTime() + refundDays * 24 * 3600_000) return { type: 'error', reason: 'refund_period_over' };
  const provider = deps.providers.byName(payment.provider);
  if (!provider) return { type: 'error', reason: 'provider_refused' };
  // The credits come back first (one transaction, only while unused); then the provider refunds. A
  // provider refusal gives the credits back again, so nothing is held open during the HTTP call.
  const taken = await db.transaction(async (tx) => {
    const [marked] = await tx.update(payments).set({ refundedAt: now, updatedAt: now }).where(and(eq(payments.id, payment.id), isNull(payments.refundedAt))).returning({ id: payments.id });
    if (!marked) return 'already_refunded' as const;
    const spent = await spend(tx, { memberId: payment.userId, amount: payment.credits, reason: 'refund', reference: `refund:${payment.providerPaymentId}:${now.getTime()}`, at: now });
    if (!spent.ok) {
      tx.rollback();
    }
    return 'ok' as const;
  }).catch((err: unknown) => {
    if (err instanceof TransactionRollbackError) return 'credits_used' as const;
    throw err;
  });
  if (taken !== 'ok') return { type: 'error', reason: taken };
  try {
    const { refundId } = await provider.refund(payment.providerPaymentId, payment.amountCents, payment.currency);
    return { type: 'ok', refundId };
  } catch (err) {
    deps.log?.error({ err, paymentId }, 'provider refused the refund; credits given back');
    await db.transaction(async (tx) => {
      await grant(tx, { memberId: payment.userId, amount: payment.credits, reason: 'refund_undone', reference: `refund-undone:${payment.providerPaymentId}:${now.getTime()}`, at: clock.now() });
      await tx.update(payments).set({ refundedAt: null, updatedAt: clock.now() }).where(eq(payments.id, payment.id));
    });
    return { type: 'error', reason: 'provider_refused' };
  }
}
