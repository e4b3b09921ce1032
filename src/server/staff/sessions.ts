/**
 * Staff sessions (OPS-04): separate from members' (their own table and cookie, path /admin), shorter:
 * 8 hours at most and 30 minutes without a request. Only the token's SHA-256 is stored.
 */
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { staff, staffSessions } from '../../db/schema';
import { newSessionToken, sessionIdFromToken } from '../auth/sessions';
import type { Clock } from '../clock';
import type { StaffMember } from './accounts';

export const STAFF_COOKIE = 'staff_session';
export const STAFF_SESSION_MAX_MS = 8 * 60 * 60 * 1000;
export const STAFF_SESSION_IDLE_MS = 30 * 60 * 1000;

/** `passkeyId`: the passkey the login used as its second factor (PASS-01): removing it ends the session. */
export async function createStaffSession(deps: { db: Db; clock: Clock }, staffId: number, ip: string | null, passkeyId: number | null = null): Promise<string> {
  const token = newSessionToken();
  const now = deps.clock.now();
  await deps.db.insert(staffSessions).values({ id: sessionIdFromToken(token), staffId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + STAFF_SESSION_MAX_MS), ip, passkeyId });
  return token;
}

/** The staff member behind a cookie token, the session's idle time renewed; null when it counts for nothing. */
export async function staffForToken(deps: { db: Db; clock: Clock }, token: string | undefined): Promise<(StaffMember & { sessionId: string }) | null> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const id = sessionIdFromToken(token);
  const now = deps.clock.now();
  const [row] = await deps.db
    .select({ id: staff.id, email: staff.email, name: staff.name, role: staff.role, active: staff.active, lastSeenAt: staffSessions.lastSeenAt, expiresAt: staffSessions.expiresAt })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.id, id), gt(staffSessions.expiresAt, now)))
    .limit(1);
  if (!row || !row.active || now.getTime() - row.lastSeenAt.getTime() > STAFF_SESSION_IDLE_MS) {
    if (row) await deps.db.delete(staffSessions).where(eq(staffSessions.id, id));
    return null;
  }
  await deps.db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, id));
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionId: id };
}

export async function endStaffSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.id, sessionId));
}
