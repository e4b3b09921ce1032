import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../i18n';
import { LANGUAGES } from '../../shared/languages';
import { GIFT_IDS, giftById, listGifts } from './gifts';
import { ICEBREAKER_COUNT, icebreakers } from './icebreakers';

describe('GFT-01 gift catalogue', () => {
  it('GFT-01 lists 8–12 gifts with names in the requested language and a shipped SVG image', () => {
    expect(GIFT_IDS.length).toBeGreaterThanOrEqual(8);
    expect(GIFT_IDS.length).toBeLessThanOrEqual(12);
    const nl = listGifts('nl');
    expect(nl.map((g) => g.id)).toEqual([...GIFT_IDS]);
    expect(nl[0]).toEqual({ id: 'rose', name: 'Roos', image: '/gifts/rose.svg' });
    expect(listGifts('de').find((g) => g.id === 'teddy')!.name).toBe('Teddybär');
    for (const gift of nl) {
      const file = resolve(import.meta.dirname, '../../../public', `.${gift.image}`);
      expect(existsSync(file), gift.image).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      // Shipped media are plain drawings: no scripts, no links, nothing fetched.
      expect(svg).not.toMatch(/<script|href|url\(|on\w+=/i);
    }
  });

  it('GFT-01 every gift has its own, translated name in all eleven languages', () => {
    for (const lang of LANGUAGES) {
      const names = listGifts(lang).map((g) => g.name);
      expect(
        names.every((n) => n.length > 0 && !n.startsWith('gift_') && !n.includes(':')),
        lang,
      ).toBe(true);
      expect(new Set(names).size, lang).toBe(names.length);
      for (const id of GIFT_IDS) expect((catalogues[lang]!.chat as Record<string, string>)[`gift_${id}`], `${lang} ${id}`).toBeTruthy();
    }
  });

  it('GFT-01 giftById knows the catalogue and nothing else', () => {
    expect(giftById('ring', 'fr')).toEqual({ id: 'ring', name: 'Écrin à bague', image: '/gifts/ring.svg' });
    expect(giftById('diamond')).toBeNull();
    expect(giftById('__proto__')).toBeNull();
    expect(giftById('')).toBeNull();
  });
});

describe('CHT-07 icebreakers', () => {
  it("CHT-07 gives the opening lines in the member's language, each language its own", () => {
    const nl = icebreakers('nl');
    expect(nl).toHaveLength(ICEBREAKER_COUNT);
    expect(nl[0]).toBe('Hoi! Je profiel maakte me nieuwsgierig. Hoe gaat je dag tot nu toe?');
    const seen = new Map<string, string>();
    for (const lang of LANGUAGES) {
      const lines = icebreakers(lang);
      expect(lines, lang).toHaveLength(ICEBREAKER_COUNT);
      expect(new Set(lines).size, lang).toBe(ICEBREAKER_COUNT);
      for (const line of lines) {
        expect(line, lang).not.toMatch(/^icebreaker_|chat:/);
        expect(line.length, lang).toBeLessThanOrEqual(140);
        // Not an English (or other) copy: no line is shared between two languages.
        expect(seen.get(line), `${lang}: ${line}`).toBeUndefined();
        seen.set(line, lang);
      }
    }
  });
});
