/**
 * GET /api/settings.php (SITE-01, SITE-02, SITE-04): the settings of the site the forced `domain`
 * parameter (else the request host) selects; unknown domains get the default site. The site's texts
 * (index_title, description, fictional_*) are in the request's language, as the pages show them, else
 * the site's own (docs/decisions/020-site-texts-per-language.md): the answer varies by the cookie.
 */
import { endpoint, json, methodNotAllowed, readQuery } from '../../server/web/api';
import { localiseSite } from '../../server/sites/texts';
import { settingsQuery, type SettingsAnswer } from '../../shared/api/settings';

export const GET = endpoint(async ({ locals, url }) => {
  const { domain } = readQuery(url, settingsQuery);
  const site = domain ? localiseSite(await locals.app.sites.forHost(domain), locals.lang) : locals.site;
  return json(site.settings satisfies SettingsAnswer, { headers: { 'cache-control': 'private, max-age=60', 'content-language': locals.lang, vary: 'Cookie' } });
});

export const ALL = methodNotAllowed;
