/**
 * Discounts (CRD-06, CRD-07, TB-01). The server decides every discount; the client only shows it.
 * - Time bonus: a logged-in, non-paying member whose signup is under 4 hours old gets TIMEBONUS25
 *   (25%), until signup + 4 h; once per member, because it ends when they become paid.
 * - Welcome code: WELCOME25 (25%) on the first purchase, for 7 days after signup.
 * - The active discount is the time bonus if present, else the welcome code.
 * - Other codes are rows of `discount_codes`, each usable once per member (`discount_redemptions`).
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discountCodes, discountRedemptions, type DiscountKind } from '../../db/schema';

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

export type CodeCheck = { ok: true; discount: Discount } | { ok: false; reason: DiscountRefusal };

const CODE_SHAPE = /^[A-Z0-9_-]{2,40}$/;

export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

/** CRD-06: a code the member typed: refused when not found, used before (or no longer theirs), or expired. */
export async function checkCode(db: Db, input: { member: DiscountMember; siteId: number; code: string; now: Date }): Promise<CodeCheck> {
  const code = normaliseCode(input.code);
  if (!CODE_SHAPE.test(code)) return { ok: false, reason: 'discount_not_found' };
  if (code === TIME_BONUS_CODE || code === WELCOME_CODE) {
    // Both end when the member becomes paid: a paying member has used theirs.
    if (input.member.paid_user) return { ok: false, reason: 'discount_already_used' };
    const discount = code === TIME_BONUS_CODE ? timeBonus(input.member, input.now) : welcomeDiscount(input.member, input.now);
    return discount ? { ok: true, discount } : { ok: false, reason: 'discount_expired' };
  }
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(sql`upper(${discountCodes.code}) = ${code}`, or(isNull(discountCodes.siteId), eq(discountCodes.siteId, input.siteId))))
    .limit(1);
  if (!row || row.kind !== 'code') return { ok: false, reason: 'discount_not_found' };
  if (row.firstPurchaseOnly && input.member.paid_user) return { ok: false, reason: 'discount_already_used' };
  const [used] = await db
    .select({ id: discountRedemptions.id })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.codeId, row.id), eq(discountRedemptions.userId, input.member.id)))
    .limit(1);
  if (used) return { ok: false, reason: 'discount_already_used' };
  const now = input.now.getTime();
  if ((row.validFrom && now < row.validFrom.getTime()) || (row.validUntil && now >= row.validUntil.getTime())) return { ok: false, reason: 'discount_expired' };
  return { ok: true, discount: { code, percent: row.percent, kind: 'code', expires_at: row.validUntil?.toISOString() ?? null } };
}

/** The id of a stored code (to record its redemption), or null for the built-in ones. */
export async function storedCodeId(db: Pick<Db, 'select'>, code: string): Promise<number | null> {
  const [row] = await db.select({ id: discountCodes.id }).from(discountCodes).where(sql`upper(${discountCodes.code}) = ${normaliseCode(code)}`).limit(1);
  return row?.id ?? null;
}

/** The discount in cents on a price (rounded to the cent, never more than the price less one cent). */
export function discountCents(priceCents: number, percent: number): number {
  return Math.min(priceCents - 1, Math.round((priceCents * percent) / 100));
}
