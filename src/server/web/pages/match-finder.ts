/**
 * The view model of /match-finder (GAME-01): the questions (unanswered, they start from the member's own
 * search: whom they look for, their age range, their region), the regions of the member's country, the
 * ranked matches once answered, and the status (400 for answers that do not parse).
 */
import { findMatches, memberPlace, parseQuestions, type MatchQuestions, type RankedMatch } from '../../games/match-finder';
import type { CurrentUser } from '../../members/account';
import { countryName, listRegions } from '../../members/places';
import { SEARCH_MAX_AGE } from '../../members/search';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';

export async function matchFinderPage(ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'lang' | 'searchDefaults'>, user: Pick<CurrentUser, 'id'>, posted: RefusedPost | null, url: URL) {
  const { app, site, t } = ctx;
  const { settings } = site;
  const member = { siteId: settings.id, userId: user.id };
  // A page's session lookup read the member's own search (their country and region too); otherwise ask.
  const own = ctx.searchDefaults ?? null;
  const place = own?.country ? { country: own.country, regionId: own.region ?? null } : await memberPlace(app.db, member);
  const country = place?.country ?? settings.countries[0]!;
  const regionList = await listRegions(app.db, [country]);
  const params = url.searchParams;
  const answered = params.has('gender');
  const parsed = answered ? parseQuestions(params, new Set(regionList.map((r) => r.id)), settings.min_age) : null;
  let results: RankedMatch[] | null = null;
  let status = 200;
  const ownGender = own?.gender?.length === 1 ? own.gender[0] : 'female';
  let questions: Partial<MatchQuestions> = { region: place?.regionId ?? null, interests: [], minAge: own?.minAge, maxAge: own?.maxAge };
  if (parsed?.ok) {
    questions = parsed.questions;
    results = await findMatches(app.db, member, parsed.questions, app.clock.now());
  } else if (parsed) {
    status = 400;
  }
  const questionError =
    parsed && !parsed.ok
      ? { gender: t('errors:invalid_gender'), age: t('games:match_finder.bad_age'), region: t('errors:unknown_region'), interests: t('games:match_finder.too_many') }[parsed.error]
      : null;
  return {
    status,
    settings,
    maxAge: SEARCH_MAX_AGE,
    country,
    countryLabel: countryName(country, ctx.lang),
    regionList,
    questions,
    questionError,
    results,
    formError: posted ? posted.result.formError : null,
    prefix: settings.cdn_prefix,
    here: `${url.pathname}${url.search}`,
    chosen: new Set(questions.interests ?? []),
    gender: params.get('gender') ?? ownGender,
  };
}
