import { describe, expect, it } from 'vitest';
import { applyHtmlSecurityHeaders, CSP_DIRECTIVES, FALLBACK_CSP } from './headers';

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.split(' ')[0] === name);

describe('HTML security headers', () => {
  it("SEC-10 a page's own policy (Astro's, with its hashes) is kept: never replaced, never doubled", () => {
    const astros = "default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self'";
    const headers = new Headers({ 'content-type': 'text/html', 'content-security-policy': astros });
    applyHtmlSecurityHeaders(headers, { dev: false });
    expect(headers.get('content-security-policy')).toBe(astros);
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('SEC-10 HTML without a policy gets the strict fallback: scripts and styles from this origin only, nothing inline', () => {
    const headers = new Headers({ 'content-type': 'text/html' });
    applyHtmlSecurityHeaders(headers, { dev: false });
    const policy = headers.get('content-security-policy')!;
    expect(policy).toBe(FALLBACK_CSP);
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
    expect(directive(policy, 'style-src')).toBe("style-src 'self'");
    expect(policy).not.toContain('unsafe');
  });

  it('SEC-10 under astro dev (no policy from Astro, inline scripts from Vite) no fallback policy is added', () => {
    const headers = new Headers({ 'content-type': 'text/html' });
    applyHtmlSecurityHeaders(headers, { dev: true });
    expect(headers.has('content-security-policy')).toBe(false);
  });

  it('SEC-10 the shared directives shut out plugins, foreign base URLs, framing and foreign form targets', () => {
    expect(CSP_DIRECTIVES).toEqual(expect.arrayContaining(["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'", "default-src 'self'"]));
    expect(CSP_DIRECTIVES.some((d) => d.startsWith('script-src') || d.startsWith('style-src'))).toBe(false);
  });

  it('VER-01 the camera is allowed to this origin only (the verification selfie), the microphone to nobody', () => {
    const headers = new Headers({ 'content-type': 'text/html' });
    applyHtmlSecurityHeaders(headers, { dev: false });
    expect(headers.get('permissions-policy')).toBe('camera=(self), microphone=(), geolocation=(self)');
  });
});
