/** Security headers (ARCHITECTURE security baseline; SEC-10). */

/** HSTS for answers to HTTPS requests: two years, subdomains included. Never sent over plain HTTP (RFC 6797 §7.2). */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The Content-Security-Policy directives besides `script-src` and `style-src` (docs/decisions/015).
 * Astro writes the policy of every page it renders (astro.config.mjs `security.csp`): these directives
 * plus `script-src 'self'` and `style-src 'self'` with the hashes of the inline scripts and styles it
 * emits, so neither allows `'unsafe-inline'`. `frame-ancestors` only works in a header, which is where
 * Astro puts the policy of a page rendered on demand.
 */
export const CSP_DIRECTIVES = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
] as const;

/**
 * The policy for an HTML answer Astro did not render as a page (an endpoint's HTML, a redirect body):
 * the same directives, and scripts and styles only from this origin, never inline.
 */
export const FALLBACK_CSP = [...CSP_DIRECTIVES, "script-src 'self'", "style-src 'self'"].join('; ');

/**
 * Sets the headers every HTML answer carries. The page's own policy (Astro's, with the hashes of its
 * inline scripts and styles) is kept: one policy per page, never a second one. HTML without one gets
 * {@link FALLBACK_CSP}, except under `astro dev`, where Astro writes no policy and Vite injects inline
 * scripts of its own (Astro's CSP works on builds only).
 */
export function applyHtmlSecurityHeaders(headers: Headers, options: { dev: boolean }): void {
  headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  // The camera for this origin only: /verify takes the verification selfie with it (VER-01); never a frame's.
  headers.set('permissions-policy', 'camera=(self), microphone=(), geolocation=(self)');
  if (!options.dev && !headers.has('content-security-policy')) headers.set('content-security-policy', FALLBACK_CSP);
}
