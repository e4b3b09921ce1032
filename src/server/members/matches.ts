/**
 * Signup matches (GAME-03): right after completing the signup, the members of the site that fit what the
 * new member is looking for — the gender(s) their sexuality points to, an age within ten years of their
 * own, active and visible profiles — with their own country first and members with a photo before those
 * without.
 */
import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users } from '../../db/schema';
import { listedTo } from './visibility';
import { ageOn, selectMemberCards, toMemberCard, type MemberCard } from './listing';

/** Ages within this many years of the member's own. */
export const MATCH_AGE_SPAN = 10;
export const MATCH_LIMIT = 24;

/** The gender(s) a member with this gender and sexuality is looking for. */
export function wantedGenders(gender: string, sexuality: string): string[] {
  const other = gender === 'male' ? 'female' : 'male';
  switch (sexuality) {
    case 'gay':
    case 'lesbian':
      return [gender];
    case 'bi':
      return ['male', 'female'];
    default:
      return [other];
  }
}

/** yyyy-mm-dd of the date `years` years before `now` (UTC), for birth-date bounds. */
function yearsBefore(now: Date, years: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/**
 * Birth-date range of people aged `minAge`..`maxAge` (whole years) on `now`: born on or before the day
 * `minAge` years ago and after the day `maxAge + 1` years ago.
 */
export function birthDateRange(now: Date, minAge: number, maxAge: number): { from: string; to: string } {
  const after = new Date(`${yearsBefore(now, maxAge + 1)}T00:00:00Z`);
  after.setUTCDate(after.getUTCDate() + 1);
  return { from: after.toISOString().slice(0, 10), to: yearsBefore(now, minAge) };
}

export interface SignupMatchesOptions {
  siteId: number;
  userId: number;
  now: Date;
  /** The site's minimum age: nobody younger is shown, whatever the member's age. */
  minAge?: number;
  limit?: number;
}

/** Member cards that fit the member's search; empty when the member has no profile on this site. */
export async function findSignupMatches(db: Db, options: SignupMatchesOptions): Promise<MemberCard[]> {
  const [me] = await db
    .select({ gender: profiles.gender, sexuality: profiles.sexuality, birthDate: profiles.birthDate, country: profiles.country })
    .from(profiles)
    .where(and(eq(profiles.userId, options.userId), eq(profiles.siteId, options.siteId)))
    .limit(1);
  if (!me) return [];
  const age = ageOn(me.birthDate, options.now);
  const range = birthDateRange(options.now, Math.max(age - MATCH_AGE_SPAN, options.minAge ?? 18), age + MATCH_AGE_SPAN);
  const limit = Math.min(Math.max(options.limit ?? MATCH_LIMIT, 1), 60);
  const rows = await selectMemberCards(db)
    .where(
      and(
        listedTo({ siteId: options.siteId, userId: options.userId }),
        inArray(profiles.gender, wantedGenders(me.gender, me.sexuality)),
        gte(profiles.birthDate, range.from),
        lte(profiles.birthDate, range.to),
      ),
    )
    .orderBy(sql`case when ${profiles.country} = ${me.country} then 0 else 1 end`, sql`case when ${photos.id} is null then 1 else 0 end`, desc(profiles.lastActiveAt), desc(users.id))
    .limit(limit);
  return rows.map((r) => toMemberCard(r, options.now));
}
