/**
 * The direct-debit form's fields (DD-01): account holder, IBAN (checksum and SEPA country, ibantools),
 * street, house number, zip, city and a mobile number (libphonenumber-js, stored in E.164). Every
 * field answers a stable code; the page translates it.
 */
import { electronicFormatIBAN, isSEPACountry, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

export const MANDATE_FIELDS = ['accountHolder', 'iban', 'street', 'houseNumber', 'zip', 'city', 'mobile'] as const;
export type MandateField = (typeof MANDATE_FIELDS)[number];

export const FIELD_MAX: Record<MandateField, number> = { accountHolder: 70, iban: 42, street: 100, houseNumber: 12, zip: 10, city: 60, mobile: 24 };

export type FieldError = 'required' | 'too_long' | 'invalid' | 'iban_country' | 'iban_checksum' | 'mobile_not_mobile' | 'blocked';

export interface MandateDetails {
  accountHolder: string;
  /** Electronic format (NL91ABNA0417164300). */
  iban: string;
  street: string;
  houseNumber: string;
  zip: string;
  city: string;
  /** E.164 (+31612345678). */
  mobile: string;
}

export type DetailsCheck = { ok: true; details: MandateDetails } | { ok: false; fields: Partial<Record<MandateField, FieldError>>; values: Record<MandateField, string> };

// Letters of any script, marks, spaces and the punctuation of names and addresses; no control characters or markup.
const TEXT_SHAPE = /^[\p{L}\p{M}\p{N} .,'’&()/-]+$/u;
const HOUSE_NUMBER = /^[0-9]{1,6}(?:[ -]?[\p{L}0-9]{1,5})?$/u;
const ZIP = /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

function clean(value: string): string {
  return value.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The IBAN as typed → electronic format, or the reason it is refused. */
export function checkIban(input: string): { ok: true; iban: string } | { ok: false; error: FieldError } {
  const iban = electronicFormatIBAN(input) ?? '';
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{8,30}$/.test(iban)) return { ok: false, error: 'invalid' };
  const result = validateIBAN(iban);
  if (!result.valid) {
    const codes = result.errorCodes;
    if (codes.includes(ValidationErrorsIBAN.NoIBANCountry)) return { ok: false, error: 'iban_country' };
    if (codes.some((c) => c === ValidationErrorsIBAN.WrongIBANChecksum || c === ValidationErrorsIBAN.ChecksumNotNumber || c === ValidationErrorsIBAN.WrongAccountBankBranchChecksum))
      return { ok: false, error: 'iban_checksum' };
    return { ok: false, error: 'invalid' };
  }
  if (!isSEPACountry(iban.slice(0, 2))) return { ok: false, error: 'iban_country' };
  return { ok: true, iban };
}

/** A mobile number as typed (national numbers read in the member's country) → E.164, or the reason it is refused. */
export function checkMobile(input: string, country: string): { ok: true; mobile: string } | { ok: false; error: FieldError } {
  const typed = input.replace(/[^0-9+]/g, '');
  if (!/^\+?[0-9]{6,16}$/.test(typed)) return { ok: false, error: 'invalid' };
  const phone = parsePhoneNumberFromString(typed, country.toUpperCase() as CountryCode);
  if (!phone || !phone.isValid()) return { ok: false, error: 'invalid' };
  const type = phone.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return { ok: false, error: 'mobile_not_mobile' };
  return { ok: true, mobile: phone.number };
}

/** Checks the whole form; a refusal carries the cleaned values to show again. */
export function checkDetails(raw: Partial<Record<MandateField, string>>, country: string): DetailsCheck {
  const values = Object.fromEntries(MANDATE_FIELDS.map((f) => [f, clean(String(raw[f] ?? '')).slice(0, FIELD_MAX[f] * 2)])) as Record<MandateField, string>;
  const fields: Partial<Record<MandateField, FieldError>> = {};
  for (const f of MANDATE_FIELDS) {
    if (values[f] === '') fields[f] = 'required';
    else if (values[f].length > FIELD_MAX[f]) fields[f] = 'too_long';
  }
  for (const f of ['accountHolder', 'street', 'city'] as const) {
    if (!fields[f] && (!TEXT_SHAPE.test(values[f]) || !/\p{L}/u.test(values[f]))) fields[f] = 'invalid';
  }
  if (!fields.houseNumber && !HOUSE_NUMBER.test(values.houseNumber)) fields.houseNumber = 'invalid';
  if (!fields.zip && !ZIP.test(values.zip)) fields.zip = 'invalid';
  let iban = '';
  if (!fields.iban) {
    const checked = checkIban(values.iban);
    if (checked.ok) iban = checked.iban;
    else fields.iban = checked.error;
  }
  let mobile = '';
  if (!fields.mobile) {
    const checked = checkMobile(values.mobile, country);
    if (checked.ok) mobile = checked.mobile;
    else fields.mobile = checked.error;
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields, values };
  return { ok: true, details: { accountHolder: values.accountHolder, iban, street: values.street, houseNumber: values.houseNumber, zip: values.zip.toUpperCase(), city: values.city, mobile } };
}

/** NL91 **** **** **43 00: enough for the member to recognise the account, not to reuse it. */
export function maskIban(iban: string): string {
  const masked = iban.slice(0, 4) + iban.slice(4, -4).replace(/./g, '*') + iban.slice(-4);
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}

/** +31 6 ** ** 56 78 style: the last four digits only. */
export function maskMobile(mobile: string): string {
  return mobile.slice(0, 3) + mobile.slice(3, -4).replace(/[0-9]/g, '•') + mobile.slice(-4);
}
