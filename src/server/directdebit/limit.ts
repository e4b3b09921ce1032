/**
 * The direct-debit limit (DD-02, CRD-08 'direct debit limit reached'): what a member has had collected
 * by direct debit (pending and paid payments) within the period, plus the new amount, against the
 * configured DIRECT_DEBIT_LIMIT_CENTS per DIRECT_DEBIT_LIMIT_DAYS.
 */
import { and, eq, gte, inArray, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments } from '../../db/schema';

export interface DirectDebitLimit {
  cents: number;
  days: number;
}

/** Cents collected or being collected by direct debit from the member since `since`. */
export async function directDebitUsage(db: Pick<Db, 'select'>, memberId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: sum(payments.amountCents) })
    .from(payments)
    .where(and(eq(payments.userId, memberId), eq(payments.method, 'directdebit'), inArray(payments.status, ['pending', 'paid']), gte(payments.createdAt, since)));
  return Number(row?.total ?? 0);
}

/** Would `amountCents` more take the member over the limit of the period ending `now`? */
export async function directDebitLimitReached(db: Pick<Db, 'select'>, input: { memberId: number; amountCents: number; limit: DirectDebitLimit; now: Date }): Promise<boolean> {
  const since = new Date(input.now.getTime() - input.limit.days * 24 * 3600_000);
  const used = await directDebitUsage(db, input.memberId, since);
  return used + input.amountCents > input.limit.cents;
}
