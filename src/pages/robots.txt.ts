/**
 * GET /robots.txt (SITE-01, LND-01): per site, by the request's host. Landers, the landing page and the
 * static pages are open to crawlers; the members area, /api/ and /dev/ are not. Names the site's sitemap.
 */
import type { APIRoute } from 'astro';
import { robotsTxt, SEO_CACHE_CONTROL } from '../server/web/seo';

export const GET: APIRoute = ({ locals }) =>
  new Response(robotsTxt(locals.site.settings.domain), {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': SEO_CACHE_CONTROL },
  });
