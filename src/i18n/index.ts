/**
 * i18next on the server: one base instance holds the catalogues of `i18n/<lang>.json`; each language
 * has its own clone fixed to it (`cloneInstance`), so requests in different languages never share a
 * language setting. Namespaces are the catalogue's top-level keys (common, nav, errors, …).
 */
import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../shared/languages';
import { pluralRules } from '../shared/intl-formats';
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

/** Texts with options kept per language before the memo starts again (names and counts vary without end). */
const MAX_TEXTS_WITH_OPTIONS = 5_000;

/**
 * The memo key of a call with options: the key and the options when every value is a string, number or
 * boolean (the usual `{ site }`, `{ count }`); null when an option is anything else (not kept).
 */
function optionsKey(key: string, options: unknown): string | null {
  if (typeof options === 'string') return `${key}\u0000${options}`;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return null;
  let out = key;
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') return null;
    out += `\u0000${name}\u0001${type === 'string' ? (value as string) : String(value)}${type === 'string' ? '' : `\u0002${type}`}`;
  }
  return out;
}

/**
 * The translator for `lang` with nl as fallback. One per language for the process (a translator fixed
 * to its language holds no per-request state; nothing changes its language or its catalogues at run
 * time), so a text is a pure function of its key and options and is looked up once: a page asks for
 * ~100 texts, and i18next's own lookup (key parsing, fallbacks, plurals, interpolation) cost ~6 µs each,
 * a tenth of a member page's CPU. Calls with options are kept too when the options are plain values and
 * the answer is a string (up to MAX_TEXTS_WITH_OPTIONS per language, then the memo starts again).
 */
export function createTranslator(lang: Language): Translate {
  let t = translators.get(lang);
  if (!t) {
    const lookup = base.cloneInstance({ lng: lang, initAsync: false }).t as unknown as (...args: unknown[]) => unknown;
    const plain = new Map<string, unknown>();
    const withOptions = new Map<string, string>();
    t = ((key: unknown, ...rest: unknown[]) => {
      if (typeof key !== 'string') return lookup(key, ...rest);
      if (rest.length === 0) {
        let text = plain.get(key);
        if (text === undefined) {
          text = lookup(key);
          plain.set(key, text);
        }
        return text;
      }
      const memoKey = rest.length === 1 ? optionsKey(key, rest[0]) : null;
      if (memoKey === null) return lookup(key, ...rest);
      const kept = withOptions.get(memoKey);
      if (kept !== undefined) return kept;
      const text = lookup(key, ...rest);
      if (typeof text === 'string') {
        if (withOptions.size >= MAX_TEXTS_WITH_OPTIONS) withOptions.clear();
        withOptions.set(memoKey, text);
      }
      return text;
    }) as unknown as Translate;
    translators.set(lang, t);
  }
  return t;
}

/**
 * The namespaces an island needs, in the request's language with the nl fallback already merged in,
 * so the browser receives only those texts and no translation library (docs/decisions/003-i18n.md).
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
    out[k] = v && typeof v === 'object' && prev && typeof prev === 'object' ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

/** A number in each plural category a language has, for `pluralTemplates` (1.5 for Polish `other`…). */
const SAMPLE_COUNTS = [...Array.from({ length: 200 }, (_, i) => i), 1_000_000, 1.5];

/**
 * The text of the counted key `key` with the count left as `placeholder`, for each plural category of
 * `lang` (UX-05): a template per form that the browser fills in as the count changes, choosing the form
 * with `Intl.PluralRules(lang)` (the navigation badges' labels, src/client/nav-badge.ts).
 */
export function pluralTemplates(t: Translate, lang: Language, key: string, placeholder = '{count}'): Record<string, string> {
  // The same translator (one per language, createTranslator) gives the same templates: kept per
  // translator, key and placeholder (every member page asked for four of them, ~0.1 ms each; issue 26).
  let kept = keptTemplates.get(t);
  if (!kept) keptTemplates.set(t, (kept = new Map()));
  const memoKey = `${lang}\0${key}\0${placeholder}`;
  const known = kept.get(memoKey);
  if (known) return { ...known };
  const rules = pluralRules(lang);
  const out: Record<string, string> = {};
  for (const category of rules.resolvedOptions().pluralCategories) {
    const sample = SAMPLE_COUNTS.find((n) => rules.select(n) === category) ?? 0;
    out[category] = String(t(key, { count: sample, replace: { count: placeholder } } as never));
  }
  if (kept.size < 200) kept.set(memoKey, out);
  return { ...out };
}

const keptTemplates = new WeakMap<Translate, Map<string, Record<string, string>>>();
