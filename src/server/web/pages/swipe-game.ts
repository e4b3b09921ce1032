/**
 * The view model of /swipe-game (GAME-02): the deck (members listed to the player, not yet liked, minus
 * the ones skipped), the likes left today in the site's time zone, the 'come back tomorrow' text past
 * them, the refusal of a posted swipe and the deck island's own texts.
 */
import { messagesFor } from '../../../i18n';
import { hoursMinutes, parseSkipped, swipeAllowance, swipeDeck } from '../../games/swipe';
import type { CurrentUser } from '../../members/account';
import { siteTimeZone } from '../../sites/site-time';
import type { SwipeCard } from '../../../shared/swipe-card';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';

export async function swipeGamePage(ctx: Pick<RequestContext, 'app' | 'site' | 'lang' | 't'>, user: Pick<CurrentUser, 'id'>, posted: RefusedPost | null, url: URL) {
  const { app, site, lang, t } = ctx;
  const { settings } = site;
  const member = { siteId: settings.id, userId: user.id };
  const now = app.clock.now();
  const skipped = parseSkipped(posted?.form ? posted.form.text('skip') : url.searchParams.get('skip'));
  const [allowance, members] = await Promise.all([swipeAllowance(app.db, member, now, siteTimeZone(settings)), swipeDeck(app.db, member, { now, skip: skipped })]);
  const prefix = settings.cdn_prefix;
  const cards: SwipeCard[] = members.map((m) => ({
    id: m.id,
    name: m.name,
    age: m.age,
    place: m.city ?? m.region ?? m.country,
    image: m.image ? `${prefix}/photos/${m.image}` : '/no-photo.svg',
    thumb: m.thumb ? `${prefix}/photos/${m.thumb}` : m.image ? `${prefix}/photos/${m.image}` : '/no-photo.svg',
    width: 480,
    height: 600,
    fictional: m.fictional,
  }));
  // Only the deck's own texts travel to the browser.
  const all = messagesFor(lang, ['games']);
  return {
    settings,
    skipped,
    cards,
    likesLeft: allowance.left,
    limitText: posted?.result.reason === 'limit' || allowance.left === 0 ? t('games:swipe.limit', hoursMinutes(allowance.resetInSeconds)) : null,
    formError: posted && posted.result.reason !== 'limit' ? posted.result.formError : null,
    messages: { games: { swipe: (all.games as Record<string, unknown>).swipe as Record<string, unknown> } },
  };
}
