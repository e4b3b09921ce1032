/**
 * SAFE-02: the moderators' view of flagged messages: per sending member, how many of their messages
 * carried the safety notice in the last COUNT_DAYS days, most first, so patterns are seen (a member who
 * asks many people for money). Fictional profiles' messages are never flagged, so they never count.
 */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages, profiles, users } from '../../db/schema';

export const COUNT_DAYS = 30;

export interface SafetyCount {
  memberId: number;
  siteId: number;
  name: string | null;
  status: string;
  /** Flagged messages in the window. */
  messages: number;
  /** How many members received them. */
  recipients: number;
  lastAt: Date;
}

/** Members with flagged messages since `now` − COUNT_DAYS, most first (at most `limit`). */
export async function safetyCountsByMember(db: Db, now: Date, limit = 20): Promise<SafetyCount[]> {
  const since = new Date(now.getTime() - COUNT_DAYS * 86_400_000);
  const n = sql<number>`count(*)`.mapWith(Number);
  const rows = await db
    .select({
      memberId: messages.senderId,
      siteId: users.siteId,
      name: profiles.name,
      status: users.status,
      messages: n,
      recipients: sql<number>`count(distinct ${messages.recipientId})`.mapWith(Number),
      lastAt: sql<Date>`max(${messages.createdAt})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .leftJoin(profiles, eq(profiles.userId, messages.senderId))
    .where(and(eq(messages.safetyFlagged, true), gt(messages.createdAt, since)))
    .groupBy(messages.senderId, users.siteId, profiles.name, users.status)
    .orderBy(desc(n), desc(sql`max(${messages.createdAt})`))
    .limit(Math.min(Math.max(limit, 1), 200));
  return rows;
}

/** A member's flagged messages in the window (the member's page in the back office). */
export async function memberSafetyCount(db: Db, memberId: number, now: Date): Promise<number> {
  const since = new Date(now.getTime() - COUNT_DAYS * 86_400_000);
  return db.$count(messages, and(eq(messages.senderId, memberId), eq(messages.safetyFlagged, true), gt(messages.createdAt, since)));
}
