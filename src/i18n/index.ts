/**
 * i18next on the server: one base instance holds the catalogues of `i18n/<lang>.json`; each language
 * has its own clone fixed to it (`cloneInstance`), so requests in different languages never share a
 * language setting. Namespaces are the catalogue's top-level keys (common, nav, errors, …).
 */
import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../shared/languages';
import da from '../../i18n/da.json';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import es from '../../i18n/es.json';
import fi from '../../i18n/fi.json';
import fr from '../../i18n/fr.json';
import it from '../../i18n/it.json';
import nb from '../../i18n/nb.json';
import nl from '../../i18n/nl.json';
import pl from '../../i18n/pl.json';
import sv from '../../i18n/sv.json';

export type Catalogue = Record<string, Record<string, unknown>>;

/** Every catalogue by language, as shipped in `i18n/` (plain imports: they load in Vite, vitest and tsx alike). */
export const catalogues: Partial<Record<Language, Catalogue>> = { en, nl, de, it, fr, es, pl, da, fi, nb, sv };

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

const translators = new Map<Language, Translate>();

/**
 * The translator for `lang` with nl as fallback. One per language for the process (a translator fixed
 * to its language holds no per-request state; nothing changes its language or its catalogues at run
 * time), and a text asked for without options is looked up once: a page asks for ~100 texts, and
 * i18next's own lookup (key parsing, fallbacks, nesting, interpolation) cost ~6 µs each, a tenth of a
 * member page's CPU.
 */
export function createTranslator(lang: Language): Translate {
  let t = translators.get(lang);
  if (!t) {
    const lookup = base.cloneInstance({ lng: lang, initAsync: false }).t;
    const plain = new Map<string, unknown>();
    t = ((key: unknown, ...rest: unknown[]) => {
      if (rest.length === 0 && typeof key === 'string') {
        let text = plain.get(key);
        if (text === undefined) {
          text = lookup(key);
          plain.set(key, text);
        }
        return text;
      }
      return (lookup as unknown as (...args: unknown[]) => unknown)(key, ...rest);
    }) as unknown as Translate;
    translators.set(lang, t);
  }
  return t;
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
