/**
 * Members in the back office (OPS-01): finding them by e-mail, name or id (any site), what staff see of
 * one (account, profile, payments, ledger, complaints they sent, bans), banning and unbanning, and
 * credits granted or taken with a reason through the ledger. Every change is audited in its transaction.
 *
 * A ban sets the account to `banned` (remembering the status before): the profile disappears from every
 * list (listedTo wants `active`), the member's sessions end, login answers the ban page, and chats with
 * them close (chat treats a banned member like a deleted one). Caches of the member's site drop through
 * the bus. Unbanning gives the status back.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { complaints, creditLedger, memberBans, payments, profiles, sessions, users, type UserStatus } from '../../db/schema';
import type { Clock } from '../clock';
import { grant, spend } from '../credits/ledger';
import type { EventBus } from '../realtime/bus';
import { audit } from '../audit';
import type { StaffMember } from './accounts';

export interface StaffDeps {
  db: Db;
  clock: Clock;
  bus: EventBus;
}

export interface MemberHit {
  id: number;
  siteId: number;
  email: string;
  name: string | null;
  status: UserStatus;
  role: string;
}

/** Members by id (exact), e-mail or name (contains, any case); at most 50, newest first. */
export async function findMembers(db: Db, query: string): Promise<MemberHit[]> {
  const q = query.trim().slice(0, 100);
  if (q === '') return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const byId = /^\d{1,9}$/.test(q) ? eq(users.id, Number(q)) : undefined;
  return db
    .select({ id: users.id, siteId: users.siteId, email: users.email, name: profiles.name, status: users.status, role: users.role })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(or(...[byId, ilike(users.email, like), ilike(profiles.name, like)].filter((c) => c !== undefined)))
    .orderBy(desc(users.id))
    .limit(50);
}

export async function memberDetail(db: Db, id: number) {
  const [account] = await db
    .select({
      id: users.id,
      siteId: users.siteId,
      email: users.email,
      status: users.status,
      role: users.role,
      credits: users.credits,
      paidUser: users.paidUser,
      signupDate: users.signupDate,
      emailConfirmedAt: users.emailConfirmedAt,
      invisible: users.invisible,
      name: profiles.name,
      country: profiles.country,
      city: profiles.city,
      birthDate: profiles.birthDate,
      fictional: profiles.fictional,
      lastActiveAt: profiles.lastActiveAt,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, id))
    .limit(1);
  if (!account) return null;
  const [paymentRows, ledgerRows, complaintRows, banRows] = await Promise.all([
    db.select().from(payments).where(eq(payments.userId, id)).orderBy(desc(payments.id)).limit(50),
    db.select().from(creditLedger).where(eq(creditLedger.userId, id)).orderBy(desc(creditLedger.id)).limit(100),
    db.select().from(complaints).where(eq(complaints.userId, id)).orderBy(desc(complaints.id)).limit(50),
    db.select().from(memberBans).where(eq(memberBans.userId, id)).orderBy(desc(memberBans.id)),
  ]);
  return { account, payments: paymentRows, ledger: ledgerRows, complaints: complaintRows, bans: banRows };
}

export type BanResult = { type: 'ok' } | { type: 'error'; reason: 'not_found' | 'already_banned' | 'not_banned' | 'reason_required' };

export async function banMember(deps: StaffDeps, by: StaffMember, memberId: number, reason: string): Promise<BanResult> {
  const why = reason.trim().slice(0, 500);
  if (why === '') return { type: 'error', reason: 'reason_required' };
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const [member] = await tx.select({ status: users.status, siteId: users.siteId }).from(users).where(eq(users.id, memberId)).for('update');
    if (!member) return { type: 'error', reason: 'not_found' } as const;
    if (member.status === 'banned') return { type: 'error', reason: 'already_banned' } as const;
    await tx.update(users).set({ status: 'banned' }).where(eq(users.id, memberId));
    await tx.insert(memberBans).values({ userId: memberId, staffId: by.id, reason: why, statusBefore: member.status, createdAt: now });
    await tx.delete(sessions).where(eq(sessions.userId, memberId));
    await audit(tx, { staffId: by.id, action: 'member.ban', targetType: 'member', targetId: memberId, before: { status: member.status }, after: { status: 'banned', reason: why } }, now);
    return { type: 'ok', siteId: member.siteId } as const;
  });
  if (result.type !== 'ok') return result;
  await deps.bus.publish('site.content_changed', { siteId: result.siteId });
  return { type: 'ok' };
}

export async function unbanMember(deps: StaffDeps, by: StaffMember, memberId: number): Promise<BanResult> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const [member] = await tx.select({ status: users.status, siteId: users.siteId }).from(users).where(eq(users.id, memberId)).for('update');
    if (!member) return { type: 'error', reason: 'not_found' } as const;
    if (member.status !== 'banned') return { type: 'error', reason: 'not_banned' } as const;
    const [ban] = await tx
      .select()
      .from(memberBans)
      .where(and(eq(memberBans.userId, memberId), isNull(memberBans.liftedAt)))
      .orderBy(desc(memberBans.id))
      .limit(1);
    const back: UserStatus = ban?.statusBefore && ban.statusBefore !== 'banned' ? ban.statusBefore : 'active';
    await tx.update(users).set({ status: back }).where(eq(users.id, memberId));
    if (ban) await tx.update(memberBans).set({ liftedAt: now, liftedBy: by.id }).where(eq(memberBans.id, ban.id));
    await audit(tx, { staffId: by.id, action: 'member.unban', targetType: 'member', targetId: memberId, before: { status: 'banned' }, after: { status: back } }, now);
    return { type: 'ok', siteId: member.siteId } as const;
  });
  if (result.type !== 'ok') return result;
  await deps.bus.publish('site.content_changed', { siteId: result.siteId });
  return { type: 'ok' };
}

export type CreditsResult = { type: 'ok'; balance: number } | { type: 'error'; reason: 'not_found' | 'reason_required' | 'invalid_amount' | 'insufficient_credits' };

/**
 * Grants (amount > 0) or takes (amount < 0) credits with a reason, through the ledger in one transaction
 * with its audit row. `key` makes a resubmitted form one movement (the page renders a fresh one).
 */
export async function adjustCredits(deps: StaffDeps, by: StaffMember, memberId: number, input: { amount: number; reason: string; key?: string }): Promise<CreditsResult> {
  const why = input.reason.trim().slice(0, 300);
  if (why === '') return { type: 'error', reason: 'reason_required' };
  if (!Number.isSafeInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > 100_000) return { type: 'error', reason: 'invalid_amount' };
  const now = deps.clock.now();
  const reference = `staff:${by.id}:${input.key && /^[A-Za-z0-9_-]{8,64}$/.test(input.key) ? input.key : randomUUID()}`;
  return deps.db.transaction(async (tx) => {
    const [member] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, memberId));
    if (!member) return { type: 'error', reason: 'not_found' } as const;
    const movement = { memberId, amount: Math.abs(input.amount), reason: input.amount > 0 ? 'staff_grant' : 'staff_take', reference, at: now };
    const moved = input.amount > 0 ? await grant(tx, movement) : await spend(tx, movement);
    if (!moved.ok) return { type: 'error', reason: 'insufficient_credits' } as const;
    if (!moved.replayed) {
      await audit(
        tx,
        {
          staffId: by.id,
          action: input.amount > 0 ? 'member.credits_grant' : 'member.credits_take',
          targetType: 'member',
          targetId: memberId,
          before: { credits: member.credits },
          after: { credits: moved.entry.balanceAfter, amount: input.amount, reason: why },
        },
        now,
      );
    }
    return { type: 'ok', balance: moved.entry.balanceAfter } as const;
  });
}
