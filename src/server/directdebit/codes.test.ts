import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCode, CODE_TTL_MS, generateCode, hashCode, newSalt, normaliseCode } from './codes';
import { checkDetails, checkIban, checkMobile, maskIban } from './validate';
import { newMandateReference } from './service';

const secret = randomBytes(32);
const at = new Date('2026-11-25T12:00:00Z');
function stored(code: string, overrides: { expiresAt?: Date; usedAt?: Date | null } = {}) {
  const salt = newSalt();
  return { codeHash: hashCode(secret, salt, code), salt, expiresAt: overrides.expiresAt ?? new Date(at.getTime() + CODE_TTL_MS), usedAt: overrides.usedAt ?? null };
}

describe('SMS codes', () => {
  it('DD-02 codes are six random digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const c of codes) expect(c).toMatch(/^[0-9]{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it('DD-02 only a keyed, salted hash is kept: the same code hashes differently per salt and per secret, never to the code itself', () => {
    const a = hashCode(secret, 'salt-a', '123456');
    expect(a).not.toContain('123456');
    expect(hashCode(secret, 'salt-b', '123456')).not.toBe(a);
    expect(hashCode(randomBytes(32), 'salt-a', '123456')).not.toBe(a);
    expect(hashCode(secret, 'salt-a', '123456')).toBe(a);
  });

  it('DD-02 the right code is ok until it expires; a wrong one is wrong; spaces and dashes are ignored', () => {
    const row = stored('042917');
    expect(checkCode(secret, row, '042917', at)).toBe('ok');
    expect(checkCode(secret, row, '042 917', at)).toBe('ok');
    expect(checkCode(secret, row, '042-917', at)).toBe('ok');
    expect(checkCode(secret, row, '042918', at)).toBe('wrong');
    expect(checkCode(secret, row, '42917', at)).toBe('wrong');
    expect(checkCode(secret, row, 'abcdef', at)).toBe('wrong');
    expect(checkCode(secret, row, '042917', new Date(at.getTime() + CODE_TTL_MS - 1))).toBe('ok');
    expect(checkCode(secret, row, '042917', new Date(at.getTime() + CODE_TTL_MS))).toBe('expired');
  });

  it('DD-02 a used code is used, even when it is typed right and not expired; an expired one stays expired', () => {
    expect(checkCode(secret, stored('111111', { usedAt: at }), '111111', at)).toBe('used');
    expect(checkCode(secret, stored('111111', { expiresAt: new Date(at.getTime() - 1) }), '111111', at)).toBe('expired');
  });

  it('DD-02 normaliseCode takes six digits only', () => {
    expect(normaliseCode(' 12 34 56 ')).toBe('123456');
    expect(normaliseCode('1234567')).toBeNull();
    expect(normaliseCode('12345x')).toBeNull();
    expect(normaliseCode('')).toBeNull();
  });
});

describe('direct-debit details', () => {
  const good = { accountHolder: 'Anna de Vries', iban: 'nl91 abna 0417 1643 00', street: 'Keizersgracht', houseNumber: '12a', zip: '1015 cj', city: 'Amsterdam', mobile: '06 12345678' };

  it('DD-01 a good form is cleaned: IBAN in electronic format, mobile in E.164, zip upper case', () => {
    const checked = checkDetails(good, 'NL');
    expect(checked).toEqual({ ok: true, details: { ...good, iban: 'NL91ABNA0417164300', zip: '1015 CJ', mobile: '+31612345678' } });
  });

  it('DD-01 IBANs: wrong checksum, unknown country, non-SEPA country and garbage are refused with their reason', () => {
    expect(checkIban('NL91ABNA0417164301')).toEqual({ ok: false, error: 'iban_checksum' });
    expect(checkIban('XX91ABNA0417164300')).toEqual({ ok: false, error: 'iban_country' });
    // Brazil has IBANs, but is not in SEPA.
    expect(checkIban('BR1800360305000010009795493C1')).toEqual({ ok: false, error: 'iban_country' });
    expect(checkIban('hello')).toEqual({ ok: false, error: 'invalid' });
    expect(checkIban('NL91ABNA041716430')).not.toMatchObject({ ok: true });
    expect(checkIban('DE89 3704 0044 0532 0130 00')).toEqual({ ok: true, iban: 'DE89370400440532013000' });
  });

  it('DD-01 phones: a landline is not a mobile; nonsense is invalid; an international mobile is read as such', () => {
    expect(checkMobile('020 1234567', 'NL')).toEqual({ ok: false, error: 'mobile_not_mobile' });
    expect(checkMobile('12', 'NL')).toEqual({ ok: false, error: 'invalid' });
    expect(checkMobile('06 1234', 'NL')).toEqual({ ok: false, error: 'invalid' });
    expect(checkMobile('+49 1512 3456789', 'NL')).toEqual({ ok: true, mobile: '+4915123456789' });
  });

  it('DD-01 empty, too long and markup are refused per field', () => {
    const checked = checkDetails({ ...good, accountHolder: '', street: 'x'.repeat(101), city: '<script>', houseNumber: 'abc' }, 'NL');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.fields).toEqual({ accountHolder: 'required', street: 'too_long', city: 'invalid', houseNumber: 'invalid' });
  });

  it('DD-01 the IBAN is shown masked and the mandate reference fits SEPA (35 characters, A-Z 0-9 -)', () => {
    expect(maskIban('NL91ABNA0417164300')).toBe('NL91 **** **** **43 00');
    const ref = newMandateReference(12, 123456789);
    expect(ref).toMatch(/^[A-Z0-9-]{1,35}$/);
    expect(newMandateReference(12, 1)).not.toBe(newMandateReference(12, 1));
  });
});
