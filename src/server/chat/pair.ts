/**
 * The conversation between two members is one row, stored with the lower id first (`member_low <
 * member_high`), whoever wrote first. The checks that ask "have these two a conversation yet?" before a
 * first message (CHT-04's limit, VER-02's verified-only) ask it here; sendMessage asks again under its lock.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations } from '../../db/schema';

/** Whether `a` and `b` have a conversation (in any state). */
export async function haveConversation(db: Db, a: number, b: number): Promise<boolean> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const [existing] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.memberLow, low), eq(conversations.memberHigh, high)))
    .limit(1);
  return existing !== undefined;
}
