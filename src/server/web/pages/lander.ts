/**
 * The view model of the marketing landers /landers/{name}/{slug?} (LND-01): the wording follows the
 * site's niche in the visitor's language (SITE-03); the slug (LND-02) only informs — another niche's or
 * language's slug still renders this site in the visitor's language. An unknown lander name, or more
 * than one slug segment, is not found (ERR-01).
 */
import { landerContent } from '../../landers/content';
import { isLanderName, slugSegment } from '../../landers/names';
import { landerSlug, parseLanderSlug } from '../../landers/slug';
import { countryName } from '../../members/places';
import type { Niche } from '../../../shared/settings';
import type { RequestContext } from '../request-context';

export async function landerPage(ctx: Pick<RequestContext, 'app' | 'site' | 'lang' | 't'>, params: { name?: string; slug?: string }) {
  const { app, site, lang, t } = ctx;
  const { settings } = site;
  const { name } = params;
  const segment = slugSegment(params.slug);
  if (!isLanderName(name) || !segment.ok) return { type: 'not_found' as const };
  const people = t(`landers:niche.${settings.niche}`);
  // What the link asked for, when it is a lander slug at all: recorded, never changes what is shown.
  const asked = segment.slug ? parseLanderSlug(segment.slug) : null;
  return {
    type: 'page' as const,
    name,
    niche: settings.niche,
    title: t(`landers:title.${name}`),
    headline: t(`landers:headline.${name}`, { people }),
    lead: t(`landers:lead.${name}`, { site: settings.name }),
    country: countryName(settings.countries[0]!, lang),
    slug: landerSlug(settings.niche as Niche, lang),
    requested: asked ? landerSlug(asked.niche, asked.lang) : null,
    content: await landerContent(app, settings),
  };
}
