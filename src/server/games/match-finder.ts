/**
 * The match finder (GAME-01): a short questionnaire (who: men or women, an age range, a region of the
 * member's country, up to three interests) and a ranked list drawn from a bounded candidate set of the
 * members listed to the member (visibility.ts) of that gender and age, most recently active first:
 * shared interests first, then the chosen region, then the member's country, then recent activity.
 */
import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { likes, profiles, users } from '../../db/schema';
import { INTERESTS } from '../../shared/interests';
import type { Member } from '../members/likes';
import { selectMemberCards, toMemberCard, type MemberCard } from '../members/listing';
import { birthDateRange } from '../members/matches';
import { SEARCH_MAX_AGE, SEARCH_MIN_AGE } from '../members/search';
import { listedTo } from '../members/visibility';
import { parseId } from '../../shared/ids';

/** Members considered at most (the most recently active that fit who and age), and shown at most. */
export const MATCH_FINDER_CANDIDATES = 200;
export const MATCH_FINDER_RESULTS = 24;
export const MATCH_FINDER_MAX_INTERESTS = 3;

export interface MatchQuestions {
  gender: 'male' | 'female';
  minAge: number;
  maxAge: number;
  /** A region of the member's country, or null for anywhere in it. */
  region: number | null;
  interests: string[];
}

export type QuestionsError = 'gender' | 'age' | 'region' | 'interests';

const age = z.coerce.number().int().min(SEARCH_MIN_AGE).max(SEARCH_MAX_AGE);

/**
 * The answers from the query string, or which question is wrong. `interests` may repeat; unknown
 * interest keys, more than three, a region outside `regionIds`, or a bad age range are refused.
 */
export function parseQuestions(params: URLSearchParams, regionIds: ReadonlySet<number>, siteMinAge: number): { ok: true; questions: MatchQuestions } | { ok: false; error: QuestionsError } {
  const gender = params.get('gender');
  if (gender !== 'male' && gender !== 'female') return { ok: false, error: 'gender' };
  const min = age.safeParse(params.get('minAge') || siteMinAge);
  const max = age.safeParse(params.get('maxAge') || SEARCH_MAX_AGE);
  if (!min.success || !max.success || min.data > max.data || min.data < siteMinAge) return { ok: false, error: 'age' };
  const rawRegion = params.get('region') ?? '';
  let region: number | null = null;
  if (rawRegion !== '') {
    region = parseId(rawRegion);
    if (region === null || !regionIds.has(region)) return { ok: false, error: 'region' };
  }
  const interests = [...new Set(params.getAll('interest'))];
  if (interests.length > MATCH_FINDER_MAX_INTERESTS || interests.some((i) => !(INTERESTS as readonly string[]).includes(i))) return { ok: false, error: 'interests' };
  return { ok: true, questions: { gender, minAge: min.data, maxAge: max.data, region, interests } };
}

export interface RankedMatch extends MemberCard {
  sharedInterests: number;
  sameRegion: boolean;
  liked: boolean;
}

/** The member's own country and region (the questionnaire's regions come from that country). */
export async function memberPlace(db: Db, member: Member): Promise<{ country: string; regionId: number | null } | null> {
  const [me] = await db
    .select({ country: profiles.country, regionId: profiles.regionId })
    .from(profiles)
    .where(and(eq(profiles.userId, member.userId), eq(profiles.siteId, member.siteId)))
    .limit(1);
  return me ?? null;
}

/** The ranked matches for the answers (at most {@link MATCH_FINDER_RESULTS}), each with whether the member already likes them. */
export async function findMatches(db: Db, member: Member, questions: MatchQuestions, now: Date): Promise<RankedMatch[]> {
  const me = await memberPlace(db, member);
  const range = birthDateRange(now, questions.minAge, questions.maxAge);
  const rows = await selectMemberCards(db)
    .where(and(listedTo({ siteId: member.siteId, userId: member.userId }), eq(profiles.gender, questions.gender), gte(profiles.birthDate, range.from), lte(profiles.birthDate, range.to)))
    .orderBy(desc(profiles.lastActiveAt), desc(users.id))
    .limit(MATCH_FINDER_CANDIDATES);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [extra, liked] = await Promise.all([
    db.select({ id: profiles.userId, interests: profiles.interests, regionId: profiles.regionId, country: profiles.country }).from(profiles).where(inArray(profiles.userId, ids)),
    db
      .select({ id: likes.likedId })
      .from(likes)
      .where(and(eq(likes.likerId, member.userId), inArray(likes.likedId, ids))),
  ]);
  const byId = new Map(extra.map((e) => [e.id, e]));
  const likedIds = new Set(liked.map((l) => l.id));
  const wanted = new Set(questions.interests);
  const region = questions.region ?? me?.regionId ?? null;
  const ranked = rows.map((row, activity) => {
    const e = byId.get(row.id);
    return {
      card: {
        ...toMemberCard(row, now),
        sharedInterests: (e?.interests ?? []).filter((i) => wanted.has(i)).length,
        sameRegion: region !== null && e?.regionId === region,
        liked: likedIds.has(row.id),
      },
      sameCountry: me !== null && e?.country === me.country,
      // Rows come most recently active first: their position is the activity order.
      activity,
    };
  });
  ranked.sort(
    (a, b) => b.card.sharedInterests - a.card.sharedInterests || Number(b.card.sameRegion) - Number(a.card.sameRegion) || Number(b.sameCountry) - Number(a.sameCountry) || a.activity - b.activity,
  );
  return ranked.slice(0, MATCH_FINDER_RESULTS).map((r) => {
    const { birthDate: _b, ...card } = r.card;
    return card;
  });
}
