/**
 * DD-03: admins keep the direct-debit blocklist (IBANs and mobile numbers refused for fraud or
 * chargebacks) and members' direct-debit blocks in the back office, not in SQL. Values are checked and
 * normalised like the member's form does (IBAN in electronic format, mobile in E.164), so a block matches
 * what members enter. Every change is one transaction with its audit row.
 */
import { and, desc, eq, ilike, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { directDebitAccounts, directDebitBlocklist, directDebitMandates, users, type BlocklistKind } from '../../db/schema';
import type { Clock } from '../clock';
import { checkIban, checkMobile } from '../directdebit/validate';
import { audit } from '../audit';

export interface BlocklistEntry {
  id: number;
  kind: BlocklistKind;
  value: string;
  reason: string | null;
  createdAt: Date;
}

export type BlocklistError = 'invalid_kind' | 'invalid_value' | 'reason_required' | 'already_blocked' | 'not_found';

/** The blocklist, newest first, optionally only entries whose value contains `query` (spaces ignored). */
export async function listBlocklist(db: Db, query = '', limit = 200): Promise<BlocklistEntry[]> {
  const q = query.replace(/\s+/g, '').toUpperCase();
  return db
    .select()
    .from(directDebitBlocklist)
    .where(q ? ilike(directDebitBlocklist.value, `%${q.replace(/[%_\\]/g, '')}%`) : undefined)
    .orderBy(desc(directDebitBlocklist.createdAt), desc(directDebitBlocklist.id))
    .limit(limit);
}

/** Adds an IBAN or a mobile number (a Dutch number may be written 06…; others with their +country code). */
export async function addToBlocklist(
  deps: { db: Db; clock: Clock },
  by: { id: number },
  input: { kind: string; value: string; reason: string },
): Promise<{ type: 'ok'; entry: BlocklistEntry } | { type: 'error'; reason: BlocklistError }> {
  if (input.kind !== 'iban' && input.kind !== 'mobile') return { type: 'error', reason: 'invalid_kind' };
  const reason = input.reason.trim().slice(0, 500);
  if (reason === '') return { type: 'error', reason: 'reason_required' };
  const checked = input.kind === 'iban' ? checkIban(input.value) : checkMobile(input.value, 'NL');
  if (!checked.ok) return { type: 'error', reason: 'invalid_value' };
  const value = 'iban' in checked ? checked.iban : checked.mobile;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [entry] = await tx
      .insert(directDebitBlocklist)
      .values({ kind: input.kind as BlocklistKind, value, reason, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!entry) return { type: 'error', reason: 'already_blocked' } as const;
    await audit(tx, { staffId: by.id, action: 'directdebit.blocklist_add', targetType: 'blocklist', targetId: entry.id, after: { kind: entry.kind, value, reason } }, now);
    return { type: 'ok', entry } as const;
  });
}

/** Lifts a blocklist entry. */
export async function liftFromBlocklist(deps: { db: Db; clock: Clock }, by: { id: number }, id: number): Promise<{ type: 'ok' } | { type: 'error'; reason: 'not_found' }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [gone] = await tx.delete(directDebitBlocklist).where(eq(directDebitBlocklist.id, id)).returning();
    if (!gone) return { type: 'error', reason: 'not_found' } as const;
    await audit(tx, { staffId: by.id, action: 'directdebit.blocklist_lift', targetType: 'blocklist', targetId: id, before: { kind: gone.kind, value: gone.value, reason: gone.reason } }, now);
    return { type: 'ok' } as const;
  });
}

export interface MemberDirectDebit {
  blockedAt: Date | null;
  blockedReason: string | null;
  wrongCodes: number;
  /** The member's mandates that are active or waiting for their code. */
  mandates: Array<{ reference: string; status: string; iban: string; mobile: string; createdAt: Date }>;
}

/** What the member page shows of a member's direct debit. */
export async function memberDirectDebit(db: Db, memberId: number): Promise<MemberDirectDebit> {
  const [state] = await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, memberId)).limit(1);
  const mandates = await db
    .select({
      reference: directDebitMandates.reference,
      status: directDebitMandates.status,
      iban: directDebitMandates.iban,
      mobile: directDebitMandates.mobile,
      createdAt: directDebitMandates.createdAt,
    })
    .from(directDebitMandates)
    .where(and(eq(directDebitMandates.userId, memberId), or(eq(directDebitMandates.status, 'active'), eq(directDebitMandates.status, 'pending'))))
    .orderBy(desc(directDebitMandates.id))
    .limit(5);
  return { blockedAt: state?.blockedAt ?? null, blockedReason: state?.blockedReason ?? null, wrongCodes: state?.wrongCodes ?? 0, mandates };
}

/** Blocks a member for direct debit with a reason: their pending request ends; an active mandate stays on record but cannot be used. */
export async function blockMemberDirectDebit(
  deps: { db: Db; clock: Clock },
  by: { id: number },
  memberId: number,
  reason: string,
): Promise<{ type: 'ok' } | { type: 'error'; reason: 'reason_required' | 'already_blocked' | 'not_found' }> {
  const why = reason.trim().slice(0, 500);
  if (why === '') return { type: 'error', reason: 'reason_required' };
  const [member] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, memberId)).limit(1);
  if (!member) return { type: 'error', reason: 'not_found' };
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(directDebitAccounts)
      .values({ userId: memberId, blockedAt: now, blockedReason: why, updatedAt: now })
      .onConflictDoUpdate({ target: directDebitAccounts.userId, set: { blockedAt: now, blockedReason: why, updatedAt: now }, setWhere: sql`"direct_debit_accounts"."blocked_at" is null` })
      .returning({ userId: directDebitAccounts.userId });
    if (!row) return { type: 'error', reason: 'already_blocked' } as const;
    await tx
      .update(directDebitMandates)
      .set({ status: 'abandoned' })
      .where(and(eq(directDebitMandates.userId, memberId), eq(directDebitMandates.status, 'pending')));
    await audit(tx, { staffId: by.id, action: 'directdebit.member_block', targetType: 'member', targetId: memberId, after: { reason: why } }, now);
    return { type: 'ok' } as const;
  });
}

/** Lifts a member's direct-debit block; the wrong-code count starts over. */
export async function liftMemberDirectDebit(deps: { db: Db; clock: Clock }, by: { id: number }, memberId: number): Promise<{ type: 'ok' } | { type: 'error'; reason: 'not_blocked' }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ blockedAt: directDebitAccounts.blockedAt, reason: directDebitAccounts.blockedReason, wrongCodes: directDebitAccounts.wrongCodes })
      .from(directDebitAccounts)
      .where(and(eq(directDebitAccounts.userId, memberId), isNotNull(directDebitAccounts.blockedAt)))
      .for('update');
    if (!before) return { type: 'error', reason: 'not_blocked' } as const;
    await tx.update(directDebitAccounts).set({ blockedAt: null, blockedReason: null, wrongCodes: 0, updatedAt: now }).where(eq(directDebitAccounts.userId, memberId));
    await audit(
      tx,
      { staffId: by.id, action: 'directdebit.member_unblock', targetType: 'member', targetId: memberId, before: { blockedAt: before.blockedAt, reason: before.reason, wrongCodes: before.wrongCodes } },
      now,
    );
    return { type: 'ok' } as const;
  });
}
