/**
 * Sending a message (CHT-04, CHT-05, CHT-09, CHT-11, GFT-01): the one way a message is written.
 *
 * - The sender's client id is the idempotency key: a retried send (network error, double click, the
 *   client's 5 retries) finds the first message and answers it again, charged once.
 * - The message row, the conversation's counters and the credit-ledger spend (reference
 *   `message:<sender>:<client id>`) are one transaction: no message without its charge, no charge without
 *   its message. The sender's user row is locked first, so a member's sends (and the free member's
 *   conversation count) are decided one after another.
 * - After the commit the bus carries `chat.message` (ids only) to every process, whose streams read the
 *   row; the recipient is told through `notify` by their preferences.
 *
 * Locks (SEC-15, docs/decisions/057-chat-lock-order.md): A → B and B → A run at the same moment (two
 * members, or a member and the operator answering as a fictional profile), so every row lock the
 * transaction takes on PostgreSQL is listed here, in the order taken, with what it conflicts with:
 *
 *  1. the sender's `users` row, FOR NO KEY UPDATE: waits for the sender's other sends only. It does not
 *     conflict with the FOR KEY SHARE locks the other direction's inserts take on this row (a message,
 *     a conversation, its members all reference both users), so B → A never waits for A → B here. It was
 *     FOR UPDATE, which does conflict: A held A's row and waited for a key-share on B's, B the reverse,
 *     and PostgreSQL broke the deadlock by failing one of them (a 500).
 *  2. starting: the `conversations` insert takes key-share locks on both users and the site (compatible
 *     with step 1 of either side) and the pair's unique index entry. Two first messages at the same
 *     moment: the second insert waits for the first transaction and, `on conflict do nothing`, writes into
 *     the conversation that one started (or inserts after all when that one rolled back). Then the two
 *     `conversation_members` rows (key-share on the conversation and both users).
 *  3. the ledger's spend: `update users` of the sender's row (FOR NO KEY UPDATE, held since step 1) and
 *     its `credit_ledger` row (a key-share on the sender's row, our own).
 *  4. the `messages` insert: key-share on the conversation, the sender's and the recipient's rows.
 *     Key-share conflicts with no lock another send takes, so it never waits.
 *  5. the `conversations` row update (last message): FOR NO KEY UPDATE, the first lock the two directions
 *     share. The second send of the pair waits here, holding only locks the first one never asks for
 *     (its own user row, key-shares), so the first one finishes and the wait cannot close a circle.
 *  6. both `conversation_members` rows, in one statement, only ever after step 5: whatever order the
 *     rows are locked in, the pair's other sends wait at step 5. (Reading and removing a conversation
 *     lock one of these rows in a statement of its own, holding nothing else.)
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversationMembers, conversations, messages, profiles, users, type MessageKind } from '../../db/schema';
import type { Clock } from '../clock';
import { spend, type DbTransaction } from '../credits/ledger';
import { mayStartConversation } from '../members/membership';
import type { NotifyEvent } from '../notify/notify';
import type { EventBus } from '../realtime/bus';
import { blockedBetween } from '../members/blocks';
import { isListedTo } from '../members/visibility';
import { currentSafetyMatcher } from '../safety/lists';
import { isVerified } from '../photos/verification';

export interface ChatDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  /** Tells a member of a new conversation or message (notify.ts, bound to the app); preferences apply there. */
  notify?: (memberId: number, event: NotifyEvent) => Promise<unknown>;
}

/** The prices and limits of the site the conversation is on (its settings). */
export interface ChatPrices {
  message_credits: number;
  photo_credits: number;
  gift_credits: number;
  message_length: number;
}

export interface Sender {
  siteId: number;
  userId: number;
  paidUser: boolean;
}

export interface SendInput {
  to: number;
  clientId: string;
  kind: MessageKind;
  body: string;
  /** The gift's id, the gif's id or the photo's file name (by kind). */
  attachment?: string | null;
}

export interface ChatMessage {
  id: number;
  conversationId: number;
  senderId: number;
  recipientId: number;
  kind: MessageKind;
  body: string;
  attachment: string | null;
  clientId: string;
  credits: number;
  /** SAFE-02: the recipient is shown a safety notice with it (decided when it was sent). */
  safetyFlagged: boolean;
  createdAt: Date;
}

export type SendRefusal =
  | 'member_not_found'
  | 'self_not_allowed'
  | 'recipient_unconfirmed'
  | 'conversation_limit'
  | 'insufficient_credits'
  | 'message_empty'
  | 'message_too_long'
  | 'invalid_message'
  | 'invalid_client_id'
  | 'client_id_reused'
  | 'verification_required';

export type SendResult = { type: 'sent'; message: ChatMessage; replayed: boolean; balance: number; started: boolean } | { type: 'refused'; reason: SendRefusal; balance?: number; cost?: number };

/** A client id: a UUID or another opaque token the client made (8–64 of A–Z a–z 0–9 _ -). */
export const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** What a message of `kind` costs on a site with `prices`. */
export function messageCost(prices: ChatPrices, kind: MessageKind): number {
  switch (kind) {
    case 'photo':
      return prices.photo_credits;
    case 'gift':
      return prices.gift_credits;
    default:
      return prices.message_credits;
  }
}

/** The ledger reference of a send: one per sender and client id. */
export function messageReference(senderId: number, clientId: string): string {
  return `message:${senderId}:${clientId}`;
}

/** Why a text is not a message: empty, too long (in characters, not bytes) or with control characters. */
export function checkBody(body: string, kind: MessageKind, maxLength: number): SendRefusal | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(body)) return 'invalid_message';
  if (kind === 'text' && body.trim() === '') return 'message_empty';
  if ([...body].length > maxLength) return 'message_too_long';
  return null;
}

const toMessage = (row: typeof messages.$inferSelect): ChatMessage => ({
  id: row.id,
  conversationId: row.conversationId,
  senderId: row.senderId,
  recipientId: row.recipientId,
  kind: row.kind,
  body: row.body,
  attachment: row.attachment,
  clientId: row.clientId,
  credits: row.credits,
  safetyFlagged: row.safetyFlagged,
  createdAt: row.createdAt,
});

/** The message a sender already sent under this client id, if any. */
async function earlierSend(db: Db | DbTransaction, senderId: number, clientId: string): Promise<ChatMessage | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)))
    .limit(1);
  return row ? toMessage(row) : null;
}

function replayOf(earlier: ChatMessage, input: SendInput): SendResult {
  // The same client id for another message is the client's bug, not a retry: refused, nothing written.
  if (earlier.recipientId !== input.to || earlier.body !== input.body || earlier.kind !== input.kind) return { type: 'refused', reason: 'client_id_reused' };
  return { type: 'sent', message: earlier, replayed: true, balance: -1, started: false };
}

/** Thrown inside the transaction to roll it back with a refusal. */
class Refused extends Error {
  constructor(
    readonly reason: SendRefusal,
    readonly balance?: number,
  ) {
    super(reason);
  }
}

const isUniqueViolation = (err: unknown): boolean => {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
};

export async function sendMessage(deps: ChatDeps, sender: Sender, prices: ChatPrices, input: SendInput): Promise<SendResult> {
  const { db } = deps;
  if (!CLIENT_ID.test(input.clientId)) return { type: 'refused', reason: 'invalid_client_id' };
  if (input.to === sender.userId) return { type: 'refused', reason: 'self_not_allowed' };
  const bad = checkBody(input.body, input.kind, prices.message_length);
  if (bad) return { type: 'refused', reason: bad };
  const cost = messageCost(prices, input.kind);

  const earlier = await earlierSend(db, sender.userId, input.clientId);
  if (earlier) return withBalance(db, sender.userId, replayOf(earlier, input));

  // The recipient: a member of this site whose profile is up, no block either way (a blocked member is
  // 'not found': ids leak nothing), and a confirmed address (CHT-09).
  const [recipient] = await db
    .select({ id: users.id, siteId: users.siteId, status: users.status, profileStatus: profiles.status, onlyVerified: users.onlyVerifiedContact })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, input.to))
    .limit(1);
  if (!recipient || recipient.siteId !== sender.siteId || recipient.status === 'deleted' || recipient.status === 'banned' || recipient.profileStatus !== 'active')
    return { type: 'refused', reason: 'member_not_found' };
  if (await blockedBetween(db, sender.userId, recipient.id)) return { type: 'refused', reason: 'member_not_found' };
  if (recipient.status === 'not_confirmed') return { type: 'refused', reason: 'recipient_unconfirmed' };

  const safetyFlagged = await asksForSafetyNotice(db, sender.userId, input.body);
  const [low, high] = sender.userId < recipient.id ? [sender.userId, recipient.id] : [recipient.id, sender.userId];
  const now = deps.clock.now();
  let started = false;
  let result: { message: ChatMessage; balance: number };
  try {
    result = await db.transaction(async (tx) => {
      // One member's sends one after another: the conversation count and the balance are read under this
      // lock. NO KEY UPDATE, not UPDATE: the other member's sends to this one key-share this row (step 1 above).
      await tx.execute(sql`select 1 from ${users} where ${users.id} = ${sender.userId} for no key update`);
      const pair = and(eq(conversations.memberLow, low), eq(conversations.memberHigh, high));
      let [conversation] = await tx.select({ id: conversations.id }).from(conversations).where(pair).limit(1);
      if (!conversation) {
        // Whoever inserts the pair's row starts the conversation. The other member's first message at the
        // same moment waits for that row here and then goes into it (started by the one who inserted).
        const [mine] = await tx
          .insert(conversations)
          .values({ siteId: sender.siteId, memberLow: low, memberHigh: high, startedBy: sender.userId, createdAt: now })
          .onConflictDoNothing({ target: [conversations.memberLow, conversations.memberHigh] })
          .returning({ id: conversations.id });
        if (mine) {
          // Starting: only someone listed to the sender (not invisible), and a free member only twice
          // (CHT-04; this one counted). A refusal rolls the new row back with everything else.
          if (!(await isListedTo(tx as unknown as Db, { siteId: sender.siteId, userId: sender.userId }, recipient.id))) throw new Refused('member_not_found');
          // The count includes the conversation just inserted.
          if (!sender.paidUser && !mayStartConversation(sender, (await conversationsStarted(tx, sender.userId)) - 1)) throw new Refused('conversation_limit');
          // VER-02: a member who lets only verified members start a conversation. Every start (a text, a
          // gift, an icebreaker, a gif, a photo, the signup's message, an operator's profile) comes here.
          if (recipient.onlyVerified && !(await isVerified(tx as unknown as Db, sender.userId))) throw new Refused('verification_required');
          await tx.insert(conversationMembers).values([
            { conversationId: mine.id, userId: sender.userId, otherId: recipient.id },
            { conversationId: mine.id, userId: recipient.id, otherId: sender.userId },
          ]);
          conversation = mine;
          started = true;
        } else {
          // The other member started it a moment ago (committed: this statement sees it).
          [conversation] = await tx.select({ id: conversations.id }).from(conversations).where(pair).limit(1);
          if (!conversation) throw new Refused('member_not_found');
        }
      }
      const conversationId = conversation!.id;
      let balance: number;
      if (cost > 0) {
        const charged = await spend(tx, { memberId: sender.userId, amount: cost, reason: `message_${input.kind}`, reference: messageReference(sender.userId, input.clientId), at: now });
        if (!charged.ok) throw new Refused('insufficient_credits', charged.balance);
        balance = charged.entry.balanceAfter;
      } else {
        const [me] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, sender.userId));
        balance = me!.credits;
      }
      const [row] = await tx
        .insert(messages)
        .values({
          conversationId,
          senderId: sender.userId,
          recipientId: recipient.id,
          kind: input.kind,
          body: input.body,
          attachment: input.attachment ?? null,
          clientId: input.clientId,
          credits: cost,
          safetyFlagged,
          createdAt: now,
        })
        .returning();
      const message = toMessage(row!);
      // The pair's lock: the other direction's send waits here (step 5 above), before the members' rows.
      await tx.update(conversations).set({ lastMessageId: message.id, lastMessageAt: now }).where(eq(conversations.id, conversationId));
      // Both sides see the conversation again; the sender has read their own message, the recipient has one more unread.
      const mySide = sql`${conversationMembers.userId} = ${sender.userId}`;
      await tx
        .update(conversationMembers)
        .set({
          lastMessageId: message.id,
          lastMessageAt: now,
          removedAt: null,
          lastReadMessageId: sql`case when ${mySide} then ${message.id} else ${conversationMembers.lastReadMessageId} end`,
          unread: sql`case when ${mySide} then 0 else ${conversationMembers.unread} + 1 end`,
        })
        .where(eq(conversationMembers.conversationId, conversationId));
      return { message, balance };
    });
  } catch (err) {
    if (err instanceof Refused) return { type: 'refused', reason: err.reason, ...(err.balance === undefined ? {} : { balance: err.balance, cost }) };
    // Two sends of one client id at once: the loser's insert hit messages_client (or the ledger's
    // reference) and rolled back whole; the winner's message is the answer.
    if (isUniqueViolation(err)) {
      const winner = await earlierSend(db, sender.userId, input.clientId);
      if (winner) return withBalance(db, sender.userId, replayOf(winner, input));
    }
    throw err;
  }

  const { message } = result;
  await deps.bus.publish('chat.message', { messageId: message.id, conversationId: message.conversationId, senderId: message.senderId, recipientId: message.recipientId, siteId: sender.siteId });
  await deps.notify?.(recipient.id, { type: started ? 'new_conversation' : 'new_message', fromUserId: sender.userId, conversationId: message.conversationId });
  return { type: 'sent', message, replayed: false, balance: result.balance, started };
}

/**
 * SAFE-02: whether a message's text asks for money, payment details, gift cards or crypto, or to move to
 * another app (the phrases of every language, src/server/safety). Never for a fictional profile's message:
 * operators must not write such things, and a notice on them would only confuse (decision 084).
 */
async function asksForSafetyNotice(db: Db, senderId: number, body: string): Promise<boolean> {
  if (body.trim() === '' || !(await currentSafetyMatcher(db)).test(body)) return false;
  const [profile] = await db.select({ fictional: profiles.fictional }).from(profiles).where(eq(profiles.userId, senderId)).limit(1);
  return !profile?.fictional;
}

/**
 * CHT-04: whether `sender`'s first message to `otherId` would be refused with 'conversation_limit': a
 * free member who has started FREE_CONVERSATION_LIMIT conversations, with none between the two yet. The
 * chat screen says so before anything is typed; sendMessage still decides, under its lock.
 */
export async function conversationLimitReached(db: Db, sender: Pick<Sender, 'userId' | 'paidUser'>, otherId: number): Promise<boolean> {
  if (sender.paidUser) return false;
  const [low, high] = sender.userId < otherId ? [sender.userId, otherId] : [otherId, sender.userId];
  const [existing] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.memberLow, low), eq(conversations.memberHigh, high)))
    .limit(1);
  if (existing) return false;
  return !mayStartConversation(sender, await conversationsStarted(db, sender.userId));
}

/** Conversations a member started (a free member may start FREE_CONVERSATION_LIMIT, CHT-04). */
async function conversationsStarted(db: Db | DbTransaction, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(conversations)
    .where(eq(conversations.startedBy, userId));
  return row?.n ?? 0;
}

async function withBalance(db: Db, userId: number, result: SendResult): Promise<SendResult> {
  if (result.type !== 'sent') return result;
  const [me] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return { ...result, balance: me?.credits ?? 0 };
}
