/**
 * What makes one of this app's pages differ between visitors, for the render cache (./render-cache.ts):
 * a member's or staff member's session (never shared), the language, the accepted entry warning and a
 * tracking record; the back office is never shared whatever cookies come with it.
 */
import { SESSION_COOKIE } from '../server/auth/sessions';
import { STAFF_COOKIE } from '../server/staff/sessions';
import { ENTRY_COOKIE } from '../shared/entry-cookie';
import { LANGUAGE_COOKIE } from '../shared/languages';
import { TRACKING_COOKIE, TRACKING_KEYS, trackingFromCookie } from '../shared/tracking';
import type { PageKeys } from './render-cache';

export const APP_PAGE_KEYS: PageKeys = {
  privateCookies: [SESSION_COOKIE, STAFF_COOKIE],
  languageCookie: LANGUAGE_COOKIE,
  entryCookie: ENTRY_COOKIE,
  trackingCookie: TRACKING_COOKIE,
  hasTracking: (value) => trackingFromCookie(value) !== null,
  trackingParams: TRACKING_KEYS,
  privatePaths: /^\/admin(?:[/?#]|$)/,
};
