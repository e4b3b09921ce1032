/**
 * The "most chosen" mark on a credit package (HON-03: a claim on screen is backed by the site's own data
 * or not made). Daily, per site, over the last 90 days: how many members bought each of the site's active
 * packages (paid and not refunded; a member counts once per package, so one heavy buyer cannot make a
 * package "popular"). The package most members bought carries the mark when at least MIN_BUYERS such
 * purchases back it and no other package ties with it; otherwise no package does. The staff's
 * `highlighted` flag only picks the package a page preselects: it is a choice, not a fact about members.
 */
import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditPackages, payments } from '../../db/schema';
import { DAY_MS, FIGURE_WINDOW_DAYS, loadFigure, refreshStaleFigures, saveFigure } from './site-figures';

export const MOST_CHOSEN_KEY = 'most_chosen_package';
/** Members' purchases (one per member and package) in the window before any package is called the most chosen. */
export const MIN_BUYERS = 30;

export interface PackageBuyers {
  packageId: number;
  buyers: number;
}

export interface MostChosen {
  packageId: number;
  /** Members who bought it in the window. */
  buyers: number;
  /** Members' purchases of all the site's active packages in the window (one per member and package). */
  total: number;
  days: number;
}

/** How many members bought each of the site's active packages in the window before `now`. */
export async function countPackageBuyers(db: Db, siteId: number, now: Date): Promise<PackageBuyers[]> {
  const since = new Date(now.getTime() - FIGURE_WINDOW_DAYS * DAY_MS);
  const rows = await db
    .select({ packageId: creditPackages.id, buyers: sql<number>`count(distinct ${payments.userId})::int` })
    .from(payments)
    .innerJoin(creditPackages, and(eq(creditPackages.id, payments.packageId), eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
    .where(and(eq(payments.siteId, siteId), eq(payments.status, 'paid'), isNull(payments.refundedAt), gte(payments.createdAt, since), lt(payments.createdAt, now)))
    .groupBy(creditPackages.id);
  return rows.map((r) => ({ packageId: r.packageId, buyers: Number(r.buyers) }));
}

/** The package most members bought, or null: too few purchases, or two packages share the most. */
export function mostChosenOf(counts: PackageBuyers[]): Omit<MostChosen, 'days'> | null {
  const total = counts.reduce((sum, c) => sum + c.buyers, 0);
  if (total < MIN_BUYERS) return null;
  const most = Math.max(...counts.map((c) => c.buyers));
  const leaders = counts.filter((c) => c.buyers === most);
  return leaders.length === 1 ? { packageId: leaders[0]!.packageId, buyers: most, total } : null;
}

/** Computes and stores (or removes) one site's most chosen package. */
export async function computeMostChosen(db: Db, siteId: number, now: Date): Promise<MostChosen | null> {
  const found = mostChosenOf(await countPackageBuyers(db, siteId, now));
  const value = found && { ...found, days: FIGURE_WINDOW_DAYS };
  await saveFigure(db, siteId, MOST_CHOSEN_KEY, value, now);
  return value;
}

/** The daily job: every site whose figure is missing or a day old is computed again. */
export function refreshMostChosen(deps: { db: Db; clock: { now(): Date } }): Promise<{ computed: number }> {
  return refreshStaleFigures(deps, MOST_CHOSEN_KEY, (siteId, now) => computeMostChosen(deps.db, siteId, now));
}

/** The id of the site's most chosen package, or null: then no package carries the mark. */
export async function loadMostChosenPackage(db: Db, siteId: number): Promise<number | null> {
  return (await loadFigure(db, siteId, MOST_CHOSEN_KEY))?.value.packageId ?? null;
}
