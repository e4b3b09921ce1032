/**
 * Every request passes here: the site by host, the session → locals.user, the language → locals.t,
 * the tracking record, and the response headers that depend on them.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { randomUUID } from 'node:crypto';
import { createTranslator } from './i18n';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from './shared/languages';
import { loadCurrentUser } from './server/members/account';
import { SESSION_COOKIE, SESSION_TTL_MS, validateSessionToken } from './server/auth/sessions';
import { chooseLanguage } from './server/web/locale';
import { TRACKING_COOKIE, trackingFromQuery, visitorCountry } from './server/web/visitor';
import { cookieOptions, isSecureRequest } from './server/web/cookies';
import { ENTRY_COOKIE } from './server/web/entry';
import { securityHeaders } from './server/web/headers';

const context = defineMiddleware(async ({ locals }, next) => {
  if (!locals.app) {
    // `astro dev` has no server/main.ts around it: build the context once for the dev server.
    const { devAppContext } = await import('./server/dev-app');
    locals.app = await devAppContext();
  }
  locals.requestId ??= randomUUID();
  locals.log ??= locals.app.log.child({ reqId: locals.requestId });
  return next();
});

const site = defineMiddleware(async ({ locals, request, url, cookies }, next) => {
  const { app } = locals;
  locals.site = await app.sites.forHost(request.headers.get('host') ?? url.hostname);
  locals.country = visitorCountry(request.headers, app.config.COUNTRY_HEADER, locals.site.settings);
  locals.entryAccepted = cookies.get(ENTRY_COOKIE)?.value === '1';
  return next();
});

const session = defineMiddleware(async ({ locals, cookies, url, request }, next) => {
  const { app } = locals;
  locals.user = null;
  locals.sessionId = null;
  const token = cookies.get(SESSION_COOKIE)?.value;
  if (token) {
    const valid = await validateSessionToken(app.db, app.clock, token, locals.site.settings.id);
    if (valid) {
      locals.user = await loadCurrentUser(app.db, valid.session.userId);
      locals.sessionId = locals.user ? valid.session.id : null;
      if (locals.user && valid.renewed) {
        const secure = isSecureRequest(url, request.headers, app.config.TRUST_PROXY);
        cookies.set(SESSION_COOKIE, token, cookieOptions(secure, SESSION_TTL_MS / 1000));
      }
    }
    if (!locals.user) cookies.delete(SESSION_COOKIE, { path: '/' });
  }
  return next();
});

const locale = defineMiddleware(async ({ locals, cookies, url, request }, next) => {
  const choice = chooseLanguage(cookies.get(LANGUAGE_COOKIE)?.value, locals.site.settings);
  locals.lang = choice.lang;
  locals.t = createTranslator(choice.lang);
  const secure = isSecureRequest(url, request.headers, locals.app.config.TRUST_PROXY);
  if (choice.setCookie) cookies.set(LANGUAGE_COOKIE, choice.lang, cookieOptions(secure, LANGUAGE_COOKIE_MAX_AGE, false));
  const tracking = trackingFromQuery(url.searchParams);
  if (tracking) cookies.set(TRACKING_COOKIE, JSON.stringify(tracking), cookieOptions(secure, 30 * 24 * 3600));
  return next();
});

/**
 * Response headers that depend on the request (I18N-02, caching). HTML is rendered in the cookie's
 * language for the cookie's session, so it says which language (Content-Language) and that it varies by
 * cookie (Vary: Cookie). A member's page is never stored anywhere (`private, no-store`: it holds their
 * name, credits, conversations); a visitor's page may be kept by the browser only and must be revalidated
 * (`private, no-cache`) unless the page chose otherwise. Non-HTML answers (API, photos, robots.txt,
 * sitemap) set their own Cache-Control.
 */
const headers = defineMiddleware(async ({ locals, url }, next) => {
  const response = await next();
  response.headers.set('x-request-id', locals.requestId);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html')) {
    response.headers.set('content-language', locals.lang);
    const vary = response.headers.get('vary') ?? '';
    if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(vary)) response.headers.append('vary', 'Cookie');
    if (locals.user) response.headers.set('cache-control', 'private, no-store');
    else if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'private, no-cache');
    for (const [name, value] of Object.entries(securityHeaders(url))) response.headers.set(name, value);
  }
  return response;
});

export const onRequest = sequence(context, site, session, locale, headers);
