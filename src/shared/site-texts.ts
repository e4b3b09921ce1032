/**
 * The texts a site writes itself (SPEC §3 Settings: index_title, description, fictional_warning,
 * fictional_singular, fictional_plural) in more than one language (I18N-01, MEM-05;
 * docs/decisions/020-site-texts-per-language.md). The `sites` columns hold the site's own text, in its
 * domain_language; the `texts` column holds translations, field → language → text. A language without a
 * translation shows the site's own text.
 */
import { z } from 'zod';
import { LANGUAGES, type Language } from './languages';
import type { Settings } from './settings';

/** The settings fields that are prose a visitor reads, and so have a text per language. */
export const SITE_TEXT_FIELDS = ['index_title', 'description', 'fictional_warning', 'fictional_singular', 'fictional_plural'] as const;
export type SiteTextField = (typeof SITE_TEXT_FIELDS)[number];

/** Translations of a site's texts as the `sites.texts` column keeps them: field → language → text. */
export type SiteTextTranslations = Partial<Record<SiteTextField, Partial<Record<Language, string>>>>;

/** Checks the `texts` column whenever a site is loaded: known fields and languages, no empty text. */
export const siteTextTranslationsSchema = z.partialRecord(z.enum(SITE_TEXT_FIELDS), z.partialRecord(z.enum(LANGUAGES), z.string().trim().min(1)));

/** Every text of a site per language; each field always has the site's own (domain_language) text. */
export type SiteTexts = Record<SiteTextField, Partial<Record<Language, string>>>;

/**
 * A site's texts from its settings (the own texts, in domain_language) and its translations. The
 * settings columns decide the domain_language text: a translation stored under that language is ignored.
 */
export function siteTextsOf(settings: Settings, translations: SiteTextTranslations): SiteTexts {
  const texts = {} as SiteTexts;
  for (const field of SITE_TEXT_FIELDS) texts[field] = { ...translations[field], [settings.domain_language]: settings[field] };
  return texts;
}
