/** The origin to put in mailed links (reset, activation, e-mail change, reactivation). */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { siteHosts } from '../../db/schema';
import { normaliseHost, type Site } from '../sites/directory';

/**
 * The origin for links in account mails. The request's own origin only when its host is registered for
 * this site; any other Host header (unknown hosts fall back to the default site) gets the site's
 * domain, so a forged Host header cannot send a member a reset link that leaks the token elsewhere.
 */
export async function trustedLinkOrigin(db: Db, site: Site, requestUrl: URL): Promise<string> {
  const host = normaliseHost(requestUrl.host);
  const [row] = host ? await db.select({ siteId: siteHosts.siteId }).from(siteHosts).where(eq(siteHosts.host, host)).limit(1) : [];
  if (row?.siteId === site.settings.id) return requestUrl.origin;
  return `https://${site.settings.domain}`;
}

