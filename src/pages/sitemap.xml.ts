/**
 * GET /sitemap.xml (SITE-01, LND-01): the site's public pages on its own domain. The language has no
 * URL prefix (I18N-02: a cookie picks it), so each page has one URL and there are no hreflang alternates.
 */
import type { APIRoute } from 'astro';
import { SEO_CACHE_CONTROL, sitemapXml } from '../server/web/seo';

export const GET: APIRoute = ({ locals }) =>
  new Response(sitemapXml(locals.site.settings.domain), {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': SEO_CACHE_CONTROL },
  });
