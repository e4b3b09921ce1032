/**
 * SEO and caching over real HTTP against the built server: robots.txt and the sitemap per site, the
 * canonical URL and Open Graph locale, Content-Language / Vary / Cache-Control of pages, static assets
 * (immutable, compressed when accepted) and compression of the app's own answers.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { projectRoot } from '../../src/runtime/boot';
import { compressBuffer } from '../../src/runtime/compression';
import { clearCompressedVariants, compressedVariantsSettled } from '../../src/runtime/static-files';
import { LANDER_PATHS, SITEMAP_PATHS } from '../../src/server/web/seo';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const VISITOR = { lang: 'nl', entry_ok: '1' };

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('SEO and caching', () => {
  let server: TestServer;
  const domains: Record<string, string> = {};

  /** A request whose body is kept as the bytes that came (compressed or not). */
  function raw(path: string, headers: Record<string, string> = {}, host = 'localhost'): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `${host}:${server.port}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  function decode(res: RawResponse): Buffer {
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return brotliDecompressSync(res.body);
    if (encoding === 'gzip') return gunzipSync(res.body);
    return res.body;
  }

  const varyOf = (res: { headers: Record<string, string | string[] | undefined> }) =>
    String(res.headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase());

  beforeAll(async () => {
    server = await startTestServer();
    for (const host of ['localhost', '127.0.0.1']) domains[host] = (await server.request('/api/settings.php', { host })).json().domain;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('robots.txt and sitemap.xml', () => {
    it('SITE-01 robots.txt names each site’s own sitemap, keeps crawlers out of the members area, API and dev tools', async () => {
      expect(domains.localhost).not.toBe(domains['127.0.0.1']);
      for (const host of ['localhost', '127.0.0.1']) {
        const res = await server.request('/robots.txt', { host });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.headers['cache-control']).toBe('public, max-age=3600');
        const lines = res.text.split('\n');
        expect(lines).toContain(`Sitemap: https://${domains[host]}/sitemap.xml`);
        const other = host === 'localhost' ? domains['127.0.0.1'] : domains.localhost;
        expect(res.text).not.toContain(other);
        for (const path of ['/members', '/api/', '/dev/', '/chats', '/likes', '/credits']) expect(lines, path).toContain(`Disallow: ${path}`);
        // Nothing disallowed covers the landing page, the landers or the static pages.
        const disallowed = lines.filter((l) => l.startsWith('Disallow: ')).map((l) => l.slice('Disallow: '.length));
        for (const path of SITEMAP_PATHS)
          expect(
            disallowed.some((d) => d && path.startsWith(d)),
            path,
          ).toBe(false);
        // Member landings (LND-03) stay open despite Disallow: /members.
        expect(lines).toContain('Allow: /members/*/landing');
      }
    });

    it('LND-01 SITE-01 the sitemap lists the landing page, every lander, the static pages and login on the site’s own domain', async () => {
      for (const host of ['localhost', '127.0.0.1']) {
        const res = await server.request('/sitemap.xml', { host });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/xml/);
        expect(res.headers['cache-control']).toBe('public, max-age=3600');
        expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
        const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
        const expected = [
          '/',
          ...LANDER_PATHS,
          '/pages/terms',
          '/pages/privacy',
          '/pages/cookies',
          '/pages/ban',
          '/pages/faq',
          '/pages/return-policy',
          '/pages/service',
          '/premium',
          '/pricing',
          '/complaints',
          '/login',
        ];
        expect(locs).toEqual(expected.map((p) => `https://${domains[host]}${p}`));
        expect(LANDER_PATHS).toHaveLength(9);
        // The language is a cookie, not a URL prefix: one URL per page, no hreflang alternates.
        expect(res.text).not.toContain('hreflang');
      }
    });
  });

  describe('head: canonical and Open Graph', () => {
    it('LND-01 the canonical URL is https on the site’s domain and drops the query string', async () => {
      const page = await server.request('/login?network=adnet&sub1=abc&next=%2Fmembers', { cookies: VISITOR });
      expect(page.status).toBe(200);
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(page.text)?.[1];
      expect(canonical).toBe(`https://${domains.localhost}/login`);
      expect(page.text).toContain(`<meta property="og:url" content="https://${domains.localhost}/login">`);
      const other = await server.request('/?ref=summer', { host: '127.0.0.1', cookies: { entry_ok: '1' } });
      expect(/<link rel="canonical" href="([^"]+)"/.exec(other.text)?.[1]).toBe(`https://${domains['127.0.0.1']}/`);
    });

    it('I18N-02 og:locale follows the visitor’s language', async () => {
      const locale = async (lang: string, host = 'localhost') => /<meta property="og:locale" content="([^"]+)"/.exec((await server.request('/login', { host, cookies: { lang } })).text)?.[1];
      expect(await locale('nl')).toBe('nl_NL');
      expect(await locale('de')).toBe('de_DE');
      expect(await locale('en')).toBe('en_GB');
      expect(await locale('sv')).toBe('sv_SE');
      // No cookie on site 2: its domain language (German).
      expect(/<meta property="og:locale" content="([^"]+)"/.exec((await server.request('/login', { host: '127.0.0.1' })).text)?.[1]).toBe('de_DE');
    });
  });

  describe('caching headers', () => {
    it('I18N-02 HTML carries Content-Language of the cookie’s language and Vary: Cookie, once', async () => {
      for (const lang of ['nl', 'en', 'de']) {
        const res = await server.request('/login', { cookies: { lang } });
        expect(res.headers['content-language']).toBe(lang);
        expect(varyOf(res).filter((v) => v === 'cookie')).toHaveLength(1);
      }
    });

    it('visitor HTML is private, no-cache (revalidated, never in a shared cache)', async () => {
      const res = await server.request('/', { cookies: VISITOR });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    });

    it('a logged-in member’s HTML is private, no-store (whatever the page)', async () => {
      const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: DEMO_ACCOUNTS.free });
      expect(login.status).toBe(200);
      const session = login.setCookies.session!.value;
      for (const [path, status] of [
        ['/members', 200],
        ['/profile', 200],
        ['/no/such/page', 404],
      ] as const) {
        const res = await server.request(path, { cookies: { ...VISITOR, session } });
        expect(res.status, path).toBe(status);
        expect(res.headers['content-type'], path).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], path).toBe('private, no-store');
        expect(varyOf(res), path).toContain('cookie');
      }
    });
  });

  describe('static assets', () => {
    let cssPath: string;
    let cssFile: Buffer;

    beforeAll(async () => {
      const page = await server.request('/', { cookies: VISITOR });
      cssPath = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)"/.exec(page.text)![1]!;
      cssFile = await readFile(join(projectRoot(), 'dist', 'client', cssPath));
    });

    it('/_astro/* files are immutable for a year; identity without Accept-Encoding', async () => {
      const res = await raw(cssPath);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(varyOf(res)).toContain('accept-encoding');
      expect(Number(res.headers['content-length'])).toBe(cssFile.length);
      expect(res.body.equals(cssFile)).toBe(true);
    });

    it('/_astro/* files are sent brotli or gzip as accepted, and decompress to the same bytes', async () => {
      const cases = [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip;q=0.9', 'gzip'],
        ['br;q=0, gzip;q=0', undefined],
        ['*', 'br'],
      ] as const;
      for (const [accept, expected] of cases) {
        const res = await raw(cssPath, { 'accept-encoding': accept });
        expect(res.status, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(expected);
        expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
        expect(varyOf(res), accept).toContain('accept-encoding');
        expect(Number(res.headers['content-length']), accept).toBe(res.body.length);
        if (expected) expect(res.body.length, accept).toBeLessThan(cssFile.length / 3);
        expect(decode(res).equals(cssFile), accept).toBe(true);
      }
    });

    it('a compressed asset answers 304 to its own ETag, and is sent at the best compression once the background pass is done', async () => {
      clearCompressedVariants();
      const first = await raw(cssPath, { 'accept-encoding': 'br' });
      const etag = String(first.headers.etag);
      const identityTag = String((await raw(cssPath)).headers.etag);
      expect(etag).not.toBe(identityTag);
      const again = await raw(cssPath, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      // The first answer was compressed quickly; the cache then re-compresses at the best level in the
      // background and serves that: smaller, and still the same file.
      await compressedVariantsSettled();
      const later = await raw(cssPath, { 'accept-encoding': 'br' });
      expect(later.body.equals(await compressBuffer(cssFile, 'br', 'best'))).toBe(true);
      expect(later.body.length).toBeLessThan(first.body.length);
      expect(decode(later).equals(cssFile)).toBe(true);
    });
  });

  describe('compression of the app’s answers', () => {
    it('HTML is sent gzip or brotli when accepted, with Vary: Accept-Encoding, and decodes to the page', async () => {
      const cookie = 'lang=nl; entry_ok=1';
      const plain = await raw('/login', { cookie });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(varyOf(plain)).toEqual(expect.arrayContaining(['cookie', 'accept-encoding']));
      for (const encoding of ['gzip', 'br']) {
        const res = await raw('/login', { cookie, 'accept-encoding': encoding });
        expect(res.status, encoding).toBe(200);
        expect(res.headers['content-encoding'], encoding).toBe(encoding);
        // Rendered in one go, so compressed in one piece and sent with its length.
        expect(Number(res.headers['content-length']), encoding).toBe(res.body.length);
        expect(varyOf(res), encoding).toEqual(expect.arrayContaining(['cookie', 'accept-encoding']));
        expect(res.headers['content-language'], encoding).toBe('nl');
        const decoded = decode(res);
        const html = decoded.toString('utf8');
        expect(res.body.length, encoding).toBeLessThan(decoded.length / 2);
        expect(html, encoding).toMatch(/^<!DOCTYPE html><html lang="nl"/);
        expect(html, encoding).toMatch(/<\/html>\s*$/);
        expect(decoded.length, encoding).toBe(plain.body.length);
      }
      // Both accepted (Safari): per-request bodies go brotli at quality 2 (about gzip 6's size for half its CPU).
      expect((await raw('/login', { cookie, 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
    });

    it('JSON of 1 kB or more is compressed; small bodies are sent as they are, with their length', async () => {
      const settings = await raw('/api/settings.php', { 'accept-encoding': 'gzip' });
      expect(settings.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(decode(settings).toString('utf8')).domain).toBe(domains.localhost);
      const small = await raw('/api/user.php', { 'accept-encoding': 'gzip, br' });
      expect(small.status).toBe(403);
      expect(small.body.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(Number(small.headers['content-length'])).toBe(small.body.length);
      expect(JSON.parse(small.body.toString('utf8')).error).toBe('authentication_required');
    });

    it('images are never re-compressed', async () => {
      const page = await server.request('/', { cookies: VISITOR });
      const photo = /src="(\/photos\/[^"]+\.webp)"/.exec(page.text)![1]!;
      const res = await raw(photo, { 'accept-encoding': 'gzip, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['content-encoding']).toBeUndefined();
    });
  });
});
