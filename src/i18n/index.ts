/**
 * i18next on the server: one base instance holds the catalogues of `i18n/<lang>.json`; every request
 * gets its own clone (`cloneInstance`), so concurrent requests in different languages never share a
 * language setting. Namespaces are the catalogue's top-level keys (common, nav, errors, …).
 */
import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, isLanguage, type Language } from '../shared/languages';

export type Catalogue = Record<string, Record<string, unknown>>;

const modules = import.meta.glob<{ default: Catalogue }>('../../i18n/*.json', { eager: true });

/** Every catalogue by language, as shipped in `i18n/`. */
export const catalogues: Partial<Record<Language, Catalogue>> = {};
for (const [path, mod] of Object.entries(modules)) {
  const lang = path.replace(/^.*\/(\w+)\.json$/, '$1');
  if (isLanguage(lang)) catalogues[lang] = mod.default;
}

export const NAMESPACES = Object.keys(catalogues.en ?? {});

const base = i18next.createInstance();
void base.init({
  resources: catalogues as Record<string, Catalogue>,
  supportedLngs: [...LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  lng: DEFAULT_LANGUAGE,
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

export type Translate = TFunction;

/** A translator for one request, in `lang` with nl as fallback. */
export function createTranslator(lang: Language): Translate {
  return base.cloneInstance({ lng: lang, initAsync: false }).t;
}

/**
 * The namespaces an island needs, in the request's language with the nl fallback already merged in,
 * so the browser receives only those texts and no translation library (docs/decisions/004-i18n.md).
 */
export function messagesFor(lang: Language, namespaces: readonly string[]): Catalogue {
  const out: Catalogue = {};
  for (const ns of namespaces) {
    out[ns] = deepMerge(catalogues[FALLBACK_LANGUAGE]?.[ns] ?? {}, catalogues[lang]?.[ns] ?? {});
  }
  return out;
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      v && typeof v === 'object' && prev && typeof prev === 'object'
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
