/**
 * Member cards for the landing teaser and the members home. The full search with filters (MEM-01)
 * builds on this query.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, regions, users } from '../../db/schema';
import { listedTo } from './visibility';

export interface MemberCard {
  id: number;
  name: string;
  age: number;
  country: string;
  region: string | null;
  city: string | null;
  fictional: boolean;
  thumb: string | null;
  image: string | null;
}

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
export function selectMemberCards(db: Db) {
  return db
    .select({
      id: users.id,
      name: profiles.name,
      birthDate: profiles.birthDate,
      country: profiles.country,
      region: regions.name,
      city: profiles.city,
      fictional: profiles.fictional,
      thumb: photos.thumbFilename,
      image: photos.filename,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, eq(regions.id, profiles.regionId))
    .leftJoin(photos, and(eq(photos.id, profiles.mainPhotoId), eq(photos.status, 'active')))
    .$dynamic();
}

/** A card row with the age on `now`. */
export function toMemberCard<R extends { birthDate: string }>(row: R, now: Date): R & { age: number } {
  return { ...row, age: ageOn(row.birthDate, now) };
}

export async function listMemberCards(
  db: Db,
  options: { siteId: number; now: Date; page?: number; perPage?: number; excludeUserId?: number | null },
): Promise<{ cards: MemberCard[]; total: number }> {
  const perPage = Math.min(Math.max(options.perPage ?? 24, 1), 60);
  const page = Math.max(options.page ?? 1, 1);
  const where = listedTo({ siteId: options.siteId, userId: options.excludeUserId ?? null });
  const [rows, [count]] = await Promise.all([
    selectMemberCards(db)
      .where(where)
      .orderBy(desc(profiles.lastActiveAt), desc(users.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(where),
  ]);
  return {
    total: count?.n ?? 0,
    cards: rows.map((r) => toMemberCard(r, options.now)),
  };
}
