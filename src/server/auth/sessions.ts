/**
 * Sessions written by hand (lucia's guide): a random 256-bit token goes to the browser in an HttpOnly
 * cookie; only its SHA-256 is stored, so the table alone opens no account. 30 days, sliding: a session
 * used in its second half is extended. Revocable one by one or all at once (AUTH-04).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
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

export async function createSession(
  db: Db,
  clock: Clock,
  userId: number,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): Promise<CreatedSession> {
  const token = newSessionToken();
  const session = { id: sessionIdFromToken(token), userId, expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS) };
  await db.insert(sessions).values({ ...session, ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 300) ?? null, createdAt: clock.now() });
  return { token, session };
}

export interface ValidatedSession {
  session: SessionRecord;
  /** True when the expiry moved, so the cookie must be sent again. */
  renewed: boolean;
}

/** Looks a cookie token up; expired or unknown tokens give null (and expired rows are removed). */
export async function validateSessionToken(db: Db, clock: Clock, token: string, siteId: number): Promise<ValidatedSession | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const id = sessionIdFromToken(token);
  const now = clock.now();
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt, siteId: users.siteId, status: users.status })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  if (row.expiresAt.getTime() <= now.getTime()) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  // A session belongs to the site it was made on; another site's host does not see it.
  if (row.siteId !== siteId || row.status === 'deleted') return null;
  const session: SessionRecord = { id: row.id, userId: row.userId, expiresAt: row.expiresAt };
  if (row.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS / 2) {
    session.expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await db.update(sessions).set({ expiresAt: session.expiresAt }).where(eq(sessions.id, id));
    return { session, renewed: true };
  }
  return { session, renewed: false };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a member, optionally keeping the one in use (password change, reset). */
export async function revokeUserSessions(db: Db, userId: number, keepSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

export async function countActiveSessions(db: Db, clock: Clock, userId: number): Promise<number> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, clock.now())));
  return rows.length;
}
