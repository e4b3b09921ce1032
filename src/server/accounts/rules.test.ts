import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../i18n';
import { LANGUAGES, type Language } from '../../shared/languages';
import { isValidEmail, suggestEmail } from '../../shared/email';
import { ageFromBirthDate, checkBirthDate, checkName, checkPassword, isDisposableEmail, maxBirthDate, signupClosedReason, signupsAllowed } from './rules';

const today = new Date('2026-11-21T12:00:00Z');

describe('signup rules', () => {
  it('SIGN-03 the name must differ from the e-mail address and must not start with @', () => {
    expect(checkName('sanne@example.com', 'sanne@example.com')).toBe('signup_name_equal_to_email');
    expect(checkName('SANNE@example.com ', 'sanne@example.com')).toBe('signup_name_equal_to_email');
    expect(checkName('other@example.org', 'sanne@example.com')).toBe('signup_name_equal_to_email');
    expect(checkName('sanne', 'sanne@example.com')).toBeNull();
    expect(checkName('@sanne', 'x@example.com')).toBe('signup_name_starts_with_at');
    expect(checkName('S', 'x@example.com')).toBe('signup_name_length');
    expect(checkName('Sanne', 'x@example.com')).toBeNull();
  });

  it('SIGN-04 the date of birth must be a real date at least the minimum age ago', () => {
    expect(ageFromBirthDate('2008-11-21', today)).toBe(18);
    expect(ageFromBirthDate('2008-11-22', today)).toBe(17);
    expect(ageFromBirthDate('2001-02-30', today)).toBeNull();
    expect(checkBirthDate('2008-11-21', today, 18)).toBeNull();
    expect(checkBirthDate('2008-11-22', today, 18)).toBe('date_of_birth_min_age');
    expect(checkBirthDate('2000-01-01', today, 30)).toBe('date_of_birth_min_age');
    expect(checkBirthDate('1900-01-01', today, 18)).toBe('date_of_birth_min_age');
    expect(checkBirthDate('yesterday', today, 18)).toBe('date_of_birth_min_age');
    expect(maxBirthDate(today, 18)).toBe('2008-11-21');
  });

  /** The word for "adults" in each language's under-age message. */
  const ADULTS: Record<Language, string> = {
    en: 'adults',
    nl: 'volwassenen',
    de: 'Erwachsene',
    fr: 'adultes',
    es: 'adultos',
    it: 'adulti',
    pl: 'dorosłych',
    da: 'voksne',
    fi: 'aikuisille',
    nb: 'voksne',
    sv: 'vuxna',
  };

  it.each(LANGUAGES)('SIGN-04 in %s the under-age message names the site’s minimum age and says the site is for adults', (lang) => {
    const t = createTranslator(lang);
    const text = t('errors:date_of_birth_min_age', { min_age: 21 });
    expect(text).toContain('21');
    expect(text).not.toContain('{{');
    expect(text).toContain(ADULTS[lang]);
  });

  it('SIGN-05 invalid addresses are refused and mistyped domains get a suggestion', () => {
    expect(isValidEmail('sanne@example.com')).toBe(true);
    for (const bad of ['sanne', 'sanne@', '@example.com', 'san ne@example.com', 'sanne@example', 'a@b..com']) expect(isValidEmail(bad), bad).toBe(false);
    expect(suggestEmail('sanne@gmial.com')).toBe('sanne@gmail.com');
    expect(suggestEmail('sanne@hotmial.nl')).toBe('sanne@hotmail.nl');
    expect(suggestEmail('sanne@gmail.com')).toBeNull();
    expect(suggestEmail('sanne@ziggo.nl')).toBeNull();
  });

  it('SIGN-05 addresses at disposable mail services are refused', () => {
    expect(isDisposableEmail('x@mailinator.com')).toBe(true);
    expect(isDisposableEmail('x@sub.mailinator.com')).toBe(true);
    expect(isDisposableEmail('x@gmail.com')).toBe(false);
  });

  it('SIGN-03 password rule: 8 to 128 characters, not common, not the e-mail address', () => {
    expect(checkPassword('short1')).toBe('password_too_short');
    expect(checkPassword('a'.repeat(129))).toBe('password_too_long');
    expect(checkPassword('a'.repeat(64) + 'B1!')).toBeNull();
    expect(checkPassword('password123')).toBe('password_too_common');
    expect(checkPassword('iloveyou')).toBe('password_too_common');
    expect(checkPassword('sanne.devries', 'sanne.devries@example.com')).toBe('password_like_email');
    expect(checkPassword('zonnige-dinsdag-42')).toBeNull();
  });

  it('AUTH-05 signups follow the site setting: all, only with a traffic source, or closed', () => {
    expect(signupsAllowed({ signups: 'all', invite_only: false }, false)).toBe(true);
    expect(signupsAllowed({ signups: 'with_trafficsource', invite_only: false }, false)).toBe(false);
    expect(signupsAllowed({ signups: 'with_trafficsource', invite_only: false }, true)).toBe(true);
    expect(signupsAllowed({ signups: 'other', invite_only: false }, true)).toBe(false);
    expect(signupClosedReason({ signups: 'with_trafficsource', invite_only: false }, false)).toBe('no_traffic_source');
    expect(signupClosedReason({ signups: 'other', invite_only: false }, true)).toBe('closed');
  });

  it('SEC-09 LND-04 an invite-only site takes no self-signups, whatever its signups setting and the traffic source', () => {
    for (const signups of ['all', 'with_trafficsource', 'other'] as const) {
      for (const source of [true, false]) {
        expect(signupsAllowed({ signups, invite_only: true }, source)).toBe(false);
        expect(signupClosedReason({ signups, invite_only: true }, source)).toBe('invite_only');
      }
    }
  });
});
