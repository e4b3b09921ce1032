/**
 * Sessions written by hand (lucia's guide): a random 256-bit token goes to the browser in an HttpOnly
 * cookie; only its SHA-256 is stored, so the table alone opens no account. 30 days, sliding: a session
 * used in its second half is extended. Revocable one by one or all at once (AUTH-04).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import type { Clock } from '../clock';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export function sessionIdFromToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface SessionRecord {
  id: string;
  userId: number;
  expiresAt: Date;
}

export interface CreatedSession {
  token: string;
  session: SessionRecord;
}

export async function createSession(db: Db, clock: Clock, userId: number, meta: { ip?: string | null; userAgent?: string | null; passkeyId?: number | null } = {}): Promise<CreatedSession> {
  const token = newSessionToken();
  const session = { id: sessionIdFromToken(token), userId, expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS) };
  await db.insert(sessions).values({ ...session, ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 300) ?? null, passkeyId: meta.passkeyId ?? null, createdAt: clock.now() });
  return { token, session };
}

export interface ValidatedSession {
  session: SessionRecord;
  /** True when the expiry moved, so the cookie must be sent again. */
  renewed: boolean;
}

/** What a stored session means for a request on `siteId` at `now`. */
export type SessionVerdict = 'valid' | 'renew' | 'expired' | 'not_here';

/**
 * The rules of a stored session: expired rows are gone; a session belongs to the site it was made on
 * (another site's host does not see it) and to a member who is not deleted; one used in its second half
 * is extended (sliding expiry).
 */
export function judgeSession(row: { expiresAt: Date; siteId: number; status: string }, now: Date, siteId: number): SessionVerdict {
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (row.siteId !== siteId || row.status === 'deleted' || row.status === 'banned') return 'not_here';
  return row.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS / 2 ? 'renew' : 'valid';
}

/**
 * Carries out a verdict's writes: an expired row is removed, a renewed one gets its new expiry.
 * Answers the session as it stands after that, or null when it does not count.
 */
export async function applySessionVerdict(db: Db, now: Date, verdict: SessionVerdict, row: SessionRecord): Promise<ValidatedSession | null> {
  if (verdict === 'expired') {
    await db.delete(sessions).where(eq(sessions.id, row.id));
    return null;
  }
  if (verdict === 'not_here') return null;
  if (verdict === 'renew') {
    const session = { ...row, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) };
    await db.update(sessions).set({ expiresAt: session.expiresAt }).where(eq(sessions.id, row.id));
    return { session, renewed: true };
  }
  return { session: row, renewed: false };
}

/** Whether a cookie value can be a session token at all (anything else is not looked up). */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a member, optionally keeping the one in use (password change, reset). */
export async function revokeUserSessions(db: Db, userId: number, keepSessionId?: string): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}
