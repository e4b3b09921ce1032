/**
 * Blocks (BLK-01): after a block the two members vanish from each other's search, likes, games and
 * profile pages, both ways, through the one listing rule (visibility.ts).
 *
 * Decision: a block keeps the likes between the two. They are never listed while the block lasts
 * (every likes query applies `listedTo`), and unblocking restores them as they were; deleting them
 * would make an unblock lose history the blocked member never knew was hidden.
 */
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { blocks, users } from '../../db/schema';
import type { EventBus } from '../realtime/bus';
import type { Member } from './likes';

export interface BlockDeps {
  db: Db;
  bus: EventBus;
}

export type BlockResult = { type: 'ok'; created: boolean } | { type: 'refused'; reason: 'self' | 'not_found' };

/**
 * `member` blocks `otherId` (a member of the same site, any state but unknown). Idempotent. A member
 * already blocked by the other side may still block them: blocking is always allowed.
 */
export async function block(deps: BlockDeps, member: Member, otherId: number): Promise<BlockResult> {
  if (otherId === member.userId) return { type: 'refused', reason: 'self' };
  const [other] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, otherId), eq(users.siteId, member.siteId)))
    .limit(1);
  if (!other) return { type: 'refused', reason: 'not_found' };
  const inserted = await deps.db.insert(blocks).values({ blockerId: member.userId, blockedId: otherId }).onConflictDoNothing().returning({ id: blocks.blockedId });
  if (inserted.length === 0) return { type: 'ok', created: false };
  await deps.bus.publish('member.blocked', { blockerId: member.userId, blockedId: otherId });
  return { type: 'ok', created: true };
}

/** `member` lifts their block of `otherId`. Idempotent; a block by the other side stays. */
export async function unblock(deps: BlockDeps, member: Member, otherId: number): Promise<{ removed: boolean }> {
  const removed = await deps.db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, member.userId), eq(blocks.blockedId, otherId)))
    .returning({ id: blocks.blockedId });
  if (removed.length === 0) return { removed: false };
  await deps.bus.publish('member.unblocked', { blockerId: member.userId, blockedId: otherId });
  return { removed: true };
}

/** Whether `member` has blocked `otherId` (for the profile's block/unblock button). */
export async function hasBlocked(db: Db, member: Member, otherId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: blocks.blockedId })
    .from(blocks)
    .where(and(eq(blocks.blockerId, member.userId), eq(blocks.blockedId, otherId)))
    .limit(1);
  return row !== undefined;
}

/** Whether either of the two has blocked the other (BLK-01: chats between them stop both ways). */
export async function blockedBetween(db: Db, oneId: number, otherId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: blocks.blockedId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, oneId), eq(blocks.blockedId, otherId)), and(eq(blocks.blockerId, otherId), eq(blocks.blockedId, oneId))))
    .limit(1);
  return row !== undefined;
}
