/** Cookie options in one place (ARCHITECTURE security baseline). */
import type { AstroCookieSetOptions } from 'astro';

/** HttpOnly (unless a script must read it), SameSite=Lax, Secure when the browser spoke HTTPS (`ctx.secure`). */
export function cookieOptions(secure: boolean, maxAgeSeconds: number, httpOnly = true): AstroCookieSetOptions {
  return { path: '/', httpOnly, sameSite: 'lax', secure, maxAge: maxAgeSeconds };
}
