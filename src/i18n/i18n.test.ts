import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/languages';
import { catalogues, createTranslator, messagesFor } from './index';
import { createClientTranslator } from './client';

function keys(node: unknown, prefix = ''): string[] {
  if (!node || typeof node !== 'object') return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}
function valueAt(cat: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((n, p) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[p] : undefined), cat);
}

describe('catalogues', () => {
  it('I18N-01 there is a catalogue for each of the eleven languages', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LANGUAGES].sort());
    expect(LANGUAGES).toHaveLength(11);
  });

  // A counted text is one key in as many plural forms as its language has (`x_one`, `x_few`, …, UX-05,
  // src/i18n/plurals.test.ts checks the forms): here it counts as the one key `x`.
  const PLURAL = /_(?:zero|one|two|few|many|other)(?=(?:\.\d+)?$)/;
  const english = keys(catalogues.en);
  const counted = new Set(english.filter((k) => /_one(\.\d+)?$/.test(k) && english.includes(k.replace(/_one(?=(\.\d+)?$)/, '_other'))).map((k) => k.replace(PLURAL, '')));
  const base = (k: string) => (counted.has(k.replace(PLURAL, '')) ? k.replace(PLURAL, '') : k);
  const englishBases = [...new Set(english.map(base))];
  /** The English text of a key by its base: the `other` form of a counted text. */
  const englishText = (k: string) => valueAt(catalogues.en, english.find((e) => base(e) === k && !/_one(\.\d+)?$/.test(e)) ?? k);
  it.each(LANGUAGES.filter((l) => l !== 'en'))('I18N-04 every message key exists in %s, with the same placeholders', (lang) => {
    const cat = catalogues[lang];
    const ownKeys = keys(cat);
    const own = new Set(ownKeys.map(base));
    const missing = englishBases.filter((k) => !own.has(k));
    expect(missing, `missing in ${lang}`).toEqual([]);
    const extra = [...own].filter((k) => !englishBases.includes(k));
    expect(extra, `unknown keys in ${lang}`).toEqual([]);
    for (const key of ownKeys) {
      const en = englishText(base(key));
      const other = valueAt(cat, key);
      if (typeof en === 'string' && typeof other === 'string') expect(placeholders(other), `${lang}:${key}`).toEqual(placeholders(en));
    }
  });

  it('I18N-01 the Dutch texts quoted in SPEC are the nl catalogue’s', () => {
    const t = createTranslator('nl');
    expect(t('errors:invalid_email')).toBe('Ongeldige e-mail');
    expect(t('errors:passwords_differ')).toBe('De opgegeven wachtwoorden zijn niet gelijk');
    expect(t('errors:generic')).toMatch(/^Er is een fout opgetreden/);
  });
});

describe('translators', () => {
  it('I18N-01 each request gets its own language; concurrent translators do not affect each other', () => {
    const de = createTranslator('de');
    const en = createTranslator('en');
    expect(en('errors:not_found')).toBe('This page could not be found');
    expect(de('errors:not_found')).not.toBe(en('errors:not_found'));
    expect(en('errors:not_found')).toBe('This page could not be found');
  });

  it('I18N-01 interpolates values', () => {
    expect(createTranslator('en')('entry:accept', { min_age: 18 })).toBe('I am 18 or older, enter');
  });

  it('I18N-01 PERF-01 a text asked again with the same options is the same; other options give their own text', () => {
    const en = createTranslator('en');
    expect(en('nav:credits_balance', { count: 3 })).toBe('3 credits left');
    expect(en('nav:credits_balance', { count: 3 })).toBe('3 credits left');
    expect(en('nav:credits_balance', { count: 4 })).toBe('4 credits left');
    expect(en('entry:accept', { min_age: 21 })).toBe('I am 21 or older, enter');
    expect(en('entry:accept', { min_age: '21' })).toBe('I am 21 or older, enter');
    expect(createTranslator('de')('nav:credits_balance', { count: 3 })).not.toBe('3 credits left');
    // Answers that are not strings (returnObjects) and options that are not plain values are looked up every time.
    const first = en('delete_account:deleted.body', { days: 30, count: 30, returnObjects: true });
    const again = en('delete_account:deleted.body', { days: 30, count: 30, returnObjects: true });
    expect(Array.isArray(first) || typeof first === 'object').toBe(true);
    expect(again).toEqual(first);
    expect(en('entry:accept', { min_age: 18, nested: { a: 1 } } as never)).toBe('I am 18 or older, enter');
  });

  it('I18N-01 islands receive only the namespaces they ask for, with the nl fallback merged in', () => {
    const messages = messagesFor('de', ['nav']);
    expect(Object.keys(messages)).toEqual(['nav']);
    const t = createClientTranslator(messages, 'nav');
    expect(t('messages')).toBe((catalogues.de as any).nav.messages);
    expect(t('nav:unread_messages', { count: 3 })).toContain('3');
    expect(t('common:login')).toBe('common:login');
  });
});
