import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { LANGUAGES } from '../../shared/languages';
import { LOCAL_GIFS, MOTIF_KEYWORDS } from './gif-library';
import { gifImageSources, gifProvider, GifProviderError, GiphyGifProvider, LocalGifProvider, normalizeWords } from './gifs';

const local = new LocalGifProvider();
const opts = (lang: (typeof LANGUAGES)[number], limit = 12, offset = 0) => ({ lang, limit, offset });
const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id);

describe('CHT-07 local gif library', () => {
  it('CHT-07 ships every gif of the library as a small animated WebP under public/gifs', () => {
    let total = 0;
    for (const gif of LOCAL_GIFS) {
      const file = resolve(import.meta.dirname, '../../../public/gifs', `${gif.id}.webp`);
      expect(existsSync(file), gif.id).toBe(true);
      const { size } = statSync(file);
      expect(size, gif.id).toBeLessThan(40 * 1024);
      total += size;
    }
    expect(total).toBeLessThan(1024 * 1024);
    expect(new Set(LOCAL_GIFS.map((g) => g.id)).size).toBe(LOCAL_GIFS.length);
    expect(LOCAL_GIFS.length).toBeGreaterThanOrEqual(24);
  });

  it('CHT-07 every motif has search words in all eleven languages', () => {
    for (const [motif, words] of Object.entries(MOTIF_KEYWORDS)) {
      for (const lang of LANGUAGES) expect(words[lang]?.length, `${motif} ${lang}`).toBeGreaterThan(0);
    }
  });

  it('CHT-07 finds gifs by their words in several languages, accents and case ignored', async () => {
    expect(ids(await local.search('hart', opts('nl')))).toEqual(['heart-red', 'heart-pink']);
    expect(ids(await local.search('Herz', opts('de')))).toEqual(['heart-red', 'heart-pink']);
    expect(ids(await local.search('coeur', opts('fr')))).toEqual(['heart-red', 'heart-pink']);
    expect(ids(await local.search('CORAZON', opts('es')))).toEqual(['heart-red', 'heart-pink']);
    expect(ids(await local.search('sydän', opts('fi')))).toEqual(['heart-red', 'heart-pink']);
    expect(ids(await local.search('kawa', opts('pl')))).toEqual(['coffee-brown', 'coffee-mint']);
    expect(ids(await local.search('skål', opts('sv')))).toEqual(['champagne-gold', 'champagne-rose']);
    expect(ids(await local.search('knipoog', opts('nl')))).toEqual(['wink-yellow', 'wink-pink']);
    // A word from another language still finds the gif; the member's language ranks first.
    expect(ids(await local.search('kiss', opts('nl')))).toEqual(['kiss-red', 'kiss-purple']);
    const morning = ids(await local.search('goedemorgen', opts('nl')));
    expect(morning).toEqual(expect.arrayContaining(['coffee-brown', 'sun-yellow']));
    // Prefixes: a word typed half-way finds it; every word must match.
    expect(ids(await local.search('champ', opts('en')))).toEqual(['champagne-gold', 'champagne-rose']);
    expect(ids(await local.search('heart rose', opts('en')))).toEqual([]);
    expect(ids(await local.search('pink heart', opts('en')))).toEqual(['heart-pink']);
    expect(await local.search('zzzqqq', opts('en'))).toEqual({ items: [], next: null });
  });

  it('CHT-07 an empty query gives the default selection, paged with next', async () => {
    const first = await local.search('', opts('nl', 10, 0));
    expect(first.items).toHaveLength(10);
    expect(first.next).toBe(10);
    const second = await local.search('  ', opts('nl', 10, 10));
    expect(second.next).toBe(20);
    const last = await local.search('', opts('nl', 10, 20));
    expect(last.items).toHaveLength(LOCAL_GIFS.length - 20);
    expect(last.next).toBeNull();
    const all = [...ids(first), ...ids(second), ...ids(last)];
    expect(new Set(all).size).toBe(LOCAL_GIFS.length);
    // The default selection mixes motifs: the first page does not repeat one.
    expect(new Set(first.items.map((i) => i.id.split('-')[0])).size).toBe(10);
    expect(await local.search('', opts('nl', 10, 500))).toEqual({ items: [], next: null });
    expect(first.items[0]).toEqual({ id: 'heart-red', title: 'Beating red heart', url: '/gifs/heart-red.webp', previewUrl: '/gifs/heart-red.webp', width: 160, height: 160 });
  });

  it('CHT-07 byId finds shipped gifs and nothing else', async () => {
    expect(await local.byId('sun-orange')).toMatchObject({ id: 'sun-orange', url: '/gifs/sun-orange.webp' });
    expect(await local.byId('../etc/passwd')).toBeNull();
    expect(await local.byId('')).toBeNull();
  });

  it('CHT-07 normalizeWords folds accents and special letters', () => {
    expect(normalizeWords('Cœur, Śmiech! Kærlighed ß ø')).toBe('coeur smiech kaerlighed ss o');
  });
});

describe('CHT-07 GIPHY adapter against a local fake of its API', () => {
  let server: Server;
  let baseUrl: string;
  const seen: URL[] = [];
  let answer: (url: URL, req: IncomingMessage) => { status: number; body: string } = () => ({ status: 200, body: '{}' });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      seen.push(url);
      const { status, body } = answer(url, req);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });
  afterEach(() => {
    seen.length = 0;
  });

  const gif = (id: string) => ({
    type: 'gif',
    id,
    title: `Gif ${id}`,
    images: {
      fixed_width: { url: `https://media.giphy.com/media/${id}/200w.gif`, webp: `https://media.giphy.com/media/${id}/200w.webp`, width: '200', height: '150' },
      fixed_width_small: { url: `https://media.giphy.com/media/${id}/100w.gif`, webp: `https://media.giphy.com/media/${id}/100w.webp`, width: '100', height: '75' },
    },
  });
  const giphy = () => new GiphyGifProvider({ apiKey: 'fakeKey123', baseUrl, rating: 'pg-13', timeoutMs: 2000 });

  it('CHT-07 sends the key, query, language, paging and rating, and maps the answer', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ data: [gif('abc1'), gif('abc2')], pagination: { total_count: 30, count: 2, offset: 10 }, meta: { status: 200 } }) });
    const page = await giphy().search(' kus ', { lang: 'nl', limit: 2, offset: 10 });
    expect(seen).toHaveLength(1);
    const url = seen[0]!;
    expect(url.pathname).toBe('/v1/gifs/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ api_key: 'fakeKey123', q: 'kus', lang: 'nl', limit: '2', offset: '10', rating: 'pg-13' });
    expect(page).toEqual({
      items: [
        { id: 'abc1', title: 'Gif abc1', url: 'https://media.giphy.com/media/abc1/200w.webp', previewUrl: 'https://media.giphy.com/media/abc1/100w.webp', width: 200, height: 150 },
        { id: 'abc2', title: 'Gif abc2', url: 'https://media.giphy.com/media/abc2/200w.webp', previewUrl: 'https://media.giphy.com/media/abc2/100w.webp', width: 200, height: 150 },
      ],
      next: 12,
    });
  });

  it('CHT-07 an empty query asks for trending; Norwegian goes as GIPHY\'s "no"; the last page has no next', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ data: [gif('t1')], pagination: { total_count: 1, count: 1, offset: 0 } }) });
    const page = await giphy().search('', { lang: 'nb', limit: 12, offset: 0 });
    expect(seen[0]!.pathname).toBe('/v1/gifs/trending');
    expect(seen[0]!.searchParams.get('q')).toBeNull();
    expect(page.next).toBeNull();
    await giphy().search('klem', { lang: 'nb', limit: 12, offset: 0 });
    expect(seen[1]!.searchParams.get('lang')).toBe('no');
  });

  it('CHT-07 drops entries it cannot show (not https on a GIPHY host, no size) instead of failing', async () => {
    const broken = { id: 'x', images: { fixed_width: { url: 'javascript:alert(1)', width: '1', height: '1' } } };
    const elsewhere = { id: 'z', images: { fixed_width: { url: 'https://evil.example/giphy.com/a.gif', width: '1', height: '1' } } };
    const plain = { id: 'w', images: { fixed_width: { url: 'http://media.giphy.com/a.gif', width: '1', height: '1' } } };
    answer = () => ({ status: 200, body: JSON.stringify({ data: [broken, elsewhere, plain, { id: 'y' }, null, gif('ok1')], pagination: { total_count: 6, count: 6, offset: 0 } }) });
    const page = await giphy().search('x', { lang: 'en', limit: 6, offset: 0 });
    expect(ids(page)).toEqual(['ok1']);
  });

  it('CHT-07 byId asks for one gif and refuses ids GIPHY never makes', async () => {
    answer = (url) => (url.pathname === '/v1/gifs/abc1' ? { status: 200, body: JSON.stringify({ data: gif('abc1') }) } : { status: 404, body: '{"meta":{"status":404}}' });
    expect(await giphy().byId('abc1')).toMatchObject({ id: 'abc1', width: 200 });
    expect(seen[0]!.searchParams.get('api_key')).toBe('fakeKey123');
    expect(await giphy().byId('nope')).toBeNull();
    const before = seen.length;
    expect(await giphy().byId('../v1/gifs/search')).toBeNull();
    expect(seen.length).toBe(before);
  });

  it('CHT-07 errors become a GifProviderError: HTTP status, bad JSON, missing data, unreachable', async () => {
    answer = () => ({ status: 401, body: '{"message":"Invalid authentication credentials"}' });
    await expect(giphy().search('x', opts('en'))).rejects.toMatchObject({ name: 'GifProviderError', message: 'GIPHY answered HTTP 401', status: 401 });
    answer = () => ({ status: 429, body: '{}' });
    await expect(giphy().search('x', opts('en'))).rejects.toMatchObject({ name: 'GifProviderError', status: 429 });
    answer = () => ({ status: 200, body: '<html>' });
    await expect(giphy().search('x', opts('en'))).rejects.toThrow(/other than JSON/);
    answer = () => ({ status: 200, body: '{"meta":{}}' });
    await expect(giphy().search('x', opts('en'))).rejects.toThrow(/without a data list/);
    const closed = new GiphyGifProvider({ apiKey: 'fakeKey123', baseUrl: 'http://127.0.0.1:9', rating: 'g', timeoutMs: 2000 });
    await expect(closed.search('x', opts('en'))).rejects.toBeInstanceOf(GifProviderError);
  });

  it('CHT-07 gifProvider picks GIPHY only when GIPHY_API_KEY is configured', () => {
    expect(gifProvider(loadConfig({})).name).toBe('local');
    expect(gifImageSources(loadConfig({}))).toEqual([]);
    expect(gifImageSources(loadConfig({ GIPHY_API_KEY: 'abcdef123456' }))).toEqual(['https://*.giphy.com']);
    const config = loadConfig({ GIPHY_API_KEY: 'abcdef123456', GIPHY_BASE_URL: baseUrl });
    expect(gifProvider(config).name).toBe('giphy');
    expect(gifProvider(config)).toBe(gifProvider(config));
    expect(() => loadConfig({ GIPHY_API_KEY: 'bad key!' })).toThrow(/GIPHY_API_KEY/);
  });
});
