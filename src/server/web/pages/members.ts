/**
 * The view model of /members (MEM-01, MEM-02, MEM-05, MEM-07): the first page of the search, either as
 * the HTML a shared search page kept (decision 049) or as the search island's props, and the status
 * (400 for bad filters). Visitors search only as `logged_out_search` / `logged_out_search_trafficsource`
 * allow; otherwise they are sent to log in.
 */
import { messagesFor } from '../../../i18n';
import { countryName, listRegions } from '../../members/places';
import { SEARCH_MAX_AGE } from '../../members/search';
import { sharedSearch } from '../../members/search-pages';
import { maySearch } from '../../members/search-request';
import type { components } from '../../../shared/api-types';
import { fromSearchParams, shownPages, type SearchQuery } from '../../../shared/search-query';
import { requireMember, type RequestContext } from '../request-context';

type MemberSearch = components['schemas']['MemberSearch'];

/** What the search island starts from (its store's state without the loading status). */
interface InitialSearch {
  query: SearchQuery;
  applied: MemberSearch['filters'];
  cards: components['schemas']['MemberCard'][];
  next: string | null;
  similar: MemberSearch['similar'];
  error: components['schemas']['ErrorCode'] | null;
  pages: number;
}

const ISLAND_ERRORS = ['validation_failed', 'invalid_gender', 'invalid_age_range', 'unknown_country', 'unknown_region', 'invalid_cursor'];

export async function membersPage(ctx: Pick<RequestContext, 'app' | 'site' | 'user' | 'lang' | 'tracking' | 'blocked' | 'searchDefaults'>, url: URL) {
  const { app, site, user, lang, tracking } = ctx;
  const settings = site.settings;
  const params = url.searchParams;
  const request = { db: app.db, now: app.clock.now(), site: settings, userId: user?.id ?? null, tracking, params, blocked: ctx.blocked ?? null, defaults: ctx.searchDefaults ?? null };
  if (!maySearch(request)) requireMember(ctx, `/members${url.search}`);

  // A search page many viewers share is searched and rendered once every few seconds (decision 049).
  const outcome = await sharedSearch(request, { cache: app.searchPages, ttlMs: app.config.SEARCH_CACHE_TTL_MS, lang });
  const shared = outcome.type === 'ok' ? outcome.shared : null;
  const kept = shared?.html ?? null;
  const query = fromSearchParams(params);
  const siteMin = Math.max(settings.min_age, 18);
  let initial: InitialSearch;
  let status = 200;
  if (outcome.type === 'ok') {
    const { filters, cards, next, similar } = outcome.result;
    initial = { query, applied: filters, cards, next, similar, error: null, pages: shownPages(params) };
  } else {
    status = 400;
    const code = outcome.type === 'invalid' ? outcome.code : 'validation_failed';
    initial = {
      query,
      applied: {
        gender: query.gender,
        country: query.country,
        region: query.region,
        minAge: query.minAge ?? siteMin,
        maxAge: query.maxAge ?? SEARCH_MAX_AGE,
        ...(query.verified ? { verified: true } : {}),
      },
      cards: [],
      next: null,
      similar: null,
      error: code,
      pages: 1,
    };
  }

  // The island's own props: not needed when the shared page's HTML is served as it was rendered.
  if (kept !== null) return { status, siteName: settings.name, shared, kept, props: null };
  const countries = settings.countries.map((code) => ({ code, name: countryName(code, lang) }));
  const allRegions = await listRegions(app.db, settings.countries);
  const regions = settings.countries.map((code) => ({ code, regions: allRegions.filter((r) => r.country === code).map(({ id, name }) => ({ id, name })) }));
  const base = messagesFor(lang, ['search', 'members', 'errors', 'ui']);
  const errorTexts = base.errors ?? {};
  const messages = {
    search: base.search ?? {},
    members: base.members ?? {},
    errors: Object.fromEntries(ISLAND_ERRORS.map((k) => [k, errorTexts[k]])),
  };
  const props = {
    messages,
    lang,
    initial,
    countries,
    regions,
    card: { cdnPrefix: settings.cdn_prefix, fictionalLabel: settings.fictional_singular, fictionalWarning: settings.fictional_warning, verifiedLabel: String(base.ui?.verified ?? '') },
    minAge: siteMin,
    maxAge: SEARCH_MAX_AGE,
    laterPage: params.has('cursor'),
  };
  return { status, siteName: settings.name, shared, kept, props };
}
