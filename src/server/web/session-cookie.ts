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

const PROBE_ORIGIN = 'http://same-site.invalid';

/**
 * A redirect target from user input (SEC-02): only a path on this site, returned in its normalised form,
 * else `fallback`. Refused: anything that is not a path ("https://…", "//host", "/\\host"), control
 * characters and whitespace (browsers drop a tab or a line break, so "/\t/evil.example" would become
 * "//evil.example"), backslashes, and encoded slashes, backslashes or control characters, which a later
 * decoding could turn into any of those.
 */
export function safeNext(value: string | null | undefined, fallback: string): string {
  if (!value || value.length > 500) return fallback;
  if (!value.startsWith('/') || value.startsWith('//')) return fallback;
  if (/[\\\s\p{Cc}\p{Cf}]/u.test(value)) return fallback;
  if (/%(2f|5c|0[0-9a-f]|1[0-9a-f]|7f)/i.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return fallback;
  return url.pathname + url.search + url.hash;
}
