/**
 * The view model of /landers/tinderswipe (LND-01): up to twelve of the site's members with a photo as
 * the deck's cards, the deck island's own texts, the niche's headline and the site's slug. More than one
 * slug segment is no lander address (ERR-01); the slug, when given, only informs (LND-02).
 */
import { messagesFor } from '../../../i18n';
import { landerContent } from '../../landers/content';
import { signupEntry } from '../../landers/entry';
import { slugSegment } from '../../landers/names';
import { landerSlug } from '../../landers/slug';
import type { Niche } from '../../../shared/settings';
import type { SwipeCard } from '../../../shared/swipe-card';
import type { RequestContext } from '../request-context';

export async function tinderswipePage(ctx: Pick<RequestContext, 'app' | 'site' | 'lang' | 't'>, params: { slug?: string }) {
  const { app, site, lang, t } = ctx;
  const { settings } = site;
  if (!slugSegment(params.slug).ok) return { type: 'not_found' as const };
  const content = await landerContent(app, settings);
  const prefix = settings.cdn_prefix;
  const cards: SwipeCard[] = content.members
    .filter((m) => m.photo)
    .slice(0, 12)
    .map((m) => ({
      id: m.id,
      name: m.name,
      age: m.age,
      place: m.place,
      image: `${prefix}/photos/${m.photo!.main}`,
      thumb: `${prefix}/photos/${m.photo!.thumb}`,
      width: m.photo!.width,
      height: m.photo!.height,
      fictional: m.fictional,
    }));
  // Only the deck's own texts travel to the browser.
  const all = messagesFor(lang, ['landers']);
  return {
    type: 'page' as const,
    settings,
    cards,
    messages: { landers: { swipe: (all.landers as Record<string, unknown>).swipe as Record<string, unknown> } },
    headline: t('landers:headline.tinderswipe', { people: t(`landers:niche.${settings.niche}`) }),
    slug: landerSlug(settings.niche as Niche, lang),
    signupHref: signupEntry(settings),
  };
}
