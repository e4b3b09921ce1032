/**
 * Discounts (CRD-06, CRD-07, TB-01). The server decides every discount; the client only shows it.
 * - Time bonus: a logged-in, non-paying member whose signup is under 4 hours old gets TIMEBONUS25
 *   (25%), until signup + 4 h; once per member, because it ends when they become paid.
 * - Welcome code: WELCOME25 (25%) on the first purchase, for 7 days after signup.
 * - The active discount is the time bonus if present, else the welcome code.
 * - Other codes are rows of `discount_codes`, each usable once per member.
 * - The retention discount (HON-03): a member who chooses the delete page's offer instead of leaving gets a
 *   personal code (`discount_codes` kind 'retention', theirs only), once per member; it applies by itself
 *   to their next purchase until a paid payment has used it. When several discounts are open, the member
 *   gets the largest (one discount per purchase); the others stay for a later one.
 * - One-use offers are reserved by the payment that starts with them and redeemed when it is paid
 *   (`discount_reservations`, SEC-16): the time bonus, the welcome code and first-purchase codes share
 *   the member's one `first_purchase` offer; a code is the offer `code:<id>`. See {@link offersOf}.
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discountCodes, discountReservations, type DiscountKind } from '../../db/schema';

/** The database or an open transaction: what the reads here need. */
type Reader = Pick<Db, 'select'>;

export const TIME_BONUS_CODE = 'TIMEBONUS25';
export const TIME_BONUS_PERCENT = 25;
export const TIME_BONUS_MS = 4 * 60 * 60 * 1000;
export const WELCOME_CODE = 'WELCOME25';
export const WELCOME_PERCENT = 25;
export const WELCOME_MS = 7 * 24 * 60 * 60 * 1000;

/** The JSON shape of GET /api/discountcode.php (the time-bonus island reads exactly this). */
export interface Discount {
  code: string;
  percent: number;
  kind: DiscountKind;
  /** ISO time the discount ends, or null when it does not. */
  expires_at: string | null;
}

export type DiscountRefusal = 'discount_not_found' | 'discount_already_used' | 'discount_expired';

/** What the discount rules need to know of a member. */
export interface DiscountMember {
  id: number;
  paid_user: boolean;
  /** ISO time of signup. */
  signup_date: string;
}

export function timeBonus(member: DiscountMember, now: Date): Discount | null {
  if (member.paid_user) return null;
  const ends = new Date(member.signup_date).getTime() + TIME_BONUS_MS;
  if (!(now.getTime() < ends)) return null;
  return { code: TIME_BONUS_CODE, percent: TIME_BONUS_PERCENT, kind: 'time_bonus', expires_at: new Date(ends).toISOString() };
}

export function welcomeDiscount(member: DiscountMember, now: Date): Discount | null {
  if (member.paid_user) return null;
  const ends = new Date(member.signup_date).getTime() + WELCOME_MS;
  if (!(now.getTime() < ends)) return null;
  return { code: WELCOME_CODE, percent: WELCOME_PERCENT, kind: 'welcome', expires_at: new Date(ends).toISOString() };
}

/** CRD-07: the time bonus if present, else the welcome code, else none. */
export function activeDiscount(member: DiscountMember, now: Date): Discount | null {
  return timeBonus(member, now) ?? welcomeDiscount(member, now);
}

/** The offer every first-purchase discount reserves: one discounted first purchase per member. */
export const FIRST_PURCHASE_OFFER = 'first_purchase';

/** The offer of a stored code: usable once per member. */
export const codeOffer = (codeId: number) => `code:${codeId}`;

/**
 * A discount the member may use now, with the one-use offers a payment that takes it reserves (SEC-16):
 * the time bonus and the welcome code end with the first purchase, so they reserve `first_purchase`; a
 * stored code reserves itself, and `first_purchase` too when it is for a first purchase only.
 */
export interface UsableDiscount {
  discount: Discount;
  offers: string[];
}

export function offersOf(discount: Discount, code?: { id: number; firstPurchaseOnly: boolean }): string[] {
  if ((discount.kind !== 'code' && discount.kind !== 'retention') || !code) return [FIRST_PURCHASE_OFFER];
  return code.firstPurchaseOnly ? [codeOffer(code.id), FIRST_PURCHASE_OFFER] : [codeOffer(code.id)];
}

/** CRD-07 with its offers: the active discount and what a payment with it reserves. */
export function activeUsableDiscount(member: DiscountMember, now: Date): UsableDiscount | null {
  const discount = activeDiscount(member, now);
  return discount ? { discount, offers: offersOf(discount) } : null;
}

export type CodeCheck = ({ ok: true } & UsableDiscount) | { ok: false; reason: DiscountRefusal };

const CODE_SHAPE = /^[A-Z0-9_-]{2,40}$/;

export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

/** CRD-06: a code the member typed: refused when not found, used before (or no longer theirs), or expired. */
export async function checkCode(db: Reader, input: { member: DiscountMember; siteId: number; code: string; now: Date }): Promise<CodeCheck> {
  const code = normaliseCode(input.code);
  if (!CODE_SHAPE.test(code)) return { ok: false, reason: 'discount_not_found' };
  if (code === TIME_BONUS_CODE || code === WELCOME_CODE) {
    // Both end when the member becomes paid: a paying member has used theirs.
    if (input.member.paid_user) return { ok: false, reason: 'discount_already_used' };
    const discount = code === TIME_BONUS_CODE ? timeBonus(input.member, input.now) : welcomeDiscount(input.member, input.now);
    return discount ? { ok: true, discount, offers: offersOf(discount) } : { ok: false, reason: 'discount_expired' };
  }
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(sql`upper(${discountCodes.code}) = ${code}`, or(isNull(discountCodes.siteId), eq(discountCodes.siteId, input.siteId))))
    .limit(1);
  // A personal code (the retention discount) is its member's only: to anyone else it does not exist.
  if (!row || !(row.kind === 'code' || (row.kind === 'retention' && row.userId === input.member.id))) return { ok: false, reason: 'discount_not_found' };
  if (row.firstPurchaseOnly && input.member.paid_user) return { ok: false, reason: 'discount_already_used' };
  const discount: Discount = { code, percent: row.percent, kind: row.kind === 'retention' ? 'retention' : 'code', expires_at: row.validUntil?.toISOString() ?? null };
  const offers = offersOf(discount, row);
  if (await redeemed(db, input.member.id, offers)) return { ok: false, reason: 'discount_already_used' };
  const now = input.now.getTime();
  if ((row.validFrom && now < row.validFrom.getTime()) || (row.validUntil && now >= row.validUntil.getTime())) return { ok: false, reason: 'discount_expired' };
  return { ok: true, discount, offers };
}

/** The member's retention code (HON-03) while no paid payment has used it, with the offer it reserves. */
export async function retentionDiscount(db: Reader, memberId: number): Promise<UsableDiscount | null> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.kind, 'retention'), eq(discountCodes.userId, memberId)))
    .limit(1);
  if (!row) return null;
  const offers = [codeOffer(row.id)];
  if (await redeemed(db, memberId, offers)) return null;
  return { discount: { code: row.code, percent: row.percent, kind: 'retention', expires_at: null }, offers };
}

/**
 * The discount a purchase without a typed code gets: the largest of the active one (CRD-07) and the
 * member's retention code (HON-03); on a tie the one that ends, so the other is kept for later.
 */
export async function memberDiscount(db: Reader, member: DiscountMember, now: Date): Promise<UsableDiscount | null> {
  const active = activeUsableDiscount(member, now);
  const retention = await retentionDiscount(db, member.id);
  if (!retention) return active;
  if (!active) return retention;
  return retention.discount.percent > active.discount.percent ? retention : active;
}

/** Whether a paid payment of the member has used one of `offers`. */
async function redeemed(db: Reader, memberId: number, offers: string[]): Promise<boolean> {
  const [row] = await db
    .select({ id: discountReservations.id })
    .from(discountReservations)
    .where(and(eq(discountReservations.userId, memberId), inArray(discountReservations.offer, offers), eq(discountReservations.status, 'redeemed')))
    .limit(1);
  return Boolean(row);
}

/** The discount in cents on a price (rounded to the cent, never more than the price less one cent). */
export function discountCents(priceCents: number, percent: number): number {
  return Math.min(priceCents - 1, Math.round((priceCents * percent) / 100));
}
