/**
 * Figures a site's pages state from the site's own data (HON-03): the premium claim, the most chosen
 * credit package. Each is kept per site in `site_figures` under its key, computed again by a scheduled
 * job once it is a day old, and removed when the data no longer backs it: the page then says nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { siteFigures, sites } from '../../db/schema';

/** The days of data behind every figure. */
export const FIGURE_WINDOW_DAYS = 90;
export const DAY_MS = 24 * 3600 * 1000;

export interface StoredFigure {
  value: Record<string, number>;
  computedAt: Date;
}

/** Stores a site's figure under `key`, or removes it (`value` null: the data does not back it now). */
export async function saveFigure(db: Db, siteId: number, key: string, value: Record<string, number> | null, now: Date): Promise<void> {
  if (value === null) {
    await db.delete(siteFigures).where(and(eq(siteFigures.siteId, siteId), eq(siteFigures.key, key)));
    return;
  }
  await db
    .insert(siteFigures)
    .values({ siteId, key, value, computedAt: now })
    .onConflictDoUpdate({ target: [siteFigures.siteId, siteFigures.key], set: { value, computedAt: now } });
}

/** A site's stored figure under `key`, or null. */
export async function loadFigure(db: Db, siteId: number, key: string): Promise<StoredFigure | null> {
  const [row] = await db
    .select({ value: siteFigures.value, computedAt: siteFigures.computedAt })
    .from(siteFigures)
    .where(and(eq(siteFigures.siteId, siteId), eq(siteFigures.key, key)))
    .limit(1);
  return row ?? null;
}

/**
 * The daily round of one figure (the scheduler runs hourly): every site whose figure under `key` is
 * missing or older than a day is computed again by `compute`. Answers how many sites were computed.
 */
export async function refreshStaleFigures(deps: { db: Db; clock: { now(): Date } }, key: string, compute: (siteId: number, now: Date) => Promise<unknown>): Promise<{ computed: number }> {
  const now = deps.clock.now();
  const all = await deps.db.select({ id: sites.id }).from(sites);
  const fresh = await deps.db.select({ siteId: siteFigures.siteId, computedAt: siteFigures.computedAt }).from(siteFigures).where(eq(siteFigures.key, key));
  let computed = 0;
  for (const { id } of all) {
    const last = fresh.find((f) => f.siteId === id);
    if (last && now.getTime() - last.computedAt.getTime() < DAY_MS) continue;
    await compute(id, now);
    computed++;
  }
  return { computed };
}
