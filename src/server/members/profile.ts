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
  if (!row) return null;
  return { ...row.profile, region: row.region, age: ageOn(row.profile.birthDate, now) };
}
