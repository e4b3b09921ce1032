/**
 * The request context: what every page, endpoint and request-scoped service needs, built once per
 * request by the middleware (src/middleware.ts) and handed around as `Astro.locals`. Services take this
 * plain object (or a few of its fields) and never Astro's APIContext or cookies, so they are tested by
 * building a context by hand (docs/decisions/013-request-context-and-dependencies.md).
 */
import type { Language } from '../../shared/languages';
import type { Translate } from '../../i18n';
import type { AppContext } from '../app';
import type { Logger } from '../logger';
import type { CurrentUser } from '../members/account';
import type { SearchDefaults } from '../members/search';
import type { Site } from '../sites/directory';
import type { Tracking } from '../../shared/tracking';

export interface RequestContext {
  /** Process-wide services (database, sites, mail, push, bus), handed in by the HTTP server. */
  app: AppContext;
  requestId: string;
  /** The app's logger with this request's id. */
  log: Logger;
  /** The site the request's host selects (SITE-01). */
  site: Site;
  /** The signed-in member, or null for a visitor. */
  user: CurrentUser | null;
  /** The session behind `user` (null for visitors). */
  sessionId: string | null;
  /** The member's alert dismissals as the session lookup read them (absent for visitors). */
  dismissals?: Record<string, string>;
  /**
   * The members blocked by or blocking the signed-in member (BLK-01), as a page request's session lookup
   * read them; absent for visitors and API calls (their lists ask the database, `listedTo`).
   */
  blocked?: ReadonlySet<number>;
  /** The signed-in member's own search defaults, as a page request's session lookup read them; absent otherwise. */
  searchDefaults?: SearchDefaults;
  lang: Language;
  t: Translate;
  /** The visitor's country: the CDN's header behind a trusted proxy, else the site's geoip setting. */
  country: string;
  /** The adult-content entry warning was accepted before (cookie). */
  entryAccepted: boolean;
  /** The tracking record (CLI-04) the visitor arrived with: from this request's query, else the cookie. */
  tracking: Tracking | null;
  /** The client's address after the trusted proxies (SEC-01), or null. */
  clientIp: string | null;
  userAgent: string | null;
  /** The browser spoke HTTPS (directly or through the trusted proxy): cookies get Secure, answers HSTS. */
  secure: boolean;
  /** This request's own origin as the browser sees it (`https://host` behind a TLS proxy). */
  origin: string;
  /**
   * The origin for links in mail: the request's origin when its host is registered for the site, else
   * `https://<site domain>`, so a forged Host header never receives a member's token.
   */
  linkOrigin: string;
  /**
   * Settles once the response has been sent (or the connection closed). Work a request starts in the
   * background (`app.background`, a reset mail) waits for it, so it never competes with the answer.
   */
  responseDone: Promise<void>;
  /**
   * The status the error page (500.astro) answers an error with, e.g. 400 for input the database refused.
   * Astro sends its /500 route as a 500 whatever the page sets, so the outermost middleware applies it.
   */
  errorStatus?: number;
}

/** Thrown by `requireMember` in a page: the middleware answers with a redirect to the login page. */
export class LoginRequired extends Error {
  constructor(public readonly next: string) {
    super('login required');
    this.name = 'LoginRequired';
  }
}

/**
 * The signed-in member, or (for a visitor) a `LoginRequired` the middleware turns into a redirect to
 * `/login?next=<this page>`; API endpoints answer `authentication_required` instead (see `endpoint`).
 */
export function requireMember(ctx: Pick<RequestContext, 'user'>, next: string): CurrentUser {
  if (!ctx.user) throw new LoginRequired(next);
  return ctx.user;
}
