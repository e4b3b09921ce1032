/**
 * Search pages shared between viewers (MEM-01, PERF-01; docs/decisions/049-shared-search-pages.md).
 *
 * Many members run the same search: the first page of their own defaults ('looking for', region, age
 * range) or a filter they share with others. The page query runs once every few seconds per site and
 * filters in force, as a visitor would see it (the site's active, visible members), with a few rows more
 * than a page. A member who goes invisible, deletes the account or is disabled (banned) drops the site's
 * shared pages in every process (`site.content_changed` on the bus), so the rows hold only members listed
 * to a visitor. What is left per viewer: not themselves and no block either way. A page request knows
 * the viewer's blocks from its session lookup (`SearchRequest.blocked`) and needs no query; otherwise
 * the viewer asks in one small query which rows are listed to them (`listedAmong`). Their page is the
 * listed rows in order. The island's HTML is kept too, per language and per set of rows left
 * out (none for most viewers; a member who matches their own search leaves out themselves), and served
 * as it was rendered.
 *
 * A viewer gets a search of their own, and nothing of it is kept, when more rows are left out than the
 * spare ones cover, or when a first page finds so few that similar results come in (they are searched for
 * the viewer).
 *
 * Kept at most `SEARCH_CACHE_TTL_MS` (0: off). Dropped with the site's other shared answers when the bus
 * says the site or its content changed (a photo approved, a member banned), and all of it on a resync.
 * What may be older than the query: the order by last activity and the cards' texts, for seconds at most.
 */
import { and, eq, sql } from 'drizzle-orm';
import { preparedOn } from '../../db/prepared';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import type { TtlCache } from '../cache';
import { fromSearchParams } from '../../shared/search-query';
import {
  decodeCursor,
  pageOf,
  pageSize,
  parseSearchParams,
  resolveNarrowing,
  searchNarrowed,
  searchQuery,
  SearchValidationError,
  SIMILAR_THRESHOLD,
  type SearchResult,
  type SearchRow,
} from './search';
import { maySearch, searchErrorCode, type SearchOutcome, type SearchRequest } from './search-request';
import { listedTo, type Viewer } from './visibility';
import { birthDateRange } from './matches';

/** Rows fetched beyond a page (and its one look-ahead row) for the viewers who may not see some. */
export const SHARED_SPARE_ROWS = 8;
/** Rendered variants kept per shared page (sets of rows left out); more are rendered, not kept. */
const MAX_VARIANTS = 4;

/** One shared search: the page query's rows as a visitor sees them, and the HTML rendered from them. */
interface SharedRows {
  rows: SearchRow[];
  /** Whether the query may have more rows than it fetched. */
  full: boolean;
  /** Island HTML per set of rows left out ('' when none), as UTF-8 bytes. */
  html: Map<string, Uint8Array>;
}

/** What a page renders from a shared search, for the page to serve or keep its HTML. */
export interface SharedSearchPage {
  /**
   * The island's HTML when it was rendered before for this language and these rows; else null. Kept as
   * UTF-8 bytes: the page writes them as they are, where a string would be encoded again on every
   * request (a third of the search page's bytes).
   */
  readonly html: Uint8Array | null;
  /** Keeps the island's HTML rendered for this page. */
  keep(html: string): void;
}

export type SharedSearchOutcome = Exclude<SearchOutcome, { type: 'ok' }> | { type: 'ok'; result: SearchResult; shared: SharedSearchPage | null };

export interface SharedSearchOptions {
  cache: TtlCache;
  ttlMs: number;
  /** What else the rendered page depends on: the page's language. */
  lang: string;
}

/** The `/members` search for this request, from the shared page query when it can be. */
export async function sharedSearch(req: SearchRequest, options: SharedSearchOptions): Promise<SharedSearchOutcome> {
  if (!maySearch(req)) return { type: 'login_required' };
  const viewer: Viewer = { siteId: req.site.id, userId: req.userId };
  try {
    const filters = parseSearchParams(req.params);
    const cursor = filters.cursor === undefined ? undefined : decodeCursor(filters.cursor);
    const search = { filters, now: req.now, minAge: req.site.min_age, viewer };
    const narrowing = await resolveNarrowing(req.db, { ...search, defaults: req.defaults });
    const own = async (): Promise<SharedSearchOutcome> => ({ type: 'ok', result: await searchNarrowed(req.db, { ...search, narrowing }), shared: null });
    // Several pages at once (back to a list that had 'more members' pressed, UX-02): the viewer's own.
    if (options.ttlMs <= 0 || (filters.pages ?? 1) > 1) return own();

    // Everything the rows depend on: site, filters in force, the birth dates they mean today, the cursor.
    const range = birthDateRange(req.now, narrowing.minAge, narrowing.maxAge);
    const key = `search:${req.site.id}:${JSON.stringify([[...narrowing.gender].sort(), narrowing.country ?? null, narrowing.region ?? null, range.from, range.to, filters.cursor ?? null, narrowing.verified === true])}`;
    const perPage = pageSize(undefined);
    const limit = perPage + 1 + SHARED_SPARE_ROWS;
    // An expired page is served while one request searches again (no stampede of waiting requests); the
    // rendered HTML carries over when the search found the same rows.
    const shared = await options.cache.get<SharedRows>(key, options.ttlMs, async (previous) => {
      const rows = await searchQuery(req.db, { siteId: req.site.id, userId: null, everyone: true }, narrowing, req.now, cursor, limit);
      const full = rows.length === limit;
      if (previous && previous.full === full && sameRows(previous.rows, rows)) return { rows: previous.rows, full, html: previous.html };
      return { rows, full, html: new Map() };
    });

    const listed =
      listedToKnownViewer(viewer, req.blocked ?? null, shared.rows) ??
      (await listedAmong(
        req.db,
        viewer,
        shared.rows.map((row) => row.id),
      ));
    const rows = shared.rows.filter((row) => listed.has(row.id));
    // Too many left out to make a whole page and know whether another follows: the viewer's own search.
    if (shared.full && rows.length < perPage + 1) return own();
    // A first page with few results brings similar results, searched for this viewer.
    if (cursor === undefined && Math.min(rows.length, perPage) < SIMILAR_THRESHOLD) return own();
    const result = await pageOf(req.db, { ...search, narrowing }, rows);

    // The island shows the query as the form has it, in the page's language, from these rows.
    const variant = `${options.lang}|${JSON.stringify(fromSearchParams(req.params))}|${shared.rows
      .filter((row) => !listed.has(row.id))
      .map((row) => row.id)
      .join(',')}`;
    return {
      type: 'ok',
      result,
      shared: {
        html: shared.html.get(variant) ?? null,
        keep(html: string) {
          if (shared.html.size < MAX_VARIANTS && selfSufficientIsland(html)) shared.html.set(variant, Buffer.from(html, 'utf8'));
        },
      },
    };
  } catch (err) {
    if (err instanceof SearchValidationError) return { type: 'invalid', code: searchErrorCode(err), field: err.field };
    throw err;
  }
}

/** Whether two reads of a shared search found the same rows, field for field, in the same order. */
export function sameRows(a: readonly SearchRow[], b: readonly SearchRow[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! as Record<string, unknown>;
    const y = b[i]! as Record<string, unknown>;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (!Object.is(x[k], y[k])) return false;
  }
  return true;
}

/**
 * Which of the shared `rows` (listed to a visitor when they were read, and dropped when one of them went
 * invisible, was deleted or disabled) may be listed to `viewer`, without a query: for a member whose
 * blocks (either way) are known, those that are neither the member nor blocked. Null when the member's
 * blocks are not known, and for a visitor, who sees only the members shown in public (HON-02).
 */
export function listedToKnownViewer(viewer: Viewer, blocked: ReadonlySet<number> | null, rows: readonly { id: number }[]): Set<number> | null {
  // A visitor sees only the members shown in public (HON-02): the database says which.
  if (viewer.userId === null) return null;
  if (blocked === null) return null;
  return new Set(rows.filter((row) => row.id !== viewer.userId && !blocked.has(row.id)).map((row) => row.id));
}

/** Which of `ids` may be listed to `viewer` now (one query, built once per database handle). */
export async function listedAmong(db: Db, viewer: Viewer, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const member = viewer.userId !== null;
  const query = preparedOn(db, member ? 'listed_among_member' : 'listed_among_visitor', (d) =>
    d
      .select({ id: users.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(and(sql`${users.id} = any(${sql.placeholder('ids')}::int[])`, listedTo({ siteId: sql.placeholder('siteId'), userId: member ? sql.placeholder('userId') : null })))
      .prepare(member ? 'listed_among_member' : 'listed_among_visitor'),
  );
  // The ids travel as one array literal, so the statement is the same for any number of them.
  const rows = await query.execute({ ids: `{${ids.map((id) => Math.trunc(id)).join(',')}}`, siteId: viewer.siteId, userId: viewer.userId ?? 0 });
  return new Set(rows.map((row) => row.id));
}

/**
 * Whether rendered island HTML may be kept for other requests: it must carry Astro's island runtime
 * itself (it was the page's first island), since a request that serves it renders no island before it.
 */
export function selfSufficientIsland(html: string): boolean {
  return html.includes('customElements.define("astro-island"') && html.includes('<astro-island');
}
