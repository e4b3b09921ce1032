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
 *
 * Audit wave (issue 22):
 * - SEC-14: without a configured provider every start is refused (`payments_unavailable`).
 * - SEC-16: a start runs under the member's payment lock (an advisory lock per member, held by the
 *   transaction that inserts the payment): the direct-debit limit is read and the payment inserted
 *   under it, and the one-use offers of its discount are reserved in the same transaction
 *   (`discount_reservations`; decision 061). A second checkout with an offer the member's open payment
 *   holds is refused before payment (`discount_in_use`), pointing at the open one.
 * - SEC-18: a payment we had closed (failed, cancelled, expired) that the provider reports paid after all
 *   is paid now: the credits are granted once (the ledger's reference), the move is recorded in
 *   `payment_transitions` and `late_paid_at`, the member's transactions show it and admins list it.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditPackages, discountReservations, paymentTransitions, payments, sites, users, type PaymentStatus, type PaymentTransitionSource } from '../../db/schema';
import type { Clock } from '../clock';
import { grant, spend, type DbTransaction, type LedgerExecutor } from '../credits/ledger';
import { directDebitLimitReached, type DirectDebitLimit } from '../directdebit/limit';
import type { Logger } from '../logger';
import { checkCode, memberDiscount, discountCents, type Discount, type DiscountMember, type DiscountRefusal, type UsableDiscount } from './discounts';
import { ProviderError, type PaymentMethod, type PaymentProvider, type WebhookRequest } from './provider';
import type { PaymentProviders } from './registry';

export type Payment = typeof payments.$inferSelect;

export interface PaymentDeps {
  db: Db;
  clock: Clock;
  providers: PaymentProviders;
  log?: Logger;
}

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
  | 'payments_unavailable'
  | 'discount_in_use'
  | 'package_not_found'
  | 'method_unavailable'
  | 'issuer_required'
  | 'issuer_unknown'
  | 'invalid_request'
  | DiscountRefusal
  | 'provider_unavailable'
  | 'directdebit_mandate_required'
  | 'directdebit_limit_reached';

export type StartResult =
  | { type: 'ok'; payment: Payment; checkoutUrl: string | null; replayed: boolean }
  | { type: 'error'; reason: StartRefusal; /** With `discount_in_use`: the member's open payment that holds the offer. */ openPayment?: Payment };

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

/** Resolves the discount for a start: the typed code, else the active discount, with the offers it reserves. */
export async function resolveDiscount(
  db: LedgerExecutor,
  input: { member: DiscountMember; siteId: number; code?: string | null; now: Date },
): Promise<{ ok: true; discount: Discount | null; offers: string[] } | { ok: false; reason: DiscountRefusal }> {
  if (input.code && input.code.trim() !== '') {
    const checked = await checkCode(db, { member: input.member, siteId: input.siteId, code: input.code, now: input.now });
    return checked.ok ? { ok: true, discount: checked.discount, offers: checked.offers } : checked;
  }
  const best: UsableDiscount | null = await memberDiscount(db, input.member, input.now);
  return { ok: true, discount: best?.discount ?? null, offers: best?.offers ?? [] };
}

/** The advisory-lock space of members' payments (pg_advisory_xact_lock(space, member id)); any fixed int4. */
const PAYMENT_LOCK_SPACE = 0x5041_5931;

/**
 * Takes the member's payment lock for the rest of the transaction: starts and settlements of one member
 * take turns (the direct-debit limit, the one-use offers), other members never wait for it.
 */
async function lockMemberPayments(tx: DbTransaction, memberId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PAYMENT_LOCK_SPACE}::int4, ${memberId}::int4)`);
}

/** The member's open payment holding one of `offers` (another checkout started with the same one-use offer). */
export async function openPaymentHolding(db: LedgerExecutor, memberId: number, offers: readonly string[]): Promise<Payment | null> {
  if (offers.length === 0) return null;
  const [row] = await db
    .select({ payment: payments })
    .from(discountReservations)
    .innerJoin(payments, eq(payments.id, discountReservations.paymentId))
    .where(and(eq(discountReservations.userId, memberId), inArray(discountReservations.offer, [...offers]), eq(discountReservations.status, 'open')))
    .limit(1);
  return row?.payment ?? null;
}

export async function startPayment(deps: PaymentDeps, input: StartPaymentInput): Promise<StartResult> {
  const { db, clock } = deps;
  const provider = deps.providers.current;
  if (!provider) return { type: 'error', reason: 'payments_unavailable' };
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
    if (offer.id === 'directdebit' && !input.mandateReference) return { type: 'error', reason: 'directdebit_mandate_required' };
    const now = clock.now();
    // SEC-16: what depends on the member's other payments (one-use offers, the direct-debit limit) is read
    // and written under their payment lock, in the transaction that inserts the payment.
    const placed = await db.transaction(async (tx): Promise<{ type: 'placed'; payment: Payment } | Extract<StartResult, { type: 'error' }>> => {
      await lockMemberPayments(tx, input.member.id);
      const again = await byKey(tx, key);
      if (again) return { type: 'placed', payment: again };
      const discount = await resolveDiscount(tx, { member: input.member, siteId: input.siteId, code: input.code, now });
      if (!discount.ok) return { type: 'error', reason: discount.reason };
      const held = await openPaymentHolding(tx, input.member.id, discount.offers);
      if (held) return { type: 'error', reason: 'discount_in_use', openPayment: held };
      const price = quote(pkg, discount.discount, offer.transactionCostCents);
      if (
        offer.id === 'directdebit' &&
        input.directDebitLimit &&
        (await directDebitLimitReached(tx, { memberId: input.member.id, amountCents: price.amountCents, limit: input.directDebitLimit, now }))
      ) {
        return { type: 'error', reason: 'directdebit_limit_reached' };
      }
      const [inserted] = await tx
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
        .returning();
      if (price.discount && discount.offers.length > 0) {
        await tx.insert(discountReservations).values(discount.offers.map((o) => ({ userId: input.member.id, offer: o, paymentId: inserted!.id, createdAt: now, updatedAt: now })));
      }
      return { type: 'placed', payment: inserted! };
    });
    if (placed.type === 'error') return placed;
    payment = placed.payment;
    if (payment.providerPaymentId) return { type: 'ok', payment, checkoutUrl: payment.checkoutUrl, replayed: true };
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
    // Nothing can be paid on it: it ends as failed (the member may start again with a new form), and its
    // offers are free again.
    await closePayment(deps, payment, 'failed', 'system');
    return { type: 'error', reason: 'provider_unavailable' };
  }
}

async function byKey(db: LedgerExecutor, key: string): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, key)).limit(1);
  return row ?? null;
}

async function byId(db: LedgerExecutor, id: number): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row ?? null;
}

/** A member's own payment (another member's id, or another site's, is null: a 404). */
export async function memberPayment(db: Db, memberId: number, paymentId: number): Promise<Payment | null> {
  if (!Number.isSafeInteger(paymentId) || paymentId <= 0) return null;
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, memberId)))
    .limit(1);
  return row ?? null;
}

/** A member's own payment by the provider's id (the simulated checkout's page: only its payer may act on it, SEC-14). */
export async function memberPaymentAt(db: Db, memberId: number, provider: string, providerPaymentId: string): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId), eq(payments.userId, memberId)))
    .limit(1);
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
  | { type: 'applied'; payment: Payment; status: PaymentStatus; granted: boolean; /** Paid after we had closed it (SEC-18). */ late: boolean }
  | { type: 'unchanged'; payment: Payment }
  | { type: 'refused'; reason: 'amount_mismatch' };

/** The statuses a payment closes with when it is not paid; the provider may still report paid later (SEC-18). */
const CLOSED_UNPAID: readonly PaymentStatus[] = ['failed', 'cancelled', 'expired'];

/**
 * Applies the provider's status to our payment. Pending moves to any final status; a payment we closed
 * unpaid (failed, cancelled, expired) moves only to paid, when the provider says the money was taken after
 * all (SEC-18). Paid never moves. Anything else (pending again, a second delivery, an older status
 * arriving late) changes nothing. The move is one conditional update on the status we read, so
 * concurrent deliveries apply it once; paid grants the credits in the same transaction.
 */
export async function settle(deps: Pick<PaymentDeps, 'db' | 'clock' | 'log'>, payment: Payment, state: { status: PaymentStatus; amountCents: number; currency: string }): Promise<SettleResult> {
  if (state.status === 'pending' || state.status === payment.status || payment.status === 'paid') return { type: 'unchanged', payment };
  const late = payment.status !== 'pending';
  if (late && state.status !== 'paid') return { type: 'unchanged', payment };
  if (state.status === 'paid' && (state.amountCents !== payment.amountCents || state.currency !== payment.currency)) {
    deps.log?.error({ paymentId: payment.id, expected: payment.amountCents, got: state.amountCents }, 'paid amount differs from the payment; not applied');
    return { type: 'refused', reason: 'amount_mismatch' };
  }
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    // Settlements of one member take turns with their starts: the one-use offers are decided under it.
    await lockMemberPayments(tx, payment.userId);
    const moved = await move(tx, payment, state.status, 'provider', now);
    if (!moved) return { type: 'raced', payment: (await byId(tx, payment.id))! } as const;
    let granted = false;
    if (moved.status === 'paid') {
      await grantPurchase(tx, moved, now);
      granted = true;
    }
    return { type: 'applied', payment: moved, status: moved.status, granted, late } as const;
  });
  // Another caller moved it since we read it (a webhook and the order page at once): settle against what
  // it is now. Statuses only move forward, so this ends within two rounds.
  if (result.type === 'raced') return result.payment.status === payment.status ? { type: 'unchanged', payment: result.payment } : settle(deps, result.payment, state);
  if (result.late) {
    deps.log?.warn({ paymentId: payment.id, from: payment.status }, 'payment reported paid after it was closed: credits granted (SEC-18)');
  }
  return result;
}

/**
 * Moves `payment` from the status we read to `to` (one conditional update), records the transition and
 * frees the payment's offers when it closes unpaid. Null when another caller moved it first.
 */
async function move(tx: DbTransaction, payment: Payment, to: PaymentStatus, source: PaymentTransitionSource, now: Date): Promise<Payment | null> {
  const late = payment.status !== 'pending' && to === 'paid';
  const [moved] = await tx
    .update(payments)
    .set({ status: to, settledAt: now, updatedAt: now, ...(late ? { latePaidAt: now } : {}) })
    .where(and(eq(payments.id, payment.id), eq(payments.status, payment.status)))
    .returning();
  if (!moved) return null;
  await tx.insert(paymentTransitions).values({ paymentId: payment.id, fromStatus: payment.status, toStatus: to, source, createdAt: now });
  if (CLOSED_UNPAID.includes(to)) {
    await tx
      .update(discountReservations)
      .set({ status: 'released', updatedAt: now })
      .where(and(eq(discountReservations.paymentId, payment.id), eq(discountReservations.status, 'open')));
  }
  return moved;
}

/** Closes a pending payment unpaid in its own transaction (under the member's payment lock); false when it was no longer pending. */
async function closePayment(deps: Pick<PaymentDeps, 'db' | 'clock'>, payment: Payment, to: 'failed' | 'cancelled' | 'expired', source: PaymentTransitionSource): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await lockMemberPayments(tx, payment.userId);
    return (await move(tx, { ...payment, status: 'pending' }, to, source, now)) !== null;
  });
}

/**
 * CRD-01, CRD-09: credits through the ledger and premium, in the caller's transaction (which holds the
 * member's payment lock). The payment's one-use offers are redeemed: its open reservations, or for a late
 * payment whose reservations were released, the offers again where nobody else holds them; an offer
 * another payment took meanwhile leaves the discount given twice, which is kept on the payment for the
 * admins (the member paid: the credits are theirs).
 */
async function grantPurchase(tx: DbTransaction, payment: Payment, now: Date): Promise<void> {
  await grant(tx, { memberId: payment.userId, amount: payment.credits, reason: 'purchase', reference: `payment:${payment.providerPaymentId}`, at: now });
  await tx.update(users).set({ paidUser: true }).where(eq(users.id, payment.userId));
  const reservations = await tx
    .select()
    .from(discountReservations)
    .where(and(eq(discountReservations.paymentId, payment.id), ne(discountReservations.status, 'redeemed')));
  let reused = false;
  for (const reservation of reservations) {
    const [other] = await tx
      .select({ id: discountReservations.id })
      .from(discountReservations)
      .where(
        and(
          eq(discountReservations.userId, payment.userId),
          eq(discountReservations.offer, reservation.offer),
          inArray(discountReservations.status, ['open', 'redeemed']),
          ne(discountReservations.paymentId, payment.id),
        ),
      )
      .limit(1);
    if (other) reused = true;
    else await tx.update(discountReservations).set({ status: 'redeemed', updatedAt: now }).where(eq(discountReservations.id, reservation.id));
  }
  if (reused) await tx.update(payments).set({ discountReused: true }).where(eq(payments.id, payment.id));
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
  return refresh(deps, provider, payment, { closedToo: true });
}

/**
 * Asks the provider for the payment's status and settles it. Pending payments are asked by the order page
 * and the reconcile job; `closedToo` (a webhook: the provider says something changed) also asks for a
 * payment we closed unpaid, which the provider may report paid after all (SEC-18).
 */
export async function refresh(deps: Pick<PaymentDeps, 'db' | 'clock' | 'log'>, provider: PaymentProvider, payment: Payment, options: { closedToo?: boolean } = {}): Promise<SettleResult> {
  const askable = payment.status === 'pending' || (options.closedToo === true && CLOSED_UNPAID.includes(payment.status));
  if (!askable || !payment.providerPaymentId) return { type: 'unchanged', payment };
  const state = await provider.fetchStatus(payment.providerPaymentId);
  return settle(deps, payment, state);
}

/**
 * The member cancels their own pending payment on the order page (to start another, for instance with the
 * one-use discount it held). Our side closes it; should the provider still report it paid, it is credited
 * then (SEC-18).
 */
export async function cancelPayment(deps: Pick<PaymentDeps, 'db' | 'clock'>, memberId: number, paymentId: number): Promise<{ type: 'cancelled' } | { type: 'not_pending' } | { type: 'not_found' }> {
  const payment = await memberPayment(deps.db, memberId, paymentId);
  if (!payment) return { type: 'not_found' };
  if (payment.status !== 'pending') return { type: 'not_pending' };
  return (await closePayment(deps, payment, 'cancelled', 'member')) ? { type: 'cancelled' } : { type: 'not_pending' };
}

/** A payment's status moves, oldest first (receipts, the back office). */
export async function paymentHistory(db: Db, paymentIds: number[]) {
  if (paymentIds.length === 0) return [];
  return db.select().from(paymentTransitions).where(inArray(paymentTransitions.paymentId, paymentIds)).orderBy(paymentTransitions.id);
}

/** The status a late-paid payment had been closed with, by payment id (SEC-18: what the member and admins are shown). */
export async function closedBeforePaid(db: Db, paymentIds: number[]): Promise<Map<number, PaymentStatus>> {
  const late = new Map<number, PaymentStatus>();
  for (const t of await paymentHistory(db, paymentIds)) if (t.toStatus === 'paid' && t.fromStatus !== 'pending') late.set(t.paymentId, t.fromStatus);
  return late;
}

/** SEC-18: payments paid after we had closed them, newest first, for the admins (at most `limit`). */
export async function latePaidPayments(db: Db, limit = 200) {
  const rows = await db
    .select({ payment: payments, email: users.email, siteName: sites.name })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .innerJoin(sites, eq(sites.id, payments.siteId))
    .where(isNotNull(payments.latePaidAt))
    .orderBy(desc(payments.latePaidAt), desc(payments.id))
    .limit(limit);
  const from = await closedBeforePaid(
    db,
    rows.map((r) => r.payment.id),
  );
  return rows.map((r) => ({ ...r, closedAs: from.get(r.payment.id) ?? null }));
}

/** How many payments were paid after we had closed them (the back office's start page). */
export async function latePaidCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(isNotNull(payments.latePaidAt));
  return row?.n ?? 0;
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
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), isNull(payments.providerPaymentId), lt(payments.createdAt, dayAgo)))
    .limit(options.limit ?? 200);
  for (const payment of abandoned) if (await closePayment(deps, payment, 'expired', 'system')) settled++;
  return { checked: stale.length, settled };
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
  const taken = await db
    .transaction(async (tx) => {
      const [marked] = await tx
        .update(payments)
        .set({ refundedAt: now, updatedAt: now })
        .where(and(eq(payments.id, payment.id), isNull(payments.refundedAt)))
        .returning({ id: payments.id });
      if (!marked) return 'already_refunded' as const;
      const spent = await spend(tx, { memberId: payment.userId, amount: payment.credits, reason: 'refund', reference: `refund:${payment.providerPaymentId}:${now.getTime()}`, at: now });
      if (!spent.ok) {
        tx.rollback();
      }
      return 'ok' as const;
    })
    .catch((err: unknown) => {
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
