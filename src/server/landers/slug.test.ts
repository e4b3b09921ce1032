import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { NICHES, type Niche } from '../../shared/settings';
import { allLanderSlugs, landerSlug, parseLanderSlug } from './slug';

const PREFIXES: Record<Niche, string> = { 1: '', 2: 'she-', 3: 'bdsm-', 4: 'bbw-', 5: 'gilf-', 6: 'milf-', 7: 'gay-' };
const LOCALES = { en: 'eng', nl: 'nl', de: 'de', it: 'it', fr: 'fr', es: 'es', pl: 'pl', da: 'da', fi: 'fi', nb: 'nb', sv: 'sv' } as const;
const niches = Object.keys(NICHES).map(Number) as Niche[];

describe('lander slugs', () => {
  it('LND-02 covers the seven niches and the eleven languages', () => {
    expect(niches).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Object.keys(LOCALES).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const niche of niches) {
    for (const lang of LANGUAGES) {
      const expected = `${PREFIXES[niche]}${LOCALES[lang]}`;
      it(`LND-02 niche ${niche} in ${lang} is '${expected}' and parses back`, () => {
        expect(landerSlug(niche, lang)).toBe(expected);
        expect(parseLanderSlug(expected)).toEqual({ niche, lang });
      });
    }
  }

  it('LND-02 every slug is unique', () => {
    const slugs = allLanderSlugs();
    expect(slugs).toHaveLength(7 * 11);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('LND-02 English is only ever written eng; unknown prefixes and locales are not slugs', () => {
    for (const bad of ['en', 'milf-en', 'milf-', '', 'xx', 'milf-xx', 'foo-nl', 'she', 'gay-engl', 'bdsm-de-x', 'nl/../de']) {
      expect(parseLanderSlug(bad), bad).toBeNull();
    }
  });

  it('LND-02 parsing ignores case and surrounding spaces', () => {
    expect(parseLanderSlug(' MILF-DE ')).toEqual({ niche: 6, lang: 'de' });
    expect(parseLanderSlug('Eng')).toEqual({ niche: 1, lang: 'en' });
  });
});
