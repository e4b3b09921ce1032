/**
 * The delete page's promise (HON-03, DEL-01): a member who stays instead of deleting their account gets the
 * company's delete discount once, on their next credit purchase. Choosing it issues a personal one-use code
 * (`discount_codes` kind 'retention', this member's only, see ./discounts.ts): /credits shows it and every
 * checkout without a typed code applies it, reserved by the payment like any one-use offer (decision 061),
 * so two checkouts at once cannot both have it. Choosing it twice issues it once; once a paid purchase
 * has used it, it is not offered again.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discountCodes } from '../../db/schema';
import { retentionDiscount } from './discounts';

export type RetentionState = { type: 'none' } | { type: 'ready'; code: string; percent: number } | { type: 'used'; percent: number };

/** What the delete page shows of the member's retention discount. */
export async function retentionState(db: Db, memberId: number): Promise<RetentionState> {
  const [row] = await db
    .select({ code: discountCodes.code, percent: discountCodes.percent })
    .from(discountCodes)
    .where(and(eq(discountCodes.kind, 'retention'), eq(discountCodes.userId, memberId)))
    .limit(1);
  if (!row) return { type: 'none' };
  return (await retentionDiscount(db, memberId)) ? { type: 'ready', code: row.code, percent: row.percent } : { type: 'used', percent: row.percent };
}

/** Issues the member's retention code at `percent` (the company's delete discount), or finds the one issued before. */
export async function grantRetentionDiscount(db: Db, input: { memberId: number; siteId: number; percent: number; now: Date }): Promise<RetentionState> {
  if (!Number.isInteger(input.percent) || input.percent < 1 || input.percent > 90) return { type: 'none' };
  const code = `STAY${input.percent}-${randomBytes(4).toString('hex').toUpperCase()}`;
  // The partial unique index (one retention code per member) makes a second choice, or a race of two, a no-op.
  await db.insert(discountCodes).values({ siteId: input.siteId, code, kind: 'retention', percent: input.percent, userId: input.memberId, createdAt: input.now }).onConflictDoNothing();
  return retentionState(db, input.memberId);
}
