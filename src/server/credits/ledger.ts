/**
 * The credit ledger (CRD-09): the ONLY code that moves credits. Every grant and every spend writes one
 * `credit_ledger` row and changes `users.credits` (the running sum) in the same transaction, so the
 * balance always equals the sum of the member's ledger rows and never goes below zero.
 *
 * - `spend` takes the credits with ONE conditional statement
 *   (`update users set credits = credits - n where id = ? and credits >= n returning credits`): never a
 *   read followed by a write, so concurrent spends on many connections cannot overdraw.
 * - Every movement carries a `reference`, its idempotency key ('signup:<user id>', 'message:<uuid>',
 *   'payment:<provider id>'), unique over the whole ledger. A retried grant or spend with the same key
 *   is applied once and answers the first result again (`replayed: true`), not an error.
 * - Amounts are positive integers; anything else is a programming error and throws.
 * - Every function takes the database or an open transaction: a caller (a chat message insert, a
 *   payment webhook) can spend inside its own transaction, and the ledger then works in a savepoint.
 *
 * See docs/decisions/017-credits-ledger.md.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditLedger, users } from '../../db/schema';

/** An open transaction of `Db` (what `db.transaction(async (tx) => …)` hands over). */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database, or a transaction a caller has open. */
export type LedgerExecutor = Db | DbTransaction;

export interface CreditMovement {
  memberId: number;
  /** Credits to move: a positive integer. */
  amount: number;
  /** Why, for people reading the ledger: 'signup_credits', 'purchase', 'message', 'refund'… */
  reason: string;
  /** Idempotency key, unique over the ledger: the same movement retried carries the same key. */
  reference: string;
  /** When it happened (the caller's clock); the database's now() when left out. */
  at?: Date;
}

export interface LedgerEntry {
  id: number;
  memberId: number;
  /** Positive for a grant, negative for a spend. */
  delta: number;
  reason: string;
  reference: string;
  /** The member's balance right after this movement. */
  balanceAfter: number;
  createdAt: Date;
}

/** The movement was applied (now, or by an earlier call with the same reference: `replayed`). */
export interface Applied {
  ok: true;
  entry: LedgerEntry;
  replayed: boolean;
}

export interface Insufficient {
  ok: false;
  reason: 'insufficient_credits';
  /** The balance the spend found too small. */
  balance: number;
}

export type GrantResult = Applied;
export type SpendResult = Applied | Insufficient;

export class MemberNotFoundError extends Error {
  constructor(memberId: number) {
    super(`credit ledger: no member ${memberId}`);
    this.name = 'MemberNotFoundError';
  }
}

/** A reference already used for a different movement: a caller's bug (two movements, one key). */
export class LedgerReferenceConflictError extends Error {
  constructor(reference: string) {
    super(`credit ledger: reference ${JSON.stringify(reference)} was already used for another movement`);
    this.name = 'LedgerReferenceConflictError';
  }
}

/** Gives `amount` credits to a member (signup credits, a purchase, a refund). */
export function grant(db: LedgerExecutor, movement: CreditMovement): Promise<GrantResult> {
  return move(db, movement, 1) as Promise<GrantResult>;
}

/** Takes `amount` credits from a member if they have that many; otherwise changes nothing. */
export function spend(db: LedgerExecutor, movement: CreditMovement): Promise<SpendResult> {
  return move(db, movement, -1);
}

/** The member's balance (users.credits, which the ledger keeps equal to the sum of their rows). */
export async function balance(db: LedgerExecutor, memberId: number): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, memberId)).limit(1);
  if (!row) throw new MemberNotFoundError(memberId);
  return row.credits;
}

/** The ledger row of a reference, if that movement was applied. */
export async function entryFor(db: LedgerExecutor, reference: string): Promise<LedgerEntry | null> {
  const [row] = await db.select().from(creditLedger).where(eq(creditLedger.reference, reference)).limit(1);
  return row ? toEntry(row) : null;
}

function validate(movement: CreditMovement): void {
  const { memberId, amount, reason, reference } = movement;
  if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new RangeError(`credit ledger: bad member id ${memberId}`);
  // users.credits is a 32-bit integer; a bigger amount could never be held.
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > 2_147_483_647) throw new RangeError(`credit ledger: amount must be a positive integer, got ${amount}`);
  if (!reason) throw new RangeError('credit ledger: reason is required');
  if (!reference || reference.length > 200) throw new RangeError('credit ledger: reference is required (at most 200 characters)');
}

/** Thrown inside the transaction when the conditional update matched no row, to roll it back. */
class NotApplied extends Error {}

async function move(db: LedgerExecutor, movement: CreditMovement, sign: 1 | -1): Promise<SpendResult> {
  validate(movement);
  const { memberId, amount, reason, reference } = movement;
  const delta = sign * amount;
  // A retry usually finds its first row here, without touching the balance.
  const earlier = await entryFor(db, reference);
  if (earlier) return replay(earlier, movement, delta);
  try {
    // On the database: a transaction; inside a caller's transaction: a savepoint, so a lost race on the
    // reference below rolls back only this movement and leaves the caller's transaction usable.
    const run = db.transaction.bind(db) as <T>(work: (tx: DbTransaction) => Promise<T>) => Promise<T>;
    return await run(async (tx) => {
      const [moved] = await tx
        .update(users)
        .set({ credits: sql`${users.credits} + ${delta}` })
        .where(sign > 0 ? eq(users.id, memberId) : and(eq(users.id, memberId), gte(users.credits, amount)))
        .returning({ credits: users.credits });
      if (!moved) throw new NotApplied();
      const [row] = await tx
        .insert(creditLedger)
        .values({ userId: memberId, delta, reason, reference, balanceAfter: moved.credits, ...(movement.at ? { createdAt: movement.at } : {}) })
        .returning();
      return { ok: true as const, entry: toEntry(row!), replayed: false };
    });
  } catch (err) {
    if (err instanceof NotApplied) {
      // Nothing moved. Only now read why: an unknown member, or too few credits.
      return { ok: false, reason: 'insufficient_credits', balance: await balance(db, memberId) };
    }
    if (isUniqueViolation(err)) {
      // The same reference was applied concurrently (the other transaction committed first): its
      // row is the answer, and our decrement was rolled back with the savepoint.
      const winner = await entryFor(db, reference);
      if (winner) return replay(winner, movement, delta);
    }
    throw err;
  }
}

function replay(entry: LedgerEntry, movement: CreditMovement, delta: number): Applied {
  if (entry.memberId !== movement.memberId || entry.delta !== delta || entry.reason !== movement.reason) {
    throw new LedgerReferenceConflictError(movement.reference);
  }
  return { ok: true, entry, replayed: true };
}

function toEntry(row: typeof creditLedger.$inferSelect): LedgerEntry {
  return {
    id: row.id,
    memberId: row.userId,
    delta: row.delta,
    reason: row.reason,
    reference: row.reference,
    balanceAfter: row.balanceAfter,
    createdAt: row.createdAt,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return String(e?.cause?.code ?? e?.code) === '23505';
}
