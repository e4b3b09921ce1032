/**
 * /api/swipe.php (GAME-02): POST `{ id, like }` from the swipe game's deck. A like counts against the
 * four swipe likes of the site's day (swipe.ts); the fifth is 429 `swipe_limit_reached` with
 * `retry_after_seconds` and the translated 'come back tomorrow' text with the hours and minutes left.
 */
import { servicesFor } from '../../server/web/services';
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { hoursMinutes, swipe } from '../../server/games/swipe';
import { siteTimeZone } from '../../server/sites/site-time';
import { requireMember } from '../../server/web/request-context';
import { refusal } from './_member-target';
import { swipeBody, type SwipeAnswer } from '../../shared/api/swipe';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const { id, like } = await readJson(request, swipeBody);
  const { settings } = locals.site;
  const result = await swipe(await servicesFor(locals), { siteId: settings.id, userId: user.id }, id, like, siteTimeZone(settings));
  if (result.type === 'refused') throw refusal(result.reason);
  if (result.type === 'limit') {
    throw new ApiError('swipe_limit_reached', undefined, { retry_after_seconds: result.retryAfterSeconds, ...hoursMinutes(result.retryAfterSeconds) });
  }
  if (result.type === 'passed') return json({ ok: true, id, liked: false, match: false, likes_left: result.left } satisfies SwipeAnswer);
  return json({ ok: true, id, liked: true, match: result.match, likes_left: result.left } satisfies SwipeAnswer);
});

export const ALL = methodNotAllowed;
