/** A profile's details for display (MEM-06). */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, regions } from '../../db/schema';
import { ageOn } from './listing';

export async function loadProfileDetails(db: Db, userId: number, now: Date) {
  const [row] = await db
    .select({ profile: profiles, region: regions.name })
    .from(profiles)
    .leftJoin(regions, eq(regions.id, profiles.regionId))
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row ? toProfileDetails(row, now) : null;
}

/** The details of a profile row read with its region's name. */
export function toProfileDetails(row: { profile: typeof profiles.$inferSelect; region: string | null }, now: Date) {
  return { ...row.profile, region: row.region, age: ageOn(row.profile.birthDate, now) };
}
