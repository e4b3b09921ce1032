/**
 * The 404 page (ERR-01) from a page that found nothing, whatever the request's method and whether the
 * page has read the posted form or not (SEC-19). `Astro.rewrite('/404')` copies the request with its body
 * and throws `RewriteWithBodyUsed` (a 500) once the body was read, so a form posted to an id that is
 * unknown, or that went away while the form was handled, got the error page. Here the 404 page is
 * rendered for a GET of /404 with the request's headers (cookies, language): the same page as a rewrite,
 * without the body.
 *
 * ```astro
 * if (!detail) return notFound(Astro);
 * ```
 */

/** The parts of a page (`Astro` fits) the 404 page needs. */
export interface NotFoundPage {
  request: Request;
  url: URL;
  rewrite(payload: Request): Promise<Response>;
}

/** Headers of the posted body, which the GET of the 404 page does not carry. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding', 'content-encoding'];

export function notFound(page: NotFoundPage): Promise<Response> {
  const headers = new Headers(page.request.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  return page.rewrite(new Request(new URL('/404', page.url), { method: 'GET', headers }));
}
