/**
 * What visitors do on a page that the lander statistics count (CLI-05, CLI-06): a visitor who arrived
 * with `lb` and left without going further (a bounce, with the time spent), and a page that became
 * hidden. Anonymous apart from the member's id when one is signed in; erased with the account.
 */
import type { Db } from '../../db/client';
import { pageEvents } from '../../db/schema';

export type PageEvent = { kind: 'bounce'; path: string; durationMs: number } | { kind: 'hidden'; path: string };

export async function recordPageEvent(db: Db, where: { siteId: number; userId: number | null }, event: PageEvent): Promise<void> {
  await db.insert(pageEvents).values({ siteId: where.siteId, userId: where.userId, ...event });
}

/** The path of a page's address (the `Referer` of a beacon), at most 500 characters; '' when it is none. */
export function refererPath(referer: string | null): string {
  if (!referer) return '';
  try {
    return new URL(referer).pathname.slice(0, 500);
  } catch {
    return '';
  }
}
