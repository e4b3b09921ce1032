/** The origin to put in mailed links (reset, activation, e-mail change, reactivation). */
import type { Site } from '../sites/directory';

/**
 * The origin for links in account mails: the request's own origin (with the scheme the browser used,
 * `https` behind a TLS proxy) only when its host is registered for this site; any other Host header
 * (unknown hosts fall back to the default site) gets the site's domain, so a forged Host header cannot
 * send a member a reset link that leaks the token elsewhere.
 */
export function linkOriginFor(site: Site, hostRegistered: boolean, requestOrigin: string): string {
  return hostRegistered ? requestOrigin : `https://${site.settings.domain}`;
}
