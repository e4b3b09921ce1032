/**
 * Credit packages a site sells (PREM-01, CRD-02) and how their prices are shown. Credits and cents are
 * integers; only the display divides.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditPackages } from '../../db/schema';
import { numberFormat } from '../../shared/intl-formats';
import type { TtlCache } from '../cache';
import { loadMostChosenPackage } from './most-chosen';

export interface CreditPackage {
  id: number;
  credits: number;
  priceCents: number;
  currency: string;
  /** The staff's pick: the package a page preselects. No claim is shown for it. */
  highlighted: boolean;
  /** The package most of the site's members bought in the last 90 days (HON-03, src/server/credits/most-chosen.ts). */
  mostChosen: boolean;
  /** The lowest price per credit of the site's packages (`bestValuePackage`): every page marks the same one. */
  bestValue: boolean;
  /** Price of one credit in cents, unrounded (for display only). */
  centsPerCredit: number;
  /** Percentage saved per credit against the site's dearest package (0 for that one). */
  savingPercent: number;
}

/** The active packages of a site, cheapest first (by sort order, then credits). */
export async function listPackages(db: Db, siteId: number): Promise<CreditPackage[]> {
  const [rows, mostChosen] = await Promise.all([
    db
      .select()
      .from(creditPackages)
      .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
      .orderBy(asc(creditPackages.sortOrder), asc(creditPackages.credits), asc(creditPackages.id)),
    loadMostChosenPackage(db, siteId),
  ]);
  const perCredit = rows.map((row) => row.priceCents / row.credits);
  const dearest = Math.max(0, ...perCredit);
  const bestValue = bestValuePackage(rows.map((row, i) => ({ id: row.id, centsPerCredit: perCredit[i]! })));
  return rows.map((row, i) => ({
    id: row.id,
    credits: row.credits,
    priceCents: row.priceCents,
    currency: row.currency,
    highlighted: row.highlighted,
    mostChosen: row.id === mostChosen,
    bestValue: row.id === bestValue,
    centsPerCredit: perCredit[i]!,
    savingPercent: dearest > 0 ? Math.floor((1 - perCredit[i]! / dearest) * 100) : 0,
  }));
}

/**
 * The package with the lowest price per credit (the 'best value' mark), computed from the data: none when
 * there is only one package or when two share the lowest price per credit (no package is then better).
 */
export function bestValuePackage(packages: Pick<CreditPackage, 'id' | 'centsPerCredit'>[]): number | null {
  if (packages.length < 2) return null;
  const lowest = Math.min(...packages.map((p) => p.centsPerCredit));
  const best = packages.filter((p) => Math.abs(p.centsPerCredit - lowest) < 1e-9);
  return best.length === 1 ? best[0]!.id : null;
}

/** How long a process keeps a site's packages (`cachedPackages`); a site change ('site.changed') drops them at once. */
export const PACKAGES_TTL_MS = 60_000;

/**
 * `listPackages` kept per site for a minute (src/server/cache.ts; 'site.changed' drops the site's
 * entries): every conversation page offers them for its 'not enough credits' card (CHT-05).
 */
export function cachedPackages(deps: { db: Db; cache: TtlCache }, siteId: number): Promise<CreditPackage[]> {
  return deps.cache.get(`packages:${siteId}`, PACKAGES_TTL_MS, () => listPackages(deps.db, siteId));
}

/**
 * An amount of money in the visitor's language with its currency sign: `formatMoney(1995, 'EUR', 'nl')`
 * is "€ 19,95", in de "19,95 €", in en "€19.95". `fractionDigits` widens the decimals (price per credit).
 */
export function formatMoney(cents: number, currency: string, lang: string, fractionDigits?: number): string {
  const options: Intl.NumberFormatOptions = { style: 'currency', currency };
  if (fractionDigits !== undefined) {
    options.minimumFractionDigits = fractionDigits;
    options.maximumFractionDigits = fractionDigits;
  }
  return numberFormat(lang, options).format(cents / 100);
}

/**
 * The price of one credit in a package, the same on every page that shows it (/credits, /premium,
 * /pricing): to a tenth of a cent, so packages a fraction of a cent apart do not look alike ("€ 0,199").
 */
export function formatPricePerCredit(centsPerCredit: number, currency: string, lang: string): string {
  return formatMoney(centsPerCredit, currency, lang, 3);
}

/** A plain number in the visitor's language ("1.200" in nl, "1,200" in en). */
export function formatNumber(value: number, lang: string): string {
  return numberFormat(lang).format(value);
}
