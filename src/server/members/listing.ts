/**
 * Member cards: their columns and joins, shared by the search (search.ts), the likes (likes.ts) and the
 * signup matches (matches.ts); each adds its own conditions, order and keyset.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, regions, users } from '../../db/schema';
import type { Schema } from '../../shared/api/contract';
import { listedTo } from './visibility';

/** A member card as the search API sends it (`MemberCard` of openapi/openapi.yaml). */
export type MemberCard = Schema<'MemberCard'>;

/** Whole years between a yyyy-mm-dd birth date and `now`. */
export function ageOn(birthDate: string, now: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

/**
 * The columns of a member card with their joins (region name, active main photo); callers add their
 * conditions and order. Rows still carry `birthDate`; {@link toMemberCard} turns it into an age.
 */
export const memberCardColumns = {
  id: users.id,
  name: profiles.name,
  birthDate: profiles.birthDate,
  country: profiles.country,
  region: regions.name,
  city: profiles.city,
  fictional: profiles.fictional,
  /** VER-01: the main photo is the one a moderator checked against the member's selfie (never for fictional profiles). */
  verified: sql<boolean>`coalesce(${profiles.verifiedPhotoId} = ${profiles.mainPhotoId} and not ${profiles.fictional}, false)`,
  thumb: photos.thumbFilename,
  image: photos.filename,
};

/** The card's own joins from `profiles`: region name and the active main photo. */
export const regionOfProfile = eq(regions.id, profiles.regionId);
export const activeMainPhoto = and(eq(photos.id, profiles.mainPhotoId), eq(photos.status, 'active'));

export function selectMemberCards<E extends Record<string, SQL>>(db: Db, extra?: E) {
  return db
    .select({ ...memberCardColumns, ...extra } as typeof memberCardColumns & E)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionOfProfile)
    .leftJoin(photos, activeMainPhoto)
    .$dynamic();
}

/** A card row with the age on `now`. */
export function toMemberCard<R extends { birthDate: string }>(row: R, now: Date): R & { age: number } {
  return { ...row, age: ageOn(row.birthDate, now) };
}

/** The most recently active members a visitor of the site may see (the landing page's teaser). */
export async function newestMemberCards(db: Db, options: { siteId: number; now: Date; limit: number }): Promise<MemberCard[]> {
  const rows = await selectMemberCards(db)
    .where(listedTo({ siteId: options.siteId, userId: null }))
    .orderBy(desc(profiles.lastActiveAt), desc(users.id))
    .limit(options.limit);
  return rows.map((r) => toMemberCard(r, options.now));
}
