/**
 * Single-use account links (activation, password reset, e-mail change, reactivation): a random token
 * goes in the mailed URL, only its SHA-256 is stored, each token works once and expires.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accountTokens, type AccountTokenKind } from '../../db/schema';
import type { Clock } from '../clock';

export const TOKEN_TTL_MS: Record<AccountTokenKind, number> = {
  activation: 14 * 24 * 3600 * 1000,
  password_reset: 2 * 3600 * 1000,
  email_change: 24 * 3600 * 1000,
  reactivation: 14 * 24 * 3600 * 1000,
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a token for `userId` and returns the secret to put in the link. */
export async function issueToken(db: Db, clock: Clock, userId: number, kind: AccountTokenKind, options: { newEmail?: string; ttlMs?: number } = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(accountTokens).values({
    userId,
    kind,
    tokenHash: hashToken(token),
    newEmail: options.newEmail ?? null,
    expiresAt: new Date(clock.now().getTime() + (options.ttlMs ?? TOKEN_TTL_MS[kind])),
    createdAt: clock.now(),
  });
  return token;
}

export type ConsumeResult = { type: 'ok'; userId: number; newEmail: string | null } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' };

/**
 * Uses a token once: a conditional update marks it used, so two clicks at the same moment cannot both
 * succeed. Expired and used tokens say so (the member gets a fitting message).
 */
export async function consumeToken(db: Db, clock: Clock, token: string, kind: AccountTokenKind): Promise<ConsumeResult> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { type: 'error', reason: 'invalid' };
  const hash = hashToken(token);
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hash), eq(accountTokens.kind, kind)))
    .limit(1);
  if (!row) return { type: 'error', reason: 'invalid' };
  if (row.usedAt) return { type: 'error', reason: 'used' };
  if (row.expiresAt.getTime() <= clock.now().getTime()) return { type: 'error', reason: 'expired' };
  const updated = await db
    .update(accountTokens)
    .set({ usedAt: clock.now() })
    .where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt)))
    .returning({ id: accountTokens.id });
  if (updated.length === 0) return { type: 'error', reason: 'used' };
  return { type: 'ok', userId: row.userId, newEmail: row.newEmail };
}

/** Checks a token without using it (e.g. to show the reset form only for a live link). */
export async function peekToken(db: Db, clock: Clock, token: string, kind: AccountTokenKind): Promise<ConsumeResult> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { type: 'error', reason: 'invalid' };
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token)), eq(accountTokens.kind, kind)))
    .limit(1);
  if (!row) return { type: 'error', reason: 'invalid' };
  if (row.usedAt) return { type: 'error', reason: 'used' };
  if (row.expiresAt.getTime() <= clock.now().getTime()) return { type: 'error', reason: 'expired' };
  return { type: 'ok', userId: row.userId, newEmail: row.newEmail };
}

/** How many tokens of a kind a member got since `since` (e.g. password resets per day). */
export async function countTokensSince(db: Db, userId: number, kind: AccountTokenKind, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind), gte(accountTokens.createdAt, since)));
  return row?.n ?? 0;
}

/** Makes every open token of a kind unusable (a new e-mail change replaces the old one, a reset ends others). */
export async function revokeTokens(db: Db, clock: Clock, userId: number, kind: AccountTokenKind): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: clock.now() })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt)));
}
