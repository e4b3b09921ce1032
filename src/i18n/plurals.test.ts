/**
 * UX-05: every counted text uses the language's plural rules. A counted text is an i18next plural key
 * (`key_one`, `key_few`, `key_many`, `key_other`, …) used with `t(key, { count })`; each catalogue has
 * exactly the forms its language needs (Intl.PluralRules: Polish one/few/many/other, French, Spanish and
 * Italian one/many/other, the others one/other), and no text fakes a plural with "(s)", "(en)", "(e)"…
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../shared/languages';
import { createClientTranslator } from './client';
import { catalogues, createTranslator, messagesFor, pluralTemplates } from './index';

const SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every leaf of a catalogue as [path, text] (array items as `path.0`, `path.1`…). */
function leaves(node: unknown, prefix = ''): Array<[string, string]> {
  if (typeof node === 'string') return [[prefix, node]];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

/** Every key (a string or an array of strings) of a catalogue, as `ns.path.key`. */
function keysOf(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!node || typeof node !== 'object' || Array.isArray(node)) return out;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string' || Array.isArray(v)) out.set(path, v);
    else for (const [p, x] of keysOf(v, path)) out.set(p, x);
  }
  return out;
}

/** The plural keys of the English catalogue by their base (`games.match_finder.shared`): those with a `_one` and an `_other` form. */
const english = keysOf(catalogues.en);
const families = [...english.keys()].filter((k) => k.endsWith('_other') && english.has(k.replace(/_other$/, '_one'))).map((k) => k.replace(/_other$/, ''));

const placeholders = (text: unknown): string[] => [...JSON.stringify(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
const unique = (list: string[]) => [...new Set(list)];

describe('plural keys in the catalogues', () => {
  it('UX-05 the English catalogue has the counted texts as plural keys', () => {
    expect(families.length).toBeGreaterThan(40);
    for (const key of [
      'nav.unread_messages',
      'nav.new_likes',
      'nav.credits_balance',
      'games.match_finder.shared',
      'chats.cost',
      'chat.gift_cost',
      'credits.credits_amount',
      'mail.notify_unread_reminder.subject',
    ]) {
      expect(families, key).toContain(key);
    }
  });

  it.each(LANGUAGES)('UX-05 every counted key in %s has exactly the plural forms the language needs, with the same placeholders', (lang) => {
    const own = keysOf(catalogues[lang]);
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const base of families) {
      const forms = [...own.keys()].filter((k) => k.startsWith(`${base}_`) && SUFFIX.test(k) && k.replace(SUFFIX, '') === base).map((k) => k.replace(`${base}_`, ''));
      expect(forms.sort(), `${lang}:${base}`).toEqual([...needed].sort());
      expect(own.has(base), `${lang}:${base} also as a plain key`).toBe(false);
      const want = unique(placeholders(english.get(`${base}_other`)));
      for (const form of forms) expect(unique(placeholders(own.get(`${base}_${form}`))), `${lang}:${base}_${form}`).toEqual(want);
    }
    // No plural forms the language does not have, on any key (a Polish `_few` copied into German…).
    const foreign = [...own.keys()].filter((k) => SUFFIX.test(k) && families.includes(k.replace(SUFFIX, '')) && !needed.includes(k.match(SUFFIX)![1] as Intl.LDMLPluralRule));
    expect(foreign, lang).toEqual([]);
  });

  it.each(LANGUAGES)('UX-05 no %s text fakes a plural with "(s)", "(en)", "(e)", "/i" and the like', (lang) => {
    // Endings that mark gender, not number, for a member of either gender: French "Divorcé(e)", Polish
    // "wysłał(a)", Spanish "Soltero/a", Italian "Sposato/a". They are allowed where nothing is counted.
    const genderEndings: Partial<Record<Language, string[]>> = { fr: ['(e)'], pl: ['(a)'], es: ['/a'], it: ['/a'] };
    const fake: string[] = [];
    for (const [path, text] of leaves(catalogues[lang])) {
      for (const m of text.matchAll(/\p{L}(\(\p{L}{1,3}\)|\/\p{L}{1,2}(?!\p{L}))/gu)) {
        const counted = /\{\{\s*\w+\s*\}\}/.test(text) && SUFFIX.test(path.replace(/\.\d+$/, ''));
        if (!counted && genderEndings[lang]?.includes(m[1]!)) continue;
        fake.push(`${path}: ${text}`);
      }
    }
    expect(fake).toEqual([]);
  });
});

/** The source files of the app (not tests), for the calls of `t`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|astro)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

describe('counted texts in the code', () => {
  const root = join(import.meta.dirname, '..');
  // `t('ns:key', { … })` and `t('key', { … })` with a literal key; options up to one level of nesting.
  const call = /\bt\(\s*(['"])([\w.:-]+)\1\s*(?:,\s*(\{(?:[^{}]|\{[^{}]*\})*\}))?\s*\)/g;
  const uses = sources(root).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const defaultNs = /createClientTranslator\([^,]+,\s*'(\w+)'/.exec(text)?.[1] ?? 'common';
    return [...text.matchAll(call)].map((m) => {
      const key = m[2]!.includes(':') ? m[2]!.replace(':', '.') : `${defaultNs}.${m[2]}`;
      return { where: `${relative(root, file)}: ${m[0].slice(0, 90)}`, key, counted: /\bcount\b/.test(m[3] ?? '') };
    });
  });

  it('UX-05 finds the calls of t in the code', () => {
    expect(uses.length).toBeGreaterThan(500);
    expect(uses.some((u) => u.key === 'games.match_finder.shared' && u.counted)).toBe(true);
  });

  it('UX-05 every text the code shows with a count is a plural key, and every plural key is shown with a count', () => {
    const notPlural = uses.filter((u) => u.counted && !families.includes(u.key) && english.has(u.key)).map((u) => u.where);
    expect(notPlural, 'texts given a count that have no plural forms').toEqual([]);
    const countless = uses.filter((u) => !u.counted && families.includes(u.key)).map((u) => u.where);
    expect(countless, 'plural texts used without a count').toEqual([]);
  });
});

describe('counted texts as members read them', () => {
  it('UX-05 "1 shared interest", "2 shared interests"; Polish one, few, many and other', () => {
    const en = createTranslator('en');
    expect(en('games:match_finder.shared', { count: 1 })).toBe('1 shared interest');
    expect(en('games:match_finder.shared', { count: 2 })).toBe('2 shared interests');
    expect(en('games:match_finder.shared', { count: 0 })).toBe('0 shared interests');
    const pl = createTranslator('pl');
    expect(pl('games:match_finder.shared', { count: 1 })).toBe('1 wspólne zainteresowanie');
    expect(pl('games:match_finder.shared', { count: 3 })).toBe('3 wspólne zainteresowania');
    expect(pl('games:match_finder.shared', { count: 5 })).toBe('5 wspólnych zainteresowań');
    expect(pl('games:match_finder.shared', { count: 22 })).toBe('22 wspólne zainteresowania');
    expect(pl('games:match_finder.shared', { count: 12 })).toBe('12 wspólnych zainteresowań');
    expect(pl('games:match_finder.shared', { count: 1.5 })).toBe('1.5 wspólnego zainteresowania');
    expect(pl('credits:credits_amount', { credits: '2', count: 2 })).toBe('2 kredyty');
    expect(pl('credits:credits_amount', { credits: '25', count: 25 })).toBe('25 kredytów');
    expect(pl('members:age_location', { age: 23, place: 'Kraków', count: 23 })).toBe('23 lata, Kraków');
    expect(pl('members:age_location', { age: 25, place: 'Kraków', count: 25 })).toBe('25 lat, Kraków');
    // French counts 0 as one, and a million takes 'de'.
    const fr = createTranslator('fr');
    expect(fr('credits:balance', { credits: '0', count: 0 })).toBe('Votre solde : 0 crédit.');
    expect(fr('credits:balance', { credits: '1 000 000', count: 1_000_000 })).toBe('Votre solde : 1 000 000 de crédits.');
    // A message costs 1 credit, not '1 credit(s)'.
    expect(en('chats:cost', { credits: 1, count: 1 })).toBe('A message costs 1 credit');
    expect(en('chats:cost', { credits: 10, count: 10 })).toBe('A message costs 10 credits');
  });

  it('UX-05 the islands count by the page language too', () => {
    const pl = createClientTranslator(messagesFor('pl', ['chat', 'chats']), 'chat', 'pl');
    expect(pl('gift_cost', { count: 1 })).toBe('1 kredyt');
    expect(pl('gift_cost', { count: 4 })).toBe('4 kredyty');
    expect(pl('gift_cost', { count: 25 })).toBe('25 kredytów');
    expect(pl('chats:balance', { credits: 102, count: 102 })).toBe('Twoje saldo: 102 kredyty');
    const en = createClientTranslator(messagesFor('en', ['games']), 'games', 'en');
    expect(en('match_finder.shared', { count: 1 })).toBe('1 shared interest');
    expect(en('match_finder.shared', { count: 7 })).toBe('7 shared interests');
    // Without a count, a plain key as before.
    expect(en('swipe.title')).toBe((catalogues.en as any).games.swipe.title);
  });

  it('UX-05 mails count in paragraphs too, and the navigation badges get a label per plural form', () => {
    const en = createTranslator('en');
    const one = en('mail:notify_unread_reminder.body', { name: 'Ann', count: 1, returnObjects: true }) as unknown as string[];
    expect(one[0]).toBe("Hi Ann, 1 unread message is waiting for you. Don't keep it waiting too long!");
    expect(one).toHaveLength(2);
    expect(en('mail:notify_unread_reminder.subject', { site: 'Flirtlokaal', count: 3 })).toBe('You have 3 unread messages on Flirtlokaal');
    expect(pluralTemplates(createTranslator('pl'), 'pl', 'nav:new_likes')).toEqual({
      one: '{count} nowe polubienie',
      few: '{count} nowe polubienia',
      many: '{count} nowych polubień',
      other: '{count} nowego polubienia',
    });
    expect(pluralTemplates(en, 'en', 'nav:unread_messages')).toEqual({ one: '{count} unread message', other: '{count} unread messages' });
  });
});
