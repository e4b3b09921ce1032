/**
 * The render cache's rules (PERF-01) on a node:http server whose "page" is a small handler that counts
 * its renders: what is stored and what never is, the key, expiry with one refresh, invalidation through
 * the bus, the memory bound. The real pages behind the real middleware: tests/integration/render-cache.test.ts.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../server/realtime/bus';
import { compressResponse } from './compression';
import { APP_PAGE_KEYS } from './page-keys';
import { RenderCache } from './render-cache';

interface Page {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string;
  siteId?: number;
  user?: boolean;
}

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A server that answers every request with `page(req)`, through the cache the way node-server.ts does. */
async function serve(cache: RenderCache, page: (req: IncomingMessage) => Page): Promise<{ port: number; renders: () => number }> {
  let renders = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (cache.serve(req, res)) return;
    compressResponse(req, res);
    const p = page(req);
    const locals: Record<string, unknown> = {};
    cache.record(req, res, locals);
    renders++;
    // Like Astro: the middleware fills locals while rendering, then the response is written.
    locals.site = { settings: { id: p.siteId ?? 1 } };
    locals.user = p.user ? { id: 7 } : null;
    res.writeHead(p.status ?? 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-cache', ...p.headers });
    res.write((p.body ?? `<p>${req.url}</p>`).slice(0, 10));
    res.end((p.body ?? `<p>${req.url}</p>`).slice(10));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return { port: (server.address() as AddressInfo).port, renders: () => renders };
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: 'a.test', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const options = { ttlMs: 60_000, trustedProxies: null, countryHeader: 'cf-ipcountry', keys: APP_PAGE_KEYS };

describe('render cache (PERF-01)', () => {
  it('PERF-01: a second anonymous request is answered without rendering, with the same headers and body', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, () => ({ headers: { 'content-security-policy': "script-src 'self' 'sha256-abc='" } }));
    const first = await get(app.port, '/');
    const second = await get(app.port, '/');
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(app.renders()).toBe(1);
    expect(second.body.toString()).toBe(first.body.toString());
    expect(second.headers['content-security-policy']).toBe("script-src 'self' 'sha256-abc='");
    expect(second.headers['cache-control']).toBe('private, no-cache');
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('PERF-01: a hit sends the compressed variant the client accepts, kept for the next hits', async () => {
    const cache = new RenderCache(options);
    const html = `<!doctype html><p>${'lorem ipsum '.repeat(400)}</p>`;
    const app = await serve(cache, () => ({ body: html }));
    await get(app.port, '/');
    const hit = await get(app.port, '/', { 'accept-encoding': 'gzip' });
    expect(hit.headers['x-cache']).toBe('hit');
    expect(hit.headers['content-encoding']).toBe('gzip');
    expect(hit.headers.vary).toMatch(/Accept-Encoding/);
    expect(gunzipSync(hit.body).toString()).toBe(html);
    const bytes = cache.storedBytes;
    await get(app.port, '/', { 'accept-encoding': 'gzip' });
    expect(cache.storedBytes).toBeLessThanOrEqual(bytes);
    expect(app.renders()).toBe(1);
  });

  it('PERF-01: requests with a session cookie are never answered from the cache nor stored', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, (req) => ({ body: req.headers.cookie?.includes('session') ? '<p>member page of Anna</p>' : '<p>visitor page</p>' }));
    const member = await get(app.port, '/', { cookie: 'lang=nl; session=abc' });
    expect(member.headers['x-cache']).toBeUndefined();
    const visitor = await get(app.port, '/', { cookie: 'lang=nl' });
    expect(visitor.headers['x-cache']).toBe('miss');
    expect(visitor.body.toString()).toBe('<p>visitor page</p>');
    const memberAgain = await get(app.port, '/', { cookie: 'session=abc; lang=nl' });
    expect(memberAgain.body.toString()).toBe('<p>member page of Anna</p>');
    expect(app.renders()).toBe(3);
  });

  it('PERF-01: a page rendered for a signed-in user (locals.user) is not stored', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, () => ({ user: true }));
    await get(app.port, '/');
    expect((await get(app.port, '/')).headers['x-cache']).toBe('miss');
    expect(cache.size).toBe(0);
  });

  it('PERF-01: answers setting a cookie other than the language cookie, no-store, non-200 and non-HTML are not stored', async () => {
    const cache = new RenderCache(options);
    const pages: Record<string, Page> = {
      '/cookie': { headers: { 'set-cookie': ['lang=nl; Path=/', 'tracking=x; Path=/'] } },
      '/no-store': { headers: { 'cache-control': 'no-store' } },
      '/missing': { status: 404 },
      '/json': { headers: { 'content-type': 'application/json' } },
      '/lang': { headers: { 'set-cookie': ['lang=nl; Path=/'] } },
    };
    const app = await serve(cache, (req) => pages[req.url!]!);
    for (const path of Object.keys(pages)) await get(app.port, path);
    for (const path of ['/cookie', '/no-store', '/missing', '/json']) expect((await get(app.port, path)).headers['x-cache'], path).toBe('miss');
    const lang = await get(app.port, '/lang');
    expect(lang.headers['x-cache']).toBe('hit');
    expect(lang.headers['set-cookie']).toEqual(['lang=nl; Path=/']);
  });

  it('PERF-01: host, query, language, entry warning, tracking record and scheme select different entries', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, () => ({}));
    const variants: Array<[string, Record<string, string>]> = [
      ['/', {}],
      ['/', { host: 'b.test' }],
      ['/?page=2', {}],
      ['/', { cookie: 'lang=de' }],
      ['/', { cookie: 'entry_ok=1' }],
      ['/', { cookie: `tracking=${encodeURIComponent('{"network":"ads"}')}` }],
    ];
    for (const [path, headers] of variants) expect((await get(app.port, path, headers)).headers['x-cache']).toBe('miss');
    for (const [path, headers] of variants) expect((await get(app.port, path, headers)).headers['x-cache']).toBe('hit');
    // Other cookies and headers do not split the page; a forwarded scheme from an untrusted client is ignored.
    expect((await get(app.port, '/', { cookie: '_ga=1; theme=dark', 'x-forwarded-proto': 'https' })).headers['x-cache']).toBe('hit');
    expect(cache.keyOf({ method: 'GET', url: '/?network=ads&sub1=x', headers: { host: 'a.test' }, socket: {} } as IncomingMessage)).toBeNull();
  });

  it('PERF-01: behind a trusted proxy the scheme and the country header are part of the key', async () => {
    const cache = new RenderCache({ ...options, trustedProxies: { kind: 'hops', hops: 1 } });
    const app = await serve(cache, () => ({}));
    const variants: Array<Record<string, string>> = [{}, { 'x-forwarded-proto': 'https' }, { 'cf-ipcountry': 'NL' }];
    for (const headers of variants) {
      expect((await get(app.port, '/', headers)).headers['x-cache']).toBe('miss');
      expect((await get(app.port, '/', headers)).headers['x-cache']).toBe('hit');
    }
  });

  it('PERF-01: HEAD is answered from a stored page without a body, and does not store one itself', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, () => ({ body: '<p>hello, visitor</p>' }));
    expect((await get(app.port, '/', {}, 'HEAD')).headers['x-cache']).toBe('miss');
    expect(cache.size).toBe(0);
    await get(app.port, '/');
    const head = await get(app.port, '/', {}, 'HEAD');
    expect(head.headers['x-cache']).toBe('hit');
    expect(head.headers['content-length']).toBe(String('<p>hello, visitor</p>'.length));
    expect(head.body.length).toBe(0);
  });

  it('PERF-01: the bus drops a site’s pages on content changes, and every page on settings changes', async () => {
    const bus = new InProcessBus();
    const cache = new RenderCache(options);
    const stop = cache.listen(bus);
    const app = await serve(cache, (req) => ({ siteId: req.headers.host === 'b.test' ? 2 : 1 }));
    await get(app.port, '/');
    await get(app.port, '/', { host: 'b.test' });
    await bus.publish('site.content_changed', { siteId: 1 });
    expect((await get(app.port, '/')).headers['x-cache']).toBe('miss');
    expect((await get(app.port, '/', { host: 'b.test' })).headers['x-cache']).toBe('hit');
    await bus.publish('site.changed', { siteId: 1 });
    expect((await get(app.port, '/', { host: 'b.test' })).headers['x-cache']).toBe('miss');
    stop();
    await bus.publish('site.content_changed', { siteId: 2 });
    expect((await get(app.port, '/', { host: 'b.test' })).headers['x-cache']).toBe('hit');
  });

  it('PERF-01: a page whose rendering spans an invalidation is not stored', async () => {
    const cache = new RenderCache(options);
    const app = await serve(cache, () => {
      cache.dropSite(1); // the site changed while this page was being rendered
      return {};
    });
    await get(app.port, '/');
    expect(cache.size).toBe(0);
  });

  it('PERF-01: an expired page is rendered again by one request; meanwhile others get it once more', async () => {
    let now = 0;
    const cache = new RenderCache({ ...options, ttlMs: 1000, now: () => now });
    let body = 'v1';
    const app = await serve(cache, () => ({ body }));
    await get(app.port, '/');
    now = 1500;
    body = 'v2';
    const refresh = await get(app.port, '/');
    expect(refresh.headers['x-cache']).toBe('miss');
    expect(refresh.body.toString()).toBe('v2');
    expect((await get(app.port, '/')).body.toString()).toBe('v2');
    now = 5000; // long expired: not served at all
    body = 'v3';
    expect((await get(app.port, '/')).body.toString()).toBe('v3');
    expect(app.renders()).toBe(3);
  });

  it('PERF-01: memory is bounded: least recently used pages go first', async () => {
    const cache = new RenderCache({ ...options, maxEntries: 2 });
    const app = await serve(cache, () => ({}));
    await get(app.port, '/a');
    await get(app.port, '/b');
    await get(app.port, '/a'); // hit: /a is now the most recently used
    await get(app.port, '/c'); // evicts /b
    expect(cache.size).toBe(2);
    expect((await get(app.port, '/a')).headers['x-cache']).toBe('hit');
    expect((await get(app.port, '/b')).headers['x-cache']).toBe('miss');
    const small = new RenderCache({ ...options, maxBytes: 100 });
    close?.();
    const app2 = await serve(small, (req) => ({ body: `<p>${'x'.repeat(60)}${req.url}</p>` }));
    await get(app2.port, '/1');
    await get(app2.port, '/2');
    expect(small.size).toBe(1);
    expect(small.storedBytes).toBeLessThanOrEqual(100);
  });

  it('PERF-01: a TTL of 0 turns the cache off', async () => {
    const cache = new RenderCache({ ...options, ttlMs: 0 });
    const app = await serve(cache, () => ({}));
    await get(app.port, '/');
    const again = await get(app.port, '/');
    expect(again.headers['x-cache']).toBeUndefined();
    expect(app.renders()).toBe(2);
  });
});
