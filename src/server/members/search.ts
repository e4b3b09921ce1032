/**
 * Member search (MEM-01): filters on gender(s), country, region and an age range, defaults from the
 * member's own 'looking for' and region, keyset paging on (last_active_at desc, user id desc) with an
 * opaque cursor, and similar results when the filters find few (MEM-07). Who may be listed at all is
 * {@link listedTo}; this module only narrows it.
 *
 * Visitors (MEM-02): {@link visitorMaySearch} is the one rule the page asks.
 */
import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import { listedTo, type Viewer } from './visibility';
import { allRegions, findRegion } from './places';
import { selectMemberCards, toMemberCard, type MemberCard } from './listing';
import { birthDateRange, wantedGenders } from './matches';

export const SEARCH_GENDERS = ['male', 'female'] as const;
export const SEARCH_MIN_AGE = 18;
export const SEARCH_MAX_AGE = 99;
export const SEARCH_PER_PAGE = 24;
/**
 * UX-02: at most this many pages in one answer. `pages=N` in the URL is how many pages the list showed
 * ('more members' pressed N−1 times), so opening a profile and going back renders them all again.
 */
export const MAX_SHOWN_PAGES = 10;
/** Fewer results than this on the first page bring similar results (MEM-07). */
export const SIMILAR_THRESHOLD = 6;
/** Years added on each side when the age range is widened. */
export const AGE_WIDENING = 10;

/** One query value: a string or repeated strings (URLSearchParams.getAll), length-bounded. */
const shortText = z.string().trim().max(64);

/** The filters as they arrive from a query string; every field optional. Errors are 400, never 500. */
export const searchFiltersSchema = z
  .object({
    gender: z.array(z.enum(SEARCH_GENDERS)).max(SEARCH_GENDERS.length).optional(),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter code')
      .transform((c) => c.toUpperCase())
      .optional(),
    region: z.coerce.number().int().positive().optional(),
    minAge: z.coerce.number().int().min(SEARCH_MIN_AGE).max(SEARCH_MAX_AGE).optional(),
    maxAge: z.coerce.number().int().min(SEARCH_MIN_AGE).max(SEARCH_MAX_AGE).optional(),
    cursor: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9_-]+$/, 'bad cursor')
      .optional(),
    pages: z.coerce.number().int().min(1).max(MAX_SHOWN_PAGES).optional(),
    /** VER-01: verified members only ('1'). */
    verified: z
      .enum(['1', 'true'])
      .transform(() => true)
      .optional(),
  })
  .refine((f) => f.minAge === undefined || f.maxAge === undefined || f.minAge <= f.maxAge, {
    message: 'minAge must not be above maxAge',
    path: ['minAge'],
  });

export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export class SearchValidationError extends Error {
  readonly status = 400;
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SearchValidationError';
  }
}

/**
 * Filters from a query string: `gender` may repeat; empty values count as absent. Throws
 * {@link SearchValidationError} for anything out of range or malformed.
 */
export function parseSearchParams(params: URLSearchParams): SearchFilters {
  const one = (name: string): string | undefined => {
    const v = params.get(name);
    return v === null || v.trim() === '' ? undefined : v;
  };
  const genders = params.getAll('gender').filter((g) => g.trim() !== '');
  for (const g of genders) if (!shortText.safeParse(g).success) throw new SearchValidationError('gender is too long', 'gender');
  const raw = {
    gender: genders.length > 0 ? [...new Set(genders)] : undefined,
    country: one('country'),
    region: one('region'),
    minAge: one('minAge'),
    maxAge: one('maxAge'),
    cursor: one('cursor'),
    pages: one('pages'),
    verified: one('verified'),
  };
  const result = searchFiltersSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new SearchValidationError(issue.message, String(issue.path[0] ?? 'query'));
  }
  return result.data;
}

/** Where a page ended: the last card's last_active_at (microseconds since the epoch, exact) and id. */
export interface Cursor {
  us: string;
  id: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.us}.${c.id}`).toString('base64url');
}

export function decodeCursor(s: string): Cursor {
  const m = /^(-?\d{1,17})\.(\d{1,9})$/.exec(Buffer.from(s, 'base64url').toString('utf8'));
  if (!m) throw new SearchValidationError('bad cursor', 'cursor');
  return { us: m[1]!, id: Number(m[2]) };
}

export type Widening = 'age' | 'region' | 'country';

export interface SearchResult {
  /** The filters in force after defaults (for the form). */
  filters: Narrowing;
  cards: MemberCard[];
  /** Cursor of the next page, or null on the last page. */
  next: string | null;
  /** Similar results (MEM-07): shown after `cards` when the filters find few, and how they were widened. */
  similar: { widened: Widening[]; cards: MemberCard[] } | null;
}

export interface SearchOptions {
  viewer: Viewer;
  filters: SearchFilters;
  now: Date;
  /** The site's minimum age. */
  minAge?: number;
  perPage?: number;
}

/** A member's own search: 'looking for' genders, region (with its country) and the age range set on /profile. */
export interface SearchDefaults {
  gender?: string[];
  country?: string;
  region?: number;
  minAge?: number;
  maxAge?: number;
}

/** The profile columns a member's {@link SearchDefaults} come from (a page's session lookup reads them too). */
export const searchDefaultColumns = {
  searchGender: profiles.gender,
  searchSexuality: profiles.sexuality,
  searchCountry: profiles.country,
  searchRegionId: profiles.regionId,
  searchMinAge: profiles.searchMinAge,
  searchMaxAge: profiles.searchMaxAge,
};

/** The search defaults of a profile, from its {@link searchDefaultColumns}. */
export function searchDefaultsOf(me: {
  searchGender: string;
  searchSexuality: string;
  searchCountry: string;
  searchRegionId: number | null;
  searchMinAge: number | null;
  searchMaxAge: number | null;
}): SearchDefaults {
  return {
    gender: wantedGenders(me.searchGender, me.searchSexuality),
    country: me.searchCountry,
    region: me.searchRegionId ?? undefined,
    minAge: me.searchMinAge ?? undefined,
    maxAge: me.searchMaxAge ?? undefined,
  };
}

/** The member's defaults, read from their profile (a request that read them with its session passes them instead). */
async function memberDefaults(db: Db, viewer: Viewer): Promise<SearchDefaults> {
  if (viewer.userId === null) return {};
  const [me] = await db
    .select(searchDefaultColumns)
    .from(profiles)
    .where(and(eq(profiles.userId, viewer.userId), eq(profiles.siteId, viewer.siteId)))
    .limit(1);
  return me ? searchDefaultsOf(me) : {};
}

export interface Narrowing {
  gender: string[];
  /** VER-01: verified members only; never widened for similar results. */
  verified?: boolean;
  country?: string;
  region?: number;
  minAge: number;
  maxAge: number;
}

/** The page query: filters, keyset condition after `cursor`, the sort. Exported for the EXPLAIN test. */
export function searchQuery(db: Db, viewer: Viewer, n: Narrowing, now: Date, cursor: Cursor | undefined, limit: number) {
  const where = conditions(viewer, n, now);
  if (cursor !== undefined) {
    const at = sql`(timestamptz 'epoch' + ${cursor.us}::bigint * interval '1 microsecond')`;
    where.push(or(lt(profiles.lastActiveAt, at), and(eq(profiles.lastActiveAt, at), lt(users.id, cursor.id)))!);
  }
  // last_active_at exactly (microseconds since the epoch, as text) for the cursor of the next page.
  return selectMemberCards(db, { activeUs: sql<string>`(extract(epoch from ${profiles.lastActiveAt}) * 1000000)::bigint::text` })
    .where(and(...where))
    .orderBy(desc(profiles.lastActiveAt), desc(users.id))
    .limit(limit);
}

function conditions(viewer: Viewer, n: Narrowing, now: Date): SQL[] {
  const range = birthDateRange(now, n.minAge, n.maxAge);
  const c: SQL[] = [listedTo(viewer), inArray(profiles.gender, n.gender), gte(profiles.birthDate, range.from), lte(profiles.birthDate, range.to)];
  if (n.country !== undefined) c.push(eq(profiles.country, n.country));
  if (n.region !== undefined) c.push(eq(profiles.regionId, n.region));
  // Exactly the partial index's predicate (profiles_search_verified), so the planner can use it.
  if (n.verified) c.push(sql`${profiles.verifiedPhotoId} = ${profiles.mainPhotoId}`, eq(profiles.fictional, false));
  return c;
}

/**
 * The filters in force for this viewer: the query's, else the member's own defaults, within the site's
 * ages. `defaults`: the viewer's, when the request read them already (a page's session lookup); else
 * they are read here when needed. Throws {@link SearchValidationError} for an unknown region or one
 * outside the country.
 */
export async function resolveNarrowing(db: Db, options: Pick<SearchOptions, 'viewer' | 'filters' | 'minAge'> & { defaults?: SearchDefaults | null }): Promise<Narrowing> {
  const { viewer, filters } = options;
  const siteMin = Math.max(options.minAge ?? SEARCH_MIN_AGE, SEARCH_MIN_AGE);
  const ownSearch = !(filters.gender || filters.country || filters.region) && viewer.userId !== null;
  const defaults = ownSearch ? (options.defaults ?? (await memberDefaults(db, viewer))) : {};
  const n: Narrowing = {
    gender: filters.gender ?? defaults.gender ?? [...SEARCH_GENDERS],
    country: filters.country ?? defaults.country,
    region: filters.region ?? defaults.region,
    // The saved age range applies as a whole, only when the query names no age.
    minAge: Math.max(filters.minAge ?? (filters.maxAge === undefined ? defaults.minAge : undefined) ?? siteMin, siteMin),
    maxAge: filters.maxAge ?? (filters.minAge === undefined ? defaults.maxAge : undefined) ?? SEARCH_MAX_AGE,
    ...(filters.verified ? { verified: true } : {}),
  };
  if (n.minAge > n.maxAge) throw new SearchValidationError('minAge must not be above maxAge', 'minAge');
  if (n.region !== undefined) {
    const region = await findRegion(db, n.region);
    if (!region) throw new SearchValidationError('unknown region', 'region');
    if (n.country === undefined) n.country = region.country;
    else if (region.country !== n.country) throw new SearchValidationError('region is not in that country', 'region');
  }
  if (n.country !== undefined && filters.country !== undefined) {
    const country = n.country;
    if (!(await allRegions(db)).some((region) => region.country === country)) throw new SearchValidationError('unknown country', 'country');
  }
  return n;
}

/** Runs a search. Throws {@link SearchValidationError} for an unknown region or one outside the country. */
export async function searchMembers(db: Db, options: SearchOptions): Promise<SearchResult> {
  return searchNarrowed(db, { ...options, narrowing: await resolveNarrowing(db, options) });
}

/** A search whose filters are already resolved ({@link resolveNarrowing}); the cursor comes from `filters`. */
export async function searchNarrowed(db: Db, options: SearchOptions & { narrowing: Narrowing }): Promise<SearchResult> {
  const perPage = answerSize(options);
  const cursor = options.filters.cursor === undefined ? undefined : decodeCursor(options.filters.cursor);
  const rows = await searchQuery(db, options.viewer, options.narrowing, options.now, cursor, perPage + 1);
  return pageOf(db, options, rows);
}

/** A page's rows as the search query returns them (with the cursor value). */
export type SearchRow = Awaited<ReturnType<typeof searchQuery>>[number];

export function pageSize(perPage: number | undefined): number {
  return Math.min(Math.max(perPage ?? SEARCH_PER_PAGE, 1), 60);
}

/** How many cards one answer holds: a page, times the pages the list showed (UX-02). */
function answerSize(options: Pick<SearchOptions, 'perPage' | 'filters'>): number {
  return pageSize(options.perPage) * (options.filters.pages ?? 1);
}

/**
 * The result from the rows of the page query in order, at least one more than a page when there is a
 * next page; similar results (for the viewer) when a first page finds few.
 */
export async function pageOf(db: Db, options: SearchOptions & { narrowing: Narrowing }, rows: readonly SearchRow[]): Promise<SearchResult> {
  const { viewer, filters, now, narrowing: n } = options;
  const perPage = answerSize(options);
  const siteMin = Math.max(options.minAge ?? SEARCH_MIN_AGE, SEARCH_MIN_AGE);
  const page = rows.slice(0, perPage);
  const last = page[page.length - 1];
  const next = rows.length > perPage && last ? encodeCursor({ us: String(last.activeUs), id: last.id }) : null;

  let similar: SearchResult['similar'] = null;
  if (filters.cursor === undefined && page.length < SIMILAR_THRESHOLD) similar = await findSimilar(db, viewer, n, now, page, pageSize(options.perPage), siteMin);

  return {
    filters: { gender: n.gender, country: n.country, region: n.region, minAge: n.minAge, maxAge: n.maxAge, ...(n.verified ? { verified: true } : {}) },
    cards: page.map(({ activeUs: _cursor, ...card }) => toMemberCard(card, now)),
    next,
    similar,
  };
}

/** Widens step by step (age, then region, then country) until enough members turn up. */
async function findSimilar(db: Db, viewer: Viewer, n: Narrowing, now: Date, found: Array<{ id: number }>, perPage: number, siteMin: number): Promise<SearchResult['similar']> {
  const widened: Widening[] = [];
  const w: Narrowing = { ...n };
  const seen = new Set(found.map((r) => r.id));
  const steps: Array<[Widening, () => boolean]> = [
    [
      'age',
      () => {
        const min = Math.max(w.minAge - AGE_WIDENING, siteMin);
        const max = Math.min(w.maxAge + AGE_WIDENING, SEARCH_MAX_AGE);
        if (min === w.minAge && max === w.maxAge) return false;
        w.minAge = min;
        w.maxAge = max;
        return true;
      },
    ],
    ['region', () => (w.region === undefined ? false : ((w.region = undefined), true))],
    ['country', () => (w.country === undefined ? false : ((w.country = undefined), true))],
  ];
  let cards: MemberCard[] = [];
  for (const [name, widen] of steps) {
    if (!widen()) continue;
    widened.push(name);
    const rows = await selectMemberCards(db)
      .where(and(...conditions(viewer, w, now)))
      .orderBy(desc(profiles.lastActiveAt), desc(users.id))
      .limit(perPage + seen.size);
    cards = rows
      .filter((r) => !seen.has(r.id))
      .slice(0, perPage)
      .map((r) => toMemberCard(r, now));
    if (cards.length + found.length >= SIMILAR_THRESHOLD) break;
  }
  return widened.length === 0 ? null : { widened, cards };
}

/**
 * MEM-02: whether a visitor (not logged in) may search. `logged_out_search` allows it; otherwise
 * `logged_out_search_trafficsource` allows it only to visitors who arrived with a tracking record.
 */
export function visitorMaySearch(settings: { logged_out_search: boolean; logged_out_search_trafficsource: boolean }, tracking: unknown): boolean {
  if (settings.logged_out_search) return true;
  return settings.logged_out_search_trafficsource && tracking !== null && tracking !== undefined;
}
