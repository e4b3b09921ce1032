/** SAFE-02: the safety phrases matched in our process — normal form, all languages together, no false alarms on near words. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { cleanPhraseList, DEFAULT_SAFETY_PHRASES, normaliseForSafety, safetyMatcher, SAFETY_LIMITS } from './phrases';

const all = safetyMatcher(Object.values(DEFAULT_SAFETY_PHRASES));

describe('safety phrases (SAFE-02)', () => {
  it('SAFE-02 every language has its built-in list, and each built-in phrase matches itself', () => {
    for (const lang of LANGUAGES) {
      const list = DEFAULT_SAFETY_PHRASES[lang];
      expect(list.length, lang).toBeGreaterThan(10);
      for (const phrase of list) expect(safetyMatcher([list]).test(`ok ${phrase} ok`), `${lang}: ${phrase}`).toBe(true);
    }
  });

  it('SAFE-02 asks for money, payment details, gift cards, crypto or another app: caught in every site language', () => {
    for (const text of [
      'Can you send me money for the ticket?',
      'Kun je wat geld overmaken? Mijn bankrekening is NL00BANK0123456789',
      'Schick mir bitte deine Kreditkarte Nummer… also die Kartennummer',
      'Add me on WhatsApp',
      'Buy me an iTunes card please',
      'Kauf mir eine Paysafecard',
      'Stuur me een cadeaukaart van bol',
      'I only take Bitcoin',
      'Envoie-moi de l’argent stp',
      'Jeg har brug for penge',
    ])
      expect(all.test(text), text).toBe(true);
  });

  it('SAFE-02 a Dutch member writing in English is caught by the English phrases (all languages are checked together)', () => {
    expect(safetyMatcher([DEFAULT_SAFETY_PHRASES.nl]).test('please wire transfer the money')).toBe(false);
    expect(all.test('please wire transfer the money')).toBe(true);
  });

  it('SAFE-02 case, accents, spaced-out letters, digits for letters and invisible characters do not hide a phrase', () => {
    for (const text of [
      'W H A T S A P P me',
      'w.h.a.t.s.a.p.p',
      'wh4tsapp',
      'b1tc0in only',
      'TELEGRAM',
      'what\u200Bsapp',
      'ÜBERWEISUNG bitte',
      'uberweisung bitte',
      'wyslij pieniadze',
      'gift cards',
      'giftcard',
      'western-union',
    ])
      expect(all.test(text), text).toBe(true);
  });

  it('SAFE-02 ordinary chat does not raise the notice: near words, other endings, numbers', () => {
    for (const text of [
      'Hoi! Hoe was je dag?',
      'I love a good text message',
      'Ik zit op de bank naar een film te kijken',
      'My phone is almost dead',
      'We could play cards tonight',
      'Ich heiße Kiki',
      'Zullen we koffie drinken?',
      'Dat nummer van Coldplay staat op repeat',
      'kikker',
      '06 12345678',
      '',
    ])
      expect(all.test(text), text).toBe(false);
  });

  it('SAFE-02 the normal form: lower case, no accents, punctuation as spaces, spelled letters joined', () => {
    expect(normaliseForSafety('  Ça  va? Ñandú — Straße ')).toBe('ca va nandu strasse');
    expect(normaliseForSafety('s e n d  m o n e y')).toBe('sendmoney');
    expect(normaliseForSafety('i am ok')).toBe('i am ok');
  });

  it('SAFE-02 a list as stored: trimmed, one space inside, no empties or repeats (by normal form), within the limits', () => {
    expect(cleanPhraseList(['  gift   card ', '', 'Gift Card', 'GIFT-CARD', 'paypal'])).toEqual(['gift card', 'paypal']);
    expect(cleanPhraseList(Array.from({ length: SAFETY_LIMITS.phrases + 5 }, (_, i) => `phrase ${i}`))).toHaveLength(SAFETY_LIMITS.phrases);
    expect(cleanPhraseList(['x'.repeat(200)])[0]).toHaveLength(SAFETY_LIMITS.phraseLength);
    expect(safetyMatcher([[]]).test('send money')).toBe(false);
  });
});
