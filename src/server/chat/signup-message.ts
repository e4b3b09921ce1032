/**
 * The first message written when signing up from a member's page (SIGN-06, SIGN-07). It waits with the
 * account until the e-mail address is confirmed; then it goes to that member as the new member's first
 * message through the chat's own send path (credits from the signup credits and the ledger, conversation
 * limits, blocks, live delivery and notification all apply). Its client id is fixed per account, so a
 * second confirmation, or two at once, sends it once. When the credits are not enough (or the free
 * conversation limit stops it), it stays as a draft in that chat's composer with the reason; when the
 * member can no longer be written to (gone, blocked), it is dropped and nothing claims it was sent.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { sendMessage, type ChatDeps, type ChatPrices, type SendRefusal } from './send';

export type SignupMessageResult =
  { type: 'none' } | { type: 'sent'; memberId: number; conversationId: number } | { type: 'draft'; memberId: number; reason: SendRefusal } | { type: 'dropped'; reason: SendRefusal };

/** Refusals that keep the message as a draft: the member can send it once they can pay or may start it. */
const KEEP_AS_DRAFT: readonly SendRefusal[] = ['insufficient_credits', 'conversation_limit'];

export const signupClientId = (userId: number) => `signup-${userId}`;

/** Sends the confirmed member's signup message, once. */
export async function deliverSignupMessage(deps: ChatDeps, prices: ChatPrices, userId: number): Promise<SignupMessageResult> {
  const [row] = await deps.db
    .select({ siteId: users.siteId, paidUser: users.paidUser, status: users.status, body: users.signupMessage, to: users.signupMemberId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row || row.status !== 'active' || !row.body || row.to === null) return { type: 'none' };
  const result = await sendMessage(deps, { siteId: row.siteId, userId, paidUser: row.paidUser }, prices, { to: row.to, clientId: signupClientId(userId), kind: 'text', body: row.body });
  if (result.type === 'sent') {
    await clearSignupMessage(deps.db, userId);
    return { type: 'sent', memberId: row.to, conversationId: result.message.conversationId };
  }
  if (KEEP_AS_DRAFT.includes(result.reason)) return { type: 'draft', memberId: row.to, reason: result.reason };
  await clearSignupMessage(deps.db, userId);
  return { type: 'dropped', reason: result.reason };
}

/** The signup message still waiting as a draft for the chat with `memberId`, or null. */
export async function signupDraft(db: Db, userId: number, memberId: number): Promise<string | null> {
  const [row] = await db
    .select({ body: users.signupMessage })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.signupMemberId, memberId), isNotNull(users.signupMessage)))
    .limit(1);
  return row?.body ?? null;
}

/** Sent (or sent by the member from the draft) or dropped: no longer waiting. */
export async function clearSignupMessage(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ signupMessage: null }).where(eq(users.id, userId));
}

/** The member wrote to `memberId` themselves (from the draft or anew): the signup message no longer waits. */
export async function signupMessageAnswered(db: Db, userId: number, memberId: number): Promise<void> {
  await db
    .update(users)
    .set({ signupMessage: null })
    .where(and(eq(users.id, userId), eq(users.signupMemberId, memberId), isNotNull(users.signupMessage)));
}
