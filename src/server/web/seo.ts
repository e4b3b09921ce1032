/**
 * What search engines get per site (LND-01, SITE-01): robots.txt, the sitemap, canonical URLs and the
 * Open Graph locale. Pure functions; the routes `src/pages/robots.txt.ts` and `sitemap.xml.ts` and
 * `BaseHead.astro` call them with the request's site.
 *
 * The language is chosen by a cookie, never by a URL prefix (I18N-02): every public page has exactly
 * one URL per site, so the sitemap carries no hreflang alternates and the canonical URL is the same
 * whatever the visitor's language.
 */
import type { Language } from '../../shared/languages';

/** The marketing landers of LND-01 (the tinderswipe lander plus the eight with an optional slug). */
export const LANDER_PATHS = [
  '/landers/tinderswipe',
  '/landers/alonetonight',
  '/landers/collagelanding',
  '/landers/gallery',
  '/landers/iconslanding',
  '/landers/maplanding',
  '/landers/socialnetwork',
  '/landers/transitionsvideolanding',
  '/landers/video',
] as const;

/** The static pages of STA-01/STA-03 and the premium package list and pricing (PREM-01). */
export const STATIC_PATHS = ['/pages/terms', '/pages/privacy', '/pages/cookies', '/pages/ban', '/pages/faq', '/pages/return-policy', '/pages/service', '/premium', '/pricing', '/complaints'] as const;

/** Every page a site lists in its sitemap: the landing page, the landers, the static pages, login. */
export const SITEMAP_PATHS: readonly string[] = ['/', ...LANDER_PATHS, ...STATIC_PATHS, '/login'];

/**
 * Paths crawlers are asked to stay out of: the members area and everything that only makes sense for
 * one visitor (forms with tokens, payment results, the API, the development mail viewer).
 * /photos is not listed: a photo that is not public is refused to anyone not allowed to see it (MEM-04).
 */
export const DISALLOWED_PATHS = [
  '/members',
  '/likes',
  '/chats',
  '/profile',
  '/settings',
  '/notifications',
  '/credits',
  '/transactions',
  '/directdebit',
  '/match-finder',
  '/swipe-game',
  '/signup-matches',
  '/complete-signup',
  '/reset-password',
  '/activate',
  '/mail-change',
  '/account-deleted',
  '/lang-config',
  '/api/',
  '/dev/',
] as const;

/**
 * Member landings (LND-03) live under /members but are marketing pages: the longer Allow rule wins
 * over `Disallow: /members` (RFC 9309 §2.2.2, most specific match).
 */
export const ALLOWED_UNDER_DISALLOWED = ['/members/*/landing', '/members/*/signup'] as const;

/** robots.txt for a site: landers, landing and static pages open; members area, API, dev closed. */
export function robotsTxt(domain: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ALLOWED_UNDER_DISALLOWED.map((path) => `Allow: ${path}`),
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absoluteUrl(domain, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

/** The sitemap (sitemaps.org 0.9) of a site: one <url> per public page, on the site's own domain. */
export function sitemapXml(domain: string, paths: readonly string[] = SITEMAP_PATHS): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(absoluteUrl(domain, path))}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/**
 * The canonical URL of a page: https, the site's domain, the path — never the query string or the
 * fragment (tracking parameters such as ?network=…&sub1=… must not split a page into many URLs).
 */
export function canonicalUrl(domain: string, pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] || '/';
  return absoluteUrl(domain, path.startsWith('/') ? path : `/${path}`);
}

/** An absolute https URL on the site's domain for a path; absolute http(s) URLs pass unchanged. */
export function absoluteUrl(domain: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `https://${domain}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

/** The Open Graph locale (language_TERRITORY) of each interface language. */
export const OG_LOCALES: Record<Language, string> = {
  nl: 'nl_NL',
  de: 'de_DE',
  en: 'en_GB',
  it: 'it_IT',
  fr: 'fr_FR',
  es: 'es_ES',
  pl: 'pl_PL',
  da: 'da_DK',
  fi: 'fi_FI',
  nb: 'nb_NO',
  sv: 'sv_SE',
};

export function ogLocale(lang: Language): string {
  return OG_LOCALES[lang];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/**
 * Cache-Control of robots.txt and the sitemap: the same for every visitor of a site (no cookie changes
 * them; shared caches key on the host), so any cache may keep them an hour.
 */
export const SEO_CACHE_CONTROL = 'public, max-age=3600';
