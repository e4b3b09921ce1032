/**
 * Refusing cross-site writes (ARCHITECTURE security baseline, SEC-01). The rule is Astro's own
 * `security.checkOrigin`, with the origin the browser actually used (the scheme behind a TLS proxy):
 * - GET, HEAD and OPTIONS pass;
 * - a request whose Origin header names this origin passes;
 * - any other write with an Origin header, or a form-like body (urlencoded, multipart, text/plain) or no
 *   body type without one, is refused with 403;
 * - JSON without an Origin header passes: browsers cannot send it cross-site without a CORS preflight,
 *   which this server never grants. `Sec-Fetch-Site: cross-site` is refused whatever the body.
 */
import { API_ERRORS } from '../../shared/api-errors';

/** The payment providers' webhook endpoint, exempt from the origin check. */
export const PAYMENT_WEBHOOK_PATH = '/api/payment-webhook.php';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** True when `request` is a write that does not come from a page of `origin`. */
export function isCrossSiteWrite(request: Request, origin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const sent = request.headers.get('origin');
  if (sent !== null) return sent !== origin;
  const type = request.headers.get('content-type');
  if (type === null) return true;
  const lower = type.toLowerCase();
  return FORM_TYPES.some((form) => lower.includes(form));
}

/** The 403 answer for a cross-site write (JSON for the API, a short page otherwise), or null when it may pass. */
export function crossSiteWriteRefusal(request: Request, origin: string, pathname: string, t: (key: string) => string): Response | null {
  // Payment providers post their webhooks from their own servers (PAY. as a form): that endpoint acts on
  // no cookie or session and is authenticated by the provider's signature instead (decision 034).
  if (pathname === PAYMENT_WEBHOOK_PATH) return null;
  if (!isCrossSiteWrite(request, origin)) return null;
  const message = t('errors:cross_site_request');
  if (pathname.startsWith('/api/')) {
    return new Response(JSON.stringify({ error: 'cross_site_request', message }), {
      status: API_ERRORS.cross_site_request,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  return new Response(message, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
