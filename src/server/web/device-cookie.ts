/** Writing the device cookie (SEC-13): HttpOnly, SameSite=Lax, Secure behind HTTPS, a year. */
import type { AstroCookies } from 'astro';
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_MS } from '../auth/device-cookie';
import { cookieOptions } from './cookies';

/** The device cookie this browser sent, if any (checked by the login service, not here). */
export function readDeviceCookie(cookies: AstroCookies): string | null {
  return cookies.get(DEVICE_COOKIE)?.value ?? null;
}

/** Keeps the device cookie the login service issued; it outlives sessions and logouts on purpose. */
export function setDeviceCookie(cookies: AstroCookies, value: string, secure: boolean): void {
  cookies.set(DEVICE_COOKIE, value, cookieOptions(secure, DEVICE_COOKIE_TTL_MS / 1000));
}
