/**
 * Every request passes here. It builds the request context once (src/server/request-context.ts): the
 * client's address and scheme after the trusted proxies, the site by host, the session → user, the
 * language → t and the site's texts in that language, the tracking record; refuses cross-site writes; and sets the response headers that
 * depend on them. Pages and endpoints read `Astro.locals` and hand it to services.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { randomUUID } from 'node:crypto';
import { createTranslator } from './i18n';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from './shared/languages';
import { loadSessionMember } from './server/session/lookup';
import { knowMemberCounts } from './server/session/counts';
import { SESSION_COOKIE, SESSION_TTL_MS } from './server/auth/sessions';
import { chooseLanguage } from './server/web/locale';
import { localiseSite } from './server/sites/texts';
import { visitorCountry } from './server/web/visitor';
import { TRACKING_COOKIE, trackingFromCookie, trackingFromQuery } from './shared/tracking';
import { cookieOptions } from './server/web/cookies';
import { ENTRY_COOKIE } from './shared/entry-cookie';
import { applyHtmlSecurityHeaders, HSTS } from './server/web/headers';
import { linkOriginFor } from './server/web/link-origin';
import { requestEdge } from './server/config/proxy';
import { crossSiteWriteRefusal } from './server/web/origin-check';
import { LoginRequired } from './server/web/request-context';
import { answerSafely } from './server/web/safety-net';

/** The safety net of every page (src/server/http/safety-net.ts): input errors answer 400, the error page's own status. */
const safetyNet = defineMiddleware(({ locals }, next) => answerSafely(locals, next));

/** The app context, the request id and logger, and what the proxies in front tell about the client. */
const context = defineMiddleware(async ({ locals, request, url, clientAddress }, next) => {
  if (!locals.app) {
    // `astro dev` has no server/main.ts around it: build the context once for the dev server.
    const { devAppContext } = await import('./runtime/dev-app');
    locals.app = await devAppContext();
  }
  const { app } = locals;
  locals.requestId ??= randomUUID();
  locals.log ??= app.log.child({ reqId: locals.requestId });
  // Handed in by our HTTP server; under `astro dev` background work simply starts at once.
  locals.responseDone ??= Promise.resolve();
  let peer: string | undefined;
  try {
    peer = clientAddress;
  } catch {
    peer = undefined;
  }
  const edge = requestEdge(request.headers, peer, url.protocol === 'https:', app.config.trustedProxies);
  locals.clientIp = edge.clientIp;
  locals.secure = edge.secure;
  locals.origin = `${edge.secure ? 'https' : 'http'}://${url.host}`;
  locals.userAgent = request.headers.get('user-agent')?.slice(0, 300) ?? null;
  const { site, registered } = await app.sites.resolveHost(request.headers.get('host') ?? url.host);
  locals.site = site;
  locals.linkOrigin = linkOriginFor(site, registered, locals.origin);
  locals.country = visitorCountry(request.headers, app.config.COUNTRY_HEADER, site.settings, edge.viaProxy);
  return next();
});

/**
 * Cross-site writes are refused (ARCHITECTURE: origin check on state-changing requests). This replaces
 * Astro's `security.checkOrigin`, which compares the Origin header with the URL the adapter built from
 * the socket and so refused every form behind a TLS proxy (SEC-01): here the origin carries the scheme
 * the browser used.
 */
const originCheck = defineMiddleware(({ locals, request, url }, next) => {
  const refusal = crossSiteWriteRefusal(request, locals.origin, url.pathname, (key) => String(locals.t(key)));
  return refusal ?? next();
});

/**
 * The session → the member. A page (a GET outside the API, the photos and the back office) shows the
 * member's badge counts in its navigation, so for it they come in the same query (src/server/members/counts.ts).
 */
const session = defineMiddleware(async ({ locals, cookies, request, url }, next) => {
  const { app } = locals;
  locals.user = null;
  locals.sessionId = null;
  const token = cookies.get(SESSION_COOKIE)?.value;
  if (token) {
    const counts = request.method === 'GET' && !/^\/(api|photos|admin)\//.test(url.pathname);
    const member = await loadSessionMember(app.db, app.clock, token, locals.site.settings.id, { counts });
    if (member) {
      locals.user = member.user;
      locals.sessionId = member.session.id;
      locals.dismissals = member.dismissals;
      if (member.counts) knowMemberCounts(locals, member.counts);
      if (member.blocked) locals.blocked = member.blocked;
      if (member.searchDefaults) locals.searchDefaults = member.searchDefaults;
      if (member.renewed) cookies.set(SESSION_COOKIE, token, cookieOptions(locals.secure, SESSION_TTL_MS / 1000));
    }
    if (!locals.user) cookies.delete(SESSION_COOKIE, { path: '/' });
  }
  return next();
});

const visitor = defineMiddleware(async ({ locals, cookies, url }, next) => {
  const choice = chooseLanguage(cookies.get(LANGUAGE_COOKIE)?.value, locals.site.settings);
  locals.lang = choice.lang;
  locals.t = createTranslator(choice.lang);
  // From here on the site's own texts (index_title, description, fictional_*) are in the request's language.
  locals.site = localiseSite(locals.site, choice.lang);
  if (choice.setCookie) cookies.set(LANGUAGE_COOKIE, choice.lang, cookieOptions(locals.secure, LANGUAGE_COOKIE_MAX_AGE, false));
  locals.entryAccepted = cookies.get(ENTRY_COOKIE)?.value === '1';
  const tracking = trackingFromQuery(url.searchParams);
  if (tracking) cookies.set(TRACKING_COOKIE, JSON.stringify(tracking), cookieOptions(locals.secure, 30 * 24 * 3600));
  locals.tracking = tracking ?? trackingFromCookie(cookies.get(TRACKING_COOKIE)?.value);
  return next();
});

/** A page that called `requireMember` for a visitor: to the login page, and back here afterwards. */
const loginGuard = defineMiddleware(async ({ redirect }, next) => {
  try {
    return await next();
  } catch (err) {
    if (err instanceof LoginRequired) return redirect(`/login?next=${encodeURIComponent(err.next)}`, 302);
    throw err;
  }
});

/**
 * Response headers that depend on the request (I18N-02, caching, SEC-10). HTML is rendered in the
 * cookie's language for the cookie's session, so it says which language (Content-Language) and that it
 * varies by cookie (Vary: Cookie). A member's page is never stored anywhere (`private, no-store`: it
 * holds their name, credits, conversations); a visitor's page may be kept by the browser only and must
 * be revalidated (`private, no-cache`) unless the page chose otherwise. Back-office pages are `no-store`. Non-HTML answers (API, photos,
 * robots.txt, sitemap) set their own Cache-Control. Every answer to an HTTPS request carries HSTS.
 */
const headers = defineMiddleware(async ({ locals, url }, next) => {
  const response = await next();
  response.headers.set('x-request-id', locals.requestId);
  if (locals.secure) response.headers.set('strict-transport-security', HSTS);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html')) {
    response.headers.set('content-language', locals.lang);
    const vary = response.headers.get('vary') ?? '';
    if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(vary)) response.headers.append('vary', 'Cookie');
    // The back office's pages hold what its staff may see: never stored, like a member's (PERF-01 too).
    if (locals.user || url.pathname === '/admin' || url.pathname.startsWith('/admin/')) response.headers.set('cache-control', 'private, no-store');
    else if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'private, no-cache');
    // Astro wrote the page's Content-Security-Policy with the hashes of its inline scripts (decision 015).
    applyHtmlSecurityHeaders(response.headers, { dev: import.meta.env.DEV });
  }
  return response;
});

export const onRequest = sequence(safetyNet, context, headers, session, visitor, originCheck, loginGuard);
