/**
 * GET /api/settings.php (SITE-01, SITE-02, SITE-04): the settings of the site the forced `domain`
 * parameter (else the request host) selects; unknown domains get the default site.
 */
import { z } from 'zod';
import { endpoint, json, methodNotAllowed, readQuery } from '../../server/http/api';

const query = z.object({
  route: z.string().max(200).optional(),
  domain: z.string().max(253).optional(),
});

export const GET = endpoint(async ({ locals, url }) => {
  const { domain } = readQuery(url, query);
  const site = domain ? await locals.app.sites.forHost(domain) : locals.site;
  return json(site.settings, { headers: { 'cache-control': 'private, max-age=60' } });
});

export const ALL = methodNotAllowed;
