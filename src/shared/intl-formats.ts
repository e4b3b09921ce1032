/**
 * Intl formatters made once and shared (issue 26, docs/decisions/090-member-page-cpu.md). Making an
 * `Intl.DateTimeFormat`, `NumberFormat` or `PluralRules` loads ICU data and costs ~0.05–0.2 ms; formatting
 * with one costs a few microseconds. A chat page made one per message (its day separator), and every
 * member page a few for its badges and times. A formatter holds no request state (locale and options in,
 * text out), so sharing it between requests and members changes nothing but the cost. Bounded: the keys
 * are languages × time zones × the handful of option sets the code uses.
 */
const MAX_KEPT = 500;

function remembered<T>(kept: Map<string, T>, key: string, make: () => T): T {
  let value = kept.get(key);
  if (value === undefined) {
    value = make();
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(key, value);
  }
  return value;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRulesKept = new Map<string, Intl.PluralRules>();

/** `new Intl.DateTimeFormat(locale, options)`, made once per locale and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return remembered(dateTimeFormats, `${locale}\0${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, made once per locale and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return remembered(numberFormats, `${locale}\0${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** `new Intl.PluralRules(locale)`, made once per locale. */
export function pluralRules(locale: string): Intl.PluralRules {
  return remembered(pluralRulesKept, locale, () => new Intl.PluralRules(locale));
}
