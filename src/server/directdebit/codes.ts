/**
 * SMS codes for direct-debit mandates (DD-02): six random digits, stored only as a keyed hash with a
 * salt of their own, valid for CODE_TTL_MS and used once. Pure functions: the service keeps the rows.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes since the last right one after which the member is blocked for direct debit. */
export const MAX_WRONG_CODES = 3;

/** Six digits from the system's cryptographic random source, leading zeros kept. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/** HMAC-SHA256 of salt and code under the server's secret: a database copy alone cannot try the million codes. */
export function hashCode(secret: Buffer, salt: string, code: string): string {
  return createHmac('sha256', secret).update(`${salt}:${code}`).digest('base64url');
}

/** What a member typed, cleaned: digits only (spaces and dashes a phone keyboard adds are dropped). */
export function normaliseCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return new RegExp(`^[0-9]{${CODE_LENGTH}}$`).test(digits) ? digits : null;
}

export interface StoredCode {
  codeHash: string;
  salt: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'used';

/** Checks a typed code against a stored one at `now`; the hash comparison takes constant time. */
export function checkCode(secret: Buffer, stored: StoredCode, typed: string, now: Date): CodeCheck {
  if (stored.usedAt) return 'used';
  if (stored.expiresAt.getTime() <= now.getTime()) return 'expired';
  const code = normaliseCode(typed);
  if (!code) return 'wrong';
  const given = Buffer.from(hashCode(secret, stored.salt, code));
  const expected = Buffer.from(stored.codeHash);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'wrong';
}
