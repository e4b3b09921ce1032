/**
 * Credit packages a site sells (PREM-01, CRD-02) and how their prices are shown. Credits and cents are
 * integers; only the display divides.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditPackages } from '../../db/schema';
import { numberFormat } from '../../shared/intl-formats';
import type { TtlCache } from '../cache';

export interface CreditPackage {
  id: number;
  credits: number;
  priceCents: number;
  currency: string;
  highlighted: boolean;
  /** Price of one credit in cents, unrounded (for display only). */
  centsPerCredit: number;
  /** Percentage saved per credit against the site's dearest package (0 for that one). */
  savingPercent: number;
}

/** The active packages of a site, cheapest first (by sort order, then credits). */
export async function listPackages(db: Db, siteId: number): Promise<CreditPackage[]> {
  const rows = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
    .orderBy(asc(creditPackages.sortOrder), asc(creditPackages.credits), asc(creditPackages.id));
  const perCredit = rows.map((row) => row.priceCents / row.credits);
  const dearest = Math.max(0, ...perCredit);
  return rows.map((row, i) => ({
    id: row.id,
    credits: row.credits,
    priceCents: row.priceCents,
    currency: row.currency,
    highlighted: row.highlighted,
    centsPerCredit: perCredit[i]!,
    savingPercent: dearest > 0 ? Math.floor((1 - perCredit[i]! / dearest) * 100) : 0,
  }));
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
