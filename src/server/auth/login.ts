/** Logging in with e-mail and password (AUTH-01); throttling arrives with the accounts issue (AUTH-03). */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { Clock } from '../clock';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { createSession, revokeSession, type CreatedSession } from './sessions';

export const loginSchema = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});
export type LoginInput = z.infer<typeof loginSchema>;

export type LoginResult =
  | { type: 'ok'; userId: number; created: CreatedSession }
  | { type: 'error'; reason: 'invalid_credentials' };

export async function login(
  deps: { db: Db; clock: Clock },
  input: LoginInput & { siteId: number; previousSessionId?: string | null; ip?: string | null; userAgent?: string | null },
): Promise<LoginResult> {
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status })
    .from(users)
    .where(and(eq(users.siteId, input.siteId), sql`lower(${users.email}) = ${input.email.toLowerCase()}`, eq(users.role, 'member')))
    .limit(1);
  const ok = user?.passwordHash && user.status !== 'deleted' ? await verifyPassword(user.passwordHash, input.password) : await burnPasswordCheck(input.password);
  if (!ok || !user) return { type: 'error', reason: 'invalid_credentials' };
  // Rotate: the session a browser had before logging in is never reused (session fixation).
  if (input.previousSessionId) await revokeSession(deps.db, input.previousSessionId);
  const created = await createSession(deps.db, deps.clock, user.id, { ip: input.ip ?? null, userAgent: input.userAgent ?? null });
  return { type: 'ok', userId: user.id, created };
}
