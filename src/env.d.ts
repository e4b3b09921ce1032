/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Process-wide services (database, sites, logger), handed in by server/main.ts. */
    app: import('./server/context').AppContext;
    requestId: string;
    log: import('./server/logger').Logger;
    site: import('./server/sites/directory').Site;
    user: import('./server/members/account').CurrentUser | null;
    sessionId: string | null;
    lang: import('./shared/languages').Language;
    t: import('./i18n').Translate;
    /** The visitor's country: the configured CDN header, else the site's geoip setting. */
    country: string;
    /** The entry warning was accepted earlier (cookie). */
    entryAccepted: boolean;
  }
}
