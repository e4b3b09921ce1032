/**
 * Lander slugs (LND-02): the niche prefix (1 plain, 2 she-, 3 bdsm-, 4 bbw-, 5 gilf-, 6 milf-, 7 gay-)
 * followed by the locale, where English is written `eng` (`milf-de`, `gay-eng`, `nl`).
 * A slug only informs: a lander renders for the visitor's own site and language whatever it says.
 */
import { LANGUAGES, isLanguage, type Language } from '../../shared/languages';
import { NICHES, type Niche } from '../../shared/settings';

/** The locale part of a slug: every language code as is, except en → eng. */
function slugLocale(lang: Language): string {
  return lang === 'en' ? 'eng' : lang;
}

/** The slug of a lander for a site of `niche` shown in `lang`, e.g. landerSlug(6, 'en') → 'milf-eng'. */
export function landerSlug(niche: Niche, lang: Language): string {
  return `${NICHES[niche]}${slugLocale(lang)}`;
}

/** The niche and language a slug names, or null when it is not a lander slug. */
export function parseLanderSlug(slug: string): { niche: Niche; lang: Language } | null {
  const value = slug.trim().toLowerCase();
  // Longest prefix first: the plain niche has the empty prefix and must be tried last.
  const niches = (Object.keys(NICHES).map(Number) as Niche[]).sort((a, b) => NICHES[b].length - NICHES[a].length);
  for (const niche of niches) {
    const prefix = NICHES[niche];
    if (!value.startsWith(prefix)) continue;
    const locale = value.slice(prefix.length);
    const lang = locale === 'eng' ? 'en' : locale === 'en' ? null : locale;
    if (lang && isLanguage(lang)) return { niche, lang };
  }
  return null;
}

/** Every valid slug, for tests and sitemaps. */
export function allLanderSlugs(): string[] {
  return (Object.keys(NICHES).map(Number) as Niche[]).flatMap((niche) => LANGUAGES.map((lang) => landerSlug(niche, lang)));
}
