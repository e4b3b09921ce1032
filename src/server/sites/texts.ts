/**
 * A site's own texts in the request's language (I18N-01, MEM-05, LND-01;
 * docs/decisions/020-site-texts-per-language.md). The middleware puts `localiseSite(site, lang)` in
 * `Astro.locals.site`, so every page, component and endpoint that renders `settings.index_title`,
 * `description` or `fictional_*` shows the request's language, falling back to the site's own text
 * (its domain_language) where no translation exists. Nothing but the language passed in decides which
 * text is shown, so a page cached per language (the render cache) always holds that language's texts.
 */
import type { Language } from '../../shared/languages';
import type { Settings } from '../../shared/settings';
import { SITE_TEXT_FIELDS, type SiteTextField } from '../../shared/site-texts';
import type { Site } from './directory';

/** One text of a site in `lang`, else the site's own text. */
export function siteText(site: Pick<Site, 'settings' | 'texts'>, field: SiteTextField, lang: Language): string {
  const texts = site.texts[field];
  return texts[lang] ?? texts[site.settings.domain_language] ?? site.settings[field];
}

const localised = new WeakMap<Site, Map<Language, Site>>();

/**
 * The site as a request in `lang` sees it: the same site with its text fields in `lang` (else its own
 * text). Kept per loaded site object, so a page view costs a map lookup; a reloaded site (TTL, or
 * `site.changed`) is a new object and starts afresh. Idempotent: localising a localised site again
 * gives the site in the new language.
 */
export function localiseSite(site: Site, lang: Language): Site {
  let perLanguage = localised.get(site);
  if (!perLanguage) {
    perLanguage = new Map();
    localised.set(site, perLanguage);
  }
  let result = perLanguage.get(lang);
  if (!result) {
    const settings: Settings = { ...site.settings };
    for (const field of SITE_TEXT_FIELDS) settings[field] = siteText(site, field, lang);
    result = { ...site, settings };
    perLanguage.set(lang, result);
  }
  return result;
}
