/** Cookie options in one place (ARCHITECTURE security baseline). */
import type { AstroCookieSetOptions } from 'astro';

/** Secure when the request came over HTTPS (directly, or via a trusted proxy's X-Forwarded-Proto). */
export function isSecureRequest(url: URL, headers: Headers, trustProxy: boolean): boolean {
  if (url.protocol === 'https:') return true;
  return trustProxy && headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function cookieOptions(secure: boolean, maxAgeSeconds: number, httpOnly = true): AstroCookieSetOptions {
  return { path: '/', httpOnly, sameSite: 'lax', secure, maxAge: maxAgeSeconds };
}
