import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTexts, repoFiles, ROOT } from './repo-files';
import { BUILT_KEY_PREFIXES, catalogueKeys, translationKeyProblems } from './translation-keys';

describe('translation keys', () => {
  it('every key of i18n/en.json is used in src/ (or built from a listed prefix)', () => {
    const keys = catalogueKeys(JSON.parse(readFileSync(join(ROOT, 'i18n/en.json'), 'utf8')));
    const sources = readTexts(repoFiles().filter((f) => f.startsWith('src/') && /\.(?:ts|tsx|astro|mjs|js)$/.test(f) && !/\.(?:test|spec)\.tsx?$/.test(f)));
    expect(keys.length).toBeGreaterThan(1000);
    expect(translationKeyProblems(keys, sources, BUILT_KEY_PREFIXES)).toEqual([]);
  });

  it('refuses a key no source uses and a prefix that covers no key', () => {
    const keys = catalogueKeys({
      nav: { home: 'Home', gone: 'Gone', items_one: '{{count}} item', items_other: '{{count}} items' },
      chat: { send: 'Send', gift_rose: 'A rose', old: { text: 'Old' } },
    });
    expect(keys).toEqual(['nav:home', 'nav:gone', 'nav:items', 'chat:send', 'chat:gift_rose', 'chat:old.text']);
    const sources = [
      { path: 'src/a.astro', text: "<a>{t('nav:home')}</a> {t('nav:items', { count })}" },
      { path: 'src/b.tsx', text: "t('send'); t(`gift_${id}`);" },
    ];
    expect(translationKeyProblems(keys, sources, { 'chat:gift_': 'a gift', 'chat:sticker_': 'gone' })).toEqual([
      'nav:gone is used nowhere in src/',
      'chat:old.text is used nowhere in src/',
      'the listed prefix chat:sticker_ covers no key',
    ]);
  });
});
