/**
 * What the landers show (LND-01, LND-03, LND-05): a site's active members with a public photo who chose
 * to be shown on the public pages, and fictional profiles (HON-02: of a real member only first name, age,
 * place and the approved main photo; never their about-me, interests or other photos), its
 * regions with member counts for the map, how many members share each interest, and one member for the
 * member landings. Only active, visible members of the site itself and only public photos (active,
 * not premium) ever reach a lander, so nothing here can leak a locked image (MEM-04).
 */
import { and, asc, desc, eq, inArray, lte, not, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, regions, users } from '../../db/schema';
import type { TtlCache } from '../cache';
import type { Clock } from '../clock';
import type { Niche } from '../../shared/settings';
import { ageOn } from '../members/listing';
import { bornBy, NICHE_FOCUS, type NicheFocus } from './niche';
import { shownInPublic } from '../members/visibility';

export interface LanderPhoto {
  /** File names in the photo store, served at `/photos/<name>`. */
  main: string;
  thumb: string;
  width: number;
  height: number;
}

export interface LanderMember {
  id: number;
  name: string;
  age: number;
  gender: string;
  /** City, else region, else country code: what a card shows as the place. */
  place: string;
  country: string;
  about: string;
  interests: string[];
  fictional: boolean;
  lastActiveAt: Date;
  photo: LanderPhoto | null;
}

export interface RegionDot {
  code: string;
  name: string;
  /** Degrees (the table keeps them × 10 000). */
  lat: number;
  lon: number;
  members: number;
}

/** What one site's landers share, loaded once a minute per site (see `landerContent`). */
export interface LanderContent {
  members: LanderMember[];
  /** Active members in total. */
  total: number;
  /** Members per interest key, over every active member of the site. */
  interests: Record<string, number>;
}

const memberColumns = {
  id: users.id,
  name: profiles.name,
  birthDate: profiles.birthDate,
  gender: profiles.gender,
  country: profiles.country,
  city: profiles.city,
  region: regions.name,
  about: profiles.about,
  interests: profiles.interests,
  fictional: profiles.fictional,
  lastActiveAt: profiles.lastActiveAt,
  main: photos.filename,
  thumb: photos.thumbFilename,
  width: photos.width,
  height: photos.height,
};

type MemberRow = {
  id: number;
  name: string;
  birthDate: string;
  gender: string;
  country: string;
  city: string | null;
  region: string | null;
  about: string;
  interests: string[];
  fictional: boolean;
  lastActiveAt: Date;
  main: string | null;
  thumb: string | null;
  width: number | null;
  height: number | null;
};

function toMember(row: MemberRow, now: Date): LanderMember {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate, now),
    gender: row.gender,
    place: row.city ?? row.region ?? row.country,
    country: row.country,
    // HON-02: a real member's own words and interests stay inside the members area; a fictional profile's
    // (marketing, always labelled) may fill a lander.
    about: row.fictional ? row.about : '',
    interests: row.fictional ? row.interests : [],
    fictional: row.fictional,
    lastActiveAt: row.lastActiveAt,
    photo: row.main && row.thumb ? { main: row.main, thumb: row.thumb, width: row.width ?? 480, height: row.height ?? 600 } : null,
  };
}

/** A public photo: shown to visitors, never premium, never under inspection. */
const publicPhoto = and(eq(photos.status, 'active'), eq(photos.premium, false));

function visibleMemberOf(siteId: number) {
  return and(eq(profiles.siteId, siteId), eq(profiles.status, 'active'), eq(users.status, 'active'), eq(users.invisible, false));
}

/** A member a public page may show by name (HON-02): visible, and shown in public by their own choice or fictional. */
function publicMemberOf(siteId: number) {
  return and(visibleMemberOf(siteId), shownInPublic);
}

/** The most recently active members of a site that have a public main photo. */
export async function listLanderMembers(db: Db, options: { siteId: number; now: Date; limit?: number; niche?: number }): Promise<LanderMember[]> {
  const limit = Math.min(Math.max(options.limit ?? 24, 1), 60);
  const select = (where: SQL | undefined) =>
    db
      .select(memberColumns)
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .innerJoin(photos, and(eq(photos.id, profiles.mainPhotoId), publicPhoto))
      .leftJoin(regions, eq(regions.id, profiles.regionId))
      .where(and(publicMemberOf(options.siteId), where))
      .orderBy(desc(profiles.lastActiveAt), desc(users.id))
      .limit(limit);
  // The niche's own members first (SITE-03), then, if they are too few, everyone else.
  const focus = focusOf(options.niche, options.now);
  const featured = await select(focus);
  const rows = focus === undefined || featured.length >= limit ? featured : [...featured, ...(await select(not(focus)))].slice(0, limit);
  return rows.map((row) => toMember(row, options.now));
}

/** SQL: the profile is in the niche's focus (niche.ts), or undefined when the niche has none. */
function focusOf(niche: number | undefined, now: Date): SQL | undefined {
  const focus: NicheFocus = (niche === undefined ? undefined : NICHE_FOCUS[niche as Niche]) ?? {};
  const conditions: SQL[] = [];
  if (focus.genders) conditions.push(inArray(profiles.gender, [...focus.genders]));
  if (focus.minAge !== undefined) conditions.push(lte(profiles.birthDate, bornBy(now, focus.minAge)));
  if (focus.bodyTypes) conditions.push(inArray(profiles.bodyType, [...focus.bodyTypes]));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** How many members of a site share each interest. */
export async function countInterests(db: Db, siteId: number): Promise<Record<string, number>> {
  const each = db
    .select({ interest: sql<string>`jsonb_array_elements_text(${profiles.interests})`.as('interest') })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(visibleMemberOf(siteId))
    .as('each_interest');
  const rows = await db
    .select({ interest: each.interest, n: sql<number>`count(*)::int` })
    .from(each)
    .groupBy(each.interest);
  return Object.fromEntries(rows.map((r) => [r.interest, r.n]));
}

/** Active members of a site. */
export async function countMembers(db: Db, siteId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(visibleMemberOf(siteId));
  return row?.total ?? 0;
}

/** The regions of `country` with how many of the site's active members live there (the map lander). */
export async function listRegionDots(db: Db, options: { siteId: number; country: string }): Promise<RegionDot[]> {
  const rows = await db
    .select({
      code: regions.code,
      name: regions.name,
      lat: regions.lat,
      lon: regions.lon,
      members: sql<number>`count(${users.id})::int`,
    })
    .from(regions)
    .leftJoin(profiles, and(eq(profiles.regionId, regions.id), eq(profiles.siteId, options.siteId), eq(profiles.status, 'active')))
    .leftJoin(users, and(eq(users.id, profiles.userId), eq(users.status, 'active'), eq(users.invisible, false)))
    .where(eq(regions.country, options.country))
    .groupBy(regions.id)
    .orderBy(asc(regions.name));
  return rows.map((r) => ({ code: r.code, name: r.name, lat: r.lat / 10_000, lon: r.lon / 10_000, members: r.members }));
}

/** One member of the site for a member landing (LND-03), with their public photos; null when not shown. */
export async function loadLanderMember(db: Db, options: { siteId: number; memberId: number; now: Date }): Promise<(LanderMember & { photos: LanderPhoto[] }) | null> {
  const [row] = await db
    .select(memberColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(photos, and(eq(photos.id, profiles.mainPhotoId), publicPhoto))
    .leftJoin(regions, eq(regions.id, profiles.regionId))
    .where(and(eq(users.id, options.memberId), publicMemberOf(options.siteId)))
    .limit(1);
  if (!row) return null;
  const member = toMember(row, options.now);
  // HON-02: of a real member the public pages show the approved main photo only.
  if (!row.fictional) return { ...member, photos: member.photo ? [member.photo] : [] };
  const gallery = await db
    .select({ main: photos.filename, thumb: photos.thumbFilename, width: photos.width, height: photos.height })
    .from(photos)
    .where(and(eq(photos.userId, options.memberId), publicPhoto))
    .orderBy(asc(photos.id))
    .limit(6);
  // The main photo first, then the others in upload order.
  const others = gallery.filter((p) => p.main !== member.photo?.main);
  return { ...member, photos: member.photo ? [member.photo, ...others] : others };
}

const CONTENT_TTL_MS = 60_000;

/**
 * A site's lander content, shared by every visitor of that site for a minute: the landers are the
 * most visited pages, and their members, counts and interests change slowly.
 */
export function landerContent(deps: { db: Db; cache: TtlCache; clock: Clock }, site: { id: number; niche: number }): Promise<LanderContent> {
  const siteId = site.id;
  return deps.cache.get(`landers:${siteId}`, CONTENT_TTL_MS, async () => {
    const now = deps.clock.now();
    const [members, total, interests] = await Promise.all([listLanderMembers(deps.db, { siteId, now, limit: 24, niche: site.niche }), countMembers(deps.db, siteId), countInterests(deps.db, siteId)]);
    return { members, total, interests };
  });
}

/** Regions with member counts for the map lander, cached like `landerContent`. */
export function landerRegions(deps: { db: Db; cache: TtlCache }, siteId: number, country: string): Promise<RegionDot[]> {
  return deps.cache.get(`landers:${siteId}:regions:${country}`, CONTENT_TTL_MS, () => listRegionDots(deps.db, { siteId, country }));
}
