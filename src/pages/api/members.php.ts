/**
 * GET /api/members.php (MEM-01, MEM-02): one page of the member search for the search island. Query as
 * the `/members` page: gender (repeatable), country, region, minAge, maxAge, cursor. Bad filters are 400
 * with a stable code (invalid_gender, invalid_age_range, unknown_country, unknown_region,
 * invalid_cursor); a visitor the site does not let search gets authentication_required.
 */
import { ApiError, endpoint, json, methodNotAllowed } from '../../server/web/api';
import { sharedSearch } from '../../server/members/search-pages';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(async ({ locals, url }) => {
  // The page query is shared with the /members page and other viewers for a few seconds (decision 049).
  const outcome = await sharedSearch(
    { db: locals.app.db, now: locals.app.clock.now(), site: locals.site.settings, userId: locals.user?.id ?? null, tracking: locals.tracking, params: url.searchParams },
    { cache: locals.app.searchPages, ttlMs: locals.app.config.SEARCH_CACHE_TTL_MS, lang: locals.lang },
  );
  if (outcome.type === 'login_required') throw new ApiError('authentication_required');
  if (outcome.type === 'invalid') throw new ApiError(outcome.code, { [outcome.field]: 'invalid' });
  const { filters, cards, next, similar } = outcome.result;
  return json({ filters, cards, next, similar } satisfies Answer<'searchMembers', 200>, { headers: { 'cache-control': 'private, no-store', vary: 'cookie' } });
});
export const ALL = methodNotAllowed;
