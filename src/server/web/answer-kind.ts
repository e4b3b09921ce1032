/**
 * Who is asking: a browser's form post or navigation gets a page, a script's call (JSON, an XHR header,
 * no HTML in Accept) gets JSON. The request guard's refusals at the edge (src/server/http/request-guard.ts)
 * and the pages that also answer scripts (the credits forms) follow this one rule (SEC-19).
 */

/** The request headers the rule reads, from node's IncomingMessage or a fetch Request alike. */
export type HeaderLookup = (name: 'content-type' | 'x-requested-with' | 'accept') => string | undefined;

/**
 * A browser's form post or navigation gets a page; a script's call gets JSON. The XHR header and a JSON
 * body are a script's, whatever else it sends (a browser's own form post or navigation carries neither).
 * Under /api/ only a request that accepts HTML gets a page (a no-JS form posting to an endpoint): a
 * script's FormData upload is multipart too. Elsewhere a form post is a browser's, and anything else is a
 * page when it accepts HTML.
 */
export function wantsPageFrom(header: HeaderLookup, path: string): boolean {
  const type = (header('content-type') ?? '').toLowerCase();
  const accept = header('accept') ?? '';
  if (header('x-requested-with') !== undefined || type.includes('json')) return false;
  if (path.startsWith('/api/')) return accept.includes('text/html');
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)/.test(type)) return true;
  return accept.includes('text/html');
}

/** {@link wantsPageFrom} for a fetch Request (pages and endpoints). */
export function requestWantsPage(request: Request): boolean {
  return wantsPageFrom((name) => request.headers.get(name) ?? undefined, new URL(request.url).pathname);
}
