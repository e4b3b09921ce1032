/**
 * The static pages (STA-01, STA-02): ban, cookies, faq, privacy, return-policy, service and terms.
 * Their texts live as structured content per language in `src/content/static-pages/<lang>.json`
 * (per page a title, an intro and sections of a heading and paragraphs) with `{{placeholders}}` that
 * are filled per request from the site settings and the company info. The result is plain text: the
 * pages render it through Astro expressions, which escape it, so no operator value becomes markup.
 */
import { FALLBACK_LANGUAGE, LANGUAGE_COOKIE_MAX_AGE, isLanguage, type Language } from '../../shared/languages';
import type { Site } from '../sites/directory';
import { localiseSite } from '../sites/texts';
import { SESSION_TTL_MS } from '../auth/sessions';
import { ENTRY_COOKIE_MAX_AGE } from '../../shared/entry-cookie';
import { DELETE_GRACE_DAYS } from '../../shared/account-deletion';
import { FREE_CONVERSATION_LIMIT, FREE_PHOTO_LIMIT, PREMIUM_PHOTO_LIMIT } from '../members/membership';

export const STATIC_PAGES = ['ban', 'cookies', 'faq', 'privacy', 'return-policy', 'service', 'terms'] as const;
export type StaticPageSlug = (typeof STATIC_PAGES)[number];

export interface StaticSection {
  /** Stable anchor, the same in every language. */
  id: string;
  heading: string;
  paragraphs: string[];
}

export interface StaticPageContent {
  title: string;
  intro: string;
  sections: StaticSection[];
}

export type StaticPagesCatalogue = Record<StaticPageSlug, StaticPageContent>;

const modules = import.meta.glob<{ default: StaticPagesCatalogue }>('../../content/static-pages/*.json', { eager: true });

/** Every language's static page texts as shipped in `src/content/static-pages/`. */
export const staticPageCatalogues: Partial<Record<Language, StaticPagesCatalogue>> = {};
for (const [path, mod] of Object.entries(modules)) {
  const lang = path.replace(/^.*\/(\w+)\.json$/, '$1');
  if (isLanguage(lang)) staticPageCatalogues[lang] = mod.default;
}

/** The earliest version date of the terms (SPEC §9). */
export const TERMS_BASE_VERSION_DATE = '2023-12-01';

/**
 * The version date of the terms (STA-02): 2023-12-01, unless the company was added later, then the
 * company's added date. Both are ISO dates (YYYY-MM-DD), so they compare as strings.
 */
export function termsVersionDate(companyAdded: string): string {
  return companyAdded > TERMS_BASE_VERSION_DATE ? companyAdded : TERMS_BASE_VERSION_DATE;
}

/**
 * An ISO date (YYYY-MM-DD) written out in `lang`, e.g. "1 December 2023" / "1. Dezember 2023".
 * English is written the European way (en-GB): the operator is a Dutch company.
 */
export function formatIsoDate(iso: string, lang: string): string {
  const locale = lang === 'en' ? 'en-GB' : lang;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

/** Cookie lifetimes quoted on the cookie and privacy pages, in days, taken from the code that sets them. */
export const COOKIE_LIFETIME_DAYS = {
  session: SESSION_TTL_MS / 86_400_000,
  lang: LANGUAGE_COOKIE_MAX_AGE / 86_400,
  entry_ok: ENTRY_COOKIE_MAX_AGE / 86_400,
  tracking: 30,
} as const;

/** Every placeholder the static texts may use. The content test rejects any other. */
export const PLACEHOLDERS = [
  'site',
  'domain',
  'company',
  'address',
  'city',
  'country',
  'kvk',
  'vat',
  'tradenames',
  'refund_days',
  'support_email',
  'support_phone',
  'min_age',
  'fictional_warning',
  'fictional_plural',
  'message_credits',
  'photo_credits',
  'gift_credits',
  'signup_credits',
  'delete_days',
  'free_photos',
  'premium_photos',
  'free_conversations',
  'session_days',
  'lang_days',
  'entry_days',
  'tracking_days',
  'version_date',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** The values of every placeholder for one site in one language. */
export function placeholderValues(site: Site, lang: Language): Record<Placeholder, string> {
  // The site's own texts (fictional_*) in the page's language, else the site's own.
  const { settings, company } = localiseSite(site, lang);
  return {
    site: settings.name,
    domain: settings.domain,
    company: company.name,
    address: company.address,
    city: company.city,
    country: company.country,
    kvk: company.kvk,
    vat: company.vat_numbers.join(', '),
    tradenames: (company.tradenames.length > 0 ? company.tradenames : [settings.name]).join(', '),
    refund_days: String(settings.refund_days),
    support_email: settings.support_email,
    support_phone: settings.support_phone,
    min_age: String(settings.min_age),
    fictional_warning: settings.fictional_warning,
    fictional_plural: settings.fictional_plural,
    message_credits: String(settings.message_credits),
    photo_credits: String(settings.photo_credits),
    gift_credits: String(settings.gift_credits),
    signup_credits: String(settings.signup_credits),
    delete_days: String(DELETE_GRACE_DAYS),
    free_photos: String(FREE_PHOTO_LIMIT),
    premium_photos: String(PREMIUM_PHOTO_LIMIT),
    free_conversations: String(FREE_CONVERSATION_LIMIT),
    session_days: String(COOKIE_LIFETIME_DAYS.session),
    lang_days: String(COOKIE_LIFETIME_DAYS.lang),
    entry_days: String(COOKIE_LIFETIME_DAYS.entry_ok),
    tracking_days: String(COOKIE_LIFETIME_DAYS.tracking),
    version_date: formatIsoDate(termsVersionDate(company.added), lang),
  };
}

const PLACEHOLDER_PATTERN = /\{\{\s*(\w+)\s*\}\}/g;

/** The placeholder names a text uses, sorted (duplicates kept once). */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1]!))].sort();
}

/**
 * Fills `{{name}}` placeholders with plain values. Unknown names stay as they are (the content test
 * keeps them out); values are inserted as text, never re-scanned, so a value holding `{{x}}` or markup
 * stays literal and is escaped where it is rendered. A value ending in a full stop ("Lokaal Media B.V.")
 * swallows the full stop that ends the sentence after it.
 */
export function interpolate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}(\.?)/g, (whole, name: string, stop: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name]!;
    return stop && value.endsWith('.') ? value : value + stop;
  });
}

/** The catalogue of `lang`, else the nl fallback, else English. */
function catalogueFor(lang: Language): { lang: Language; pages: StaticPagesCatalogue } {
  for (const candidate of [lang, FALLBACK_LANGUAGE, 'en'] as const) {
    const pages = staticPageCatalogues[candidate];
    if (pages) return { lang: candidate, pages };
  }
  throw new Error('No static page content is installed (src/content/static-pages/*.json).');
}

export interface RenderedStaticPage extends StaticPageContent {
  slug: StaticPageSlug;
  /** The language the text is in (the request's, unless it had to fall back). */
  lang: Language;
}

/** A static page in `lang` with every placeholder filled for `site`. */
export function renderStaticPage(slug: StaticPageSlug, lang: Language, site: Site): RenderedStaticPage {
  const found = catalogueFor(lang);
  const page = found.pages[slug] ?? catalogueFor(FALLBACK_LANGUAGE).pages[slug];
  const values = placeholderValues(site, found.lang);
  return {
    slug,
    lang: found.lang,
    title: interpolate(page.title, values),
    intro: interpolate(page.intro, values),
    sections: page.sections.map((section) => ({
      id: section.id,
      heading: interpolate(section.heading, values),
      paragraphs: section.paragraphs.map((p) => interpolate(p, values)),
    })),
  };
}
