/** Writing and clearing the session cookie (AUTH-04): HttpOnly, SameSite=Lax, Secure behind HTTPS, 30 days. */
import type { AstroCookies } from 'astro';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../auth/sessions';
import { cookieOptions } from './cookies';

export function setSessionCookie(cookies: AstroCookies, token: string, secure: boolean): void {
  cookies.set(SESSION_COOKIE, token, cookieOptions(secure, SESSION_TTL_MS / 1000));
}

export function clearSessionCookie(cookies: AstroCookies): void {
  cookies.delete(SESSION_COOKIE, { path: '/' });
}

/** A redirect target from user input: only paths on this site ("/x"), never "//host" or "/\\host". */
export function safeNext(value: string | null | undefined, fallback: string): string {
  if (!value || value.length > 500 || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
