/**
 * Which language a request is rendered in (I18N-01, I18N-02, SITE-04): the `lang` cookie when it names
 * one of the site's languages; otherwise the site's domain_language, which is then written to the cookie.
 */
import { isLanguage, type Language } from '../../shared/languages';
import type { Settings } from '../../shared/settings';

export interface LocaleChoice {
  lang: Language;
  /** The cookie must be (re)written with this language. */
  setCookie: boolean;
}

export function chooseLanguage(cookieValue: string | undefined, settings: Pick<Settings, 'languages' | 'domain_language'>): LocaleChoice {
  if (isLanguage(cookieValue) && settings.languages.includes(cookieValue)) return { lang: cookieValue, setCookie: false };
  return { lang: settings.domain_language, setCookie: true };
}
