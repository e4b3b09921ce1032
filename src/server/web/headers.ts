/** Security headers (ARCHITECTURE security baseline; SEC-10). */

/** HSTS for answers to HTTPS requests: two years, subdomains included. Never sent over plain HTTP (RFC 6797 §7.2). */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** Headers every HTML page carries. */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "img-src 'self' data: blob:",
      "style-src 'self' 'unsafe-inline'",
      "script-src 'self' 'unsafe-inline'",
      "connect-src 'self'",
      "font-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; '),
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(self)',
  };
}
