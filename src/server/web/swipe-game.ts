/**
 * The swipe game without JavaScript (GAME-02; decision 023): the card's like and pass buttons post to
 * `/swipe-game`. A pass adds the card to the skipped ids carried in the query (bounded, swipe.ts); a
 * like goes through the daily limit; both redirect to the next card (post-redirect-get). The fifth like
 * of the day is refused (429) with the 'come back tomorrow' text.
 */
import { servicesFor } from './services';
import { hoursMinutes, MAX_SKIPPED, parseSkipped, swipe } from '../games/swipe';
import { siteTimeZone } from '../sites/site-time';
import type { RequestContext } from './request-context';
import { parseId } from '../../shared/ids';
import { invalid, redirect, type FormHandler, type MultiActionSpec } from './form-action';

export type SwipeAction = 'like' | 'pass';

export function swipePath(skipped: readonly number[]): string {
  return skipped.length > 0 ? `/swipe-game?skip=${skipped.join(',')}` : '/swipe-game';
}

export function swipeGameForm(ctx: Pick<RequestContext, 'app' | 't' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>, user: { id: number }): MultiActionSpec<undefined, SwipeAction> {
  const { t } = ctx;
  const member = { siteId: ctx.site.settings.id, userId: user.id };
  const timeZone = siteTimeZone(ctx.site.settings);
  const bad = () => invalid(400, { formError: t('errors:validation_failed'), reason: 'invalid' });
  const decide =
    (likeIt: boolean): FormHandler =>
    async (form) => {
      const id = parseId(form.text('id'));
      if (id === null) return bad();
      const skipped = parseSkipped(form.text('skip'));
      const result = await swipe(await servicesFor(ctx), member, id, likeIt, timeZone);
      if (result.type === 'limit') {
        return invalid(429, { formError: t('games:swipe.limit', hoursMinutes(result.retryAfterSeconds)), reason: 'limit' });
      }
      if (result.type === 'refused' && result.reason === 'self') return bad();
      // Passed, or gone meanwhile (blocked, invisible): on to the next card without it.
      const next = result.type === 'liked' ? skipped : [...skipped.filter((s) => s !== id), id].slice(-MAX_SKIPPED);
      return redirect(swipePath(next));
    };
  return {
    field: 'action',
    actions: { like: decide(true), pass: decide(false) },
    otherwise: bad,
  };
}
