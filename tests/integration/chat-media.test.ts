/**
 * The chat's media endpoints over HTTP (CHT-07, GFT-01): gif search with the shipped library and with
 * the GIPHY adapter against a local fake of its API, the gift catalogue, and the shipped files.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

async function loginAs(server: TestServer, email: string): Promise<string> {
  const res = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } });
  return res.setCookies.session!.value;
}

describe('CHT-07 GFT-01 chat media API', () => {
  let server: TestServer;
  let session: string;
  beforeAll(async () => {
    server = await startTestServer();
    session = await loginAs(server, 'free@demo.test');
  });
  afterAll(async () => {
    await server?.close();
  });
  const as = (lang = 'nl') => ({ cookies: { lang, session } });

  it('CHT-07 GFT-01 a visitor gets authentication_required as JSON', async () => {
    for (const path of ['/api/gifs.php', '/api/gifs.php?q=hart', '/api/gifts.php']) {
      const res = await server.request(path, { cookies: { lang: 'en' } });
      expect(res.status, path).toBe(403);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ error: 'authentication_required', message: expect.any(String) });
    }
  });

  it("CHT-07 searches the shipped library in the member's language, paged", async () => {
    const first = await server.request('/api/gifs.php', as());
    expect(first.status).toBe(200);
    const page = first.json();
    expect(page.items).toHaveLength(12);
    expect(page.next).toBe(12);
    expect(page.items[0]).toEqual({ id: 'heart-red', title: 'Beating red heart', url: '/gifs/heart-red.webp', previewUrl: '/gifs/heart-red.webp', width: 160, height: 160 });
    const second = (await server.request('/api/gifs.php?offset=12', as())).json();
    expect(second.next).toBeNull();
    expect(new Set([...page.items, ...second.items].map((i: { id: string }) => i.id)).size).toBe(24);
    const hearts = (await server.request(`/api/gifs.php?q=${encodeURIComponent('hartje')}`, as())).json();
    expect(hearts.items.map((i: { id: string }) => i.id)).toEqual(['heart-red', 'heart-pink']);
    const kisses = (await server.request(`/api/gifs.php?q=${encodeURIComponent('bisou')}`, as('fr'))).json();
    expect(kisses.items.map((i: { id: string }) => i.id)).toEqual(['kiss-red', 'kiss-purple']);
    expect((await server.request('/api/gifs.php?q=xyzzy', as())).json()).toEqual({ items: [], next: null });
  });

  it('CHT-07 bad queries are 400 validation_failed JSON with a translated message, never 500', async () => {
    for (const qs of [`q=${'a'.repeat(51)}`, 'q=a%00b', 'q=%0A', 'offset=-1', 'offset=abc', 'offset=5000', 'offset=1.5', `offset=${'9'.repeat(30)}`]) {
      const res = await server.request(`/api/gifs.php?${qs}`, as('en'));
      expect(res.status, qs).toBe(400);
      expect(res.json(), qs).toMatchObject({ error: 'validation_failed', message: expect.any(String) });
    }
    const fifty = await server.request(`/api/gifs.php?q=${'a'.repeat(50)}`, as());
    expect(fifty.status).toBe(200);
    expect((await server.request('/api/gifs.php', { ...as(), method: 'POST', headers: { origin: `http://localhost:${server.port}` } })).status).toBe(405);
  });

  it("GFT-01 lists the gifts in the member's language with the site's gift cost", async () => {
    const settings = (await server.booted.app.sites.forId(1)).settings;
    const res = await server.request('/api/gifts.php', as('de'));
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.cost).toBe(settings!.gift_credits);
    expect(body.gifts).toHaveLength(10);
    expect(body.gifts[3]).toEqual({ id: 'teddy', name: 'Teddybär', image: '/gifts/teddy.svg' });
    expect((await server.request('/api/gifts.php', as('nl'))).json().gifts[0].name).toBe('Roos');
  });

  it('CHT-07 GFT-01 the shipped gif and gift images are served', async () => {
    const gif = await server.request('/gifs/heart-red.webp', as());
    expect(gif.status).toBe(200);
    expect(gif.headers['content-type']).toBe('image/webp');
    const gift = await server.request('/gifts/rose.svg', as());
    expect(gift.status).toBe(200);
    expect(gift.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });
});

describe('CHT-07 gif search with GIPHY configured (local fake of its API)', () => {
  let fake: Server;
  let server: TestServer;
  let session: string;
  const calls: URL[] = [];
  let status = 200;
  beforeAll(async () => {
    fake = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      calls.push(url);
      res.writeHead(status, { 'content-type': 'application/json' });
      const id = `g${url.searchParams.get('offset')}`;
      res.end(
        status !== 200
          ? '{"message":"boom"}'
          : JSON.stringify({
              data: [{ id, title: 'Fake kiss', images: { fixed_width: { url: `https://media.giphy.com/media/${id}/200w.gif`, width: '200', height: '180' } } }],
              pagination: { total_count: 40, count: 1, offset: Number(url.searchParams.get('offset')) },
            }),
      );
    });
    await new Promise<void>((done) => fake.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    server = await startTestServer({ env: { GIPHY_API_KEY: 'integrationKey1', GIPHY_BASE_URL: base } });
    session = await loginAs(server, 'free@demo.test');
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((done) => fake?.close(done));
  });

  it('CHT-07 asks GIPHY with the key, query and language and answers its gifs', async () => {
    const res = await server.request('/api/gifs.php?q=kus&offset=24', { cookies: { lang: 'nl', session } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      items: [{ id: 'g24', title: 'Fake kiss', url: 'https://media.giphy.com/media/g24/200w.gif', previewUrl: 'https://media.giphy.com/media/g24/200w.gif', width: 200, height: 180 }],
      next: 25,
    });
    const call = calls.at(-1)!;
    expect(call.pathname).toBe('/v1/gifs/search');
    expect(Object.fromEntries(call.searchParams)).toMatchObject({ api_key: 'integrationKey1', q: 'kus', lang: 'nl', offset: '24', limit: '12', rating: 'pg-13' });
  });

  it('CHT-07 a failing GIPHY is gif_search_unavailable (503 JSON), and the server goes on', async () => {
    status = 500;
    try {
      const res = await server.request('/api/gifs.php?q=kus', { cookies: { lang: 'en', session } });
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({ error: 'gif_search_unavailable', message: 'Searching for gifs is not possible right now. Please try again later.' });
    } finally {
      status = 200;
    }
    expect((await server.request('/api/gifs.php?q=kus', { cookies: { lang: 'en', session } })).status).toBe(200);
  });
});
