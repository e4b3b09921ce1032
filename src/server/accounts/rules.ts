/**
 * Signup and password rules (SIGN-03..05, AUTH-05; docs/decisions/007-signup-and-password-rule.md).
 * Pure functions: the signup service, the forms and the tests share them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Settings } from '../../shared/settings';

const require = createRequire(import.meta.url);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

let common: Set<string> | undefined;
/** The ~30,000 most common passwords (zxcvbn-ts's list), lower-cased. */
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set((dictionary['passwords-common'] ?? []).map((p) => p.toLowerCase()));
  }
  return common;
}

let disposable: Set<string> | undefined;
/** Domains of disposable mail services (the maintained `disposable-email-domains` list). */
function disposableDomains(): Set<string> {
  if (!disposable) {
    const path = require.resolve('disposable-email-domains/index.json');
    disposable = new Set(JSON.parse(readFileSync(path, 'utf8')) as string[]);
  }
  return disposable;
}

export type PasswordProblem = 'password_too_short' | 'password_too_long' | 'password_too_common' | 'password_like_email';

/**
 * Our password rule: 8 to 128 characters (any characters, spaces too), not one of the most common
 * passwords, and not the e-mail address or its name part.
 */
export function checkPassword(password: string, email = ''): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'password_too_short';
  if (length > PASSWORD_MAX) return 'password_too_long';
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'password_too_common';
  const local = email.toLowerCase().split('@')[0] ?? '';
  if (lower === email.toLowerCase() || (local.length >= 4 && lower === local)) return 'password_like_email';
  return null;
}

export function isDisposableEmail(email: string): boolean {
  const domain = email.toLowerCase().slice(email.lastIndexOf('@') + 1);
  if (disposableDomains().has(domain)) return true;
  // Subdomains of a disposable service (x.mailinator.com) count too.
  const parts = domain.split('.');
  for (let i = 1; i < parts.length - 1; i++) if (disposableDomains().has(parts.slice(i).join('.'))) return true;
  return false;
}

export type NameProblem = 'signup_name_equal_to_email' | 'signup_name_starts_with_at' | 'signup_name_length';

/** SIGN-03: the profile name must differ from the e-mail address and must not start with @. */
export function checkName(name: string, email: string): NameProblem | null {
  const trimmed = name.trim();
  if (trimmed.startsWith('@')) return 'signup_name_starts_with_at';
  if (trimmed.length < 2 || trimmed.length > 30) return 'signup_name_length';
  // The whole address typed into the name field (its name part alone is a fine profile name).
  if (trimmed.toLowerCase() === email.trim().toLowerCase() || (trimmed.includes('@') && trimmed.includes('.'))) return 'signup_name_equal_to_email';
  return null;
}

/** Whole years of age on `today` for a yyyy-mm-dd date, or null when the date is not a real date. */
export function ageFromBirthDate(value: string, today: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d)) age--;
  return age;
}

/** SIGN-04: a real date, at least the site's minimum age, and a plausible one (≤ 110). */
export function checkBirthDate(value: string, today: Date, minAge: number): 'date_of_birth_min_age' | null {
  const age = ageFromBirthDate(value, today);
  return age === null || age < minAge || age > 110 ? 'date_of_birth_min_age' : null;
}

/**
 * Why a visitor may not sign up on a site, or null when they may (AUTH-05, LND-04, SEC-09):
 * - `invite_only`: the site takes members by invitation only. Visitors can ask for an invitation
 *   (src/server/landers/invitations.ts); staff answer with a single-use link (LND-06), which the signup
 *   takes instead of this rule;
 * - `closed`: the site's `signups` setting is `other` (no signups here);
 * - `no_traffic_source`: `signups` is `with_trafficsource` and the visitor arrived without a tracking record.
 */
export type SignupClosedReason = 'invite_only' | 'closed' | 'no_traffic_source';

/** The signup rule of a site for one visitor (see {@link SignupClosedReason}). */
export function signupClosedReason(settings: Pick<Settings, 'signups' | 'invite_only'>, hasTrafficSource: boolean): SignupClosedReason | null {
  if (settings.invite_only) return 'invite_only';
  if (settings.signups === 'all') return null;
  if (settings.signups === 'with_trafficsource') return hasTrafficSource ? null : 'no_traffic_source';
  return 'closed';
}

/** AUTH-05, SEC-09: whether the visitor may sign up: not invite-only, and `signups` allows it (all, or with a traffic source). */
export function signupsAllowed(settings: Pick<Settings, 'signups' | 'invite_only'>, hasTrafficSource: boolean): boolean {
  return signupClosedReason(settings, hasTrafficSource) === null;
}

/** The latest birth date that is old enough today (for the date input's max). */
export function maxBirthDate(today: Date, minAge: number): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() - minAge, today.getUTCMonth(), today.getUTCDate()));
  return d.toISOString().slice(0, 10);
}
