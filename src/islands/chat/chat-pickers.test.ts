import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiClient } from '../../client/api';
import { messagesFor } from '../../i18n';
import { listGifts } from '../../server/chat/gifts';
import { icebreakers } from '../../server/chat/icebreakers';
import { fetchGifs, fetchGifts, gifReducer, initialGifState, type GifItem } from '../../stores/gif-search';
import { gridMove, trapTab } from './grid';
import GifPicker from './GifPicker';
import GiftPicker from './GiftPicker';
import IcebreakerModal from './IcebreakerModal';

const gif = (id: string): GifItem => ({ id, title: `Gif ${id}`, url: `/gifs/${id}.webp`, previewUrl: `/gifs/${id}.webp`, width: 160, height: 160 });

function fakeApi(answer: (url: URL) => { status: number; body: unknown }) {
  const urls: URL[] = [];
  let loggedOut = 0;
  setApiClient(
    createApiClient({
      baseUrl: 'http://site.test',
      onAuthenticationRequired: () => void loggedOut++,
      retry: { retries: 0 },
      fetch: async (input) => {
        const url = new URL((input as Request).url);
        urls.push(url);
        const { status, body } = answer(url);
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      },
    }),
  );
  return { urls, loggedOut: () => loggedOut };
}
afterEach(() => setApiClient(undefined));

describe('CHT-07 gif picker logic', () => {
  it('CHT-07 fetchGifs asks /api/gifs.php with the trimmed query and offset, and reads errors', async () => {
    const api = fakeApi((url) => (url.searchParams.get('q') === 'boom' ? { status: 503, body: { error: 'gif_search_unavailable' } } : { status: 200, body: { items: [gif('a')], next: 12 } }));
    expect(await fetchGifs('  hart  ', 12)).toEqual({ type: 'ok', data: { items: [gif('a')], next: 12 } });
    expect(api.urls[0]!.pathname).toBe('/api/gifs.php');
    expect(Object.fromEntries(api.urls[0]!.searchParams)).toEqual({ q: 'hart', offset: '12' });
    await fetchGifs('', 0);
    expect(api.urls[1]!.search).toBe('');
    await fetchGifs('x'.repeat(80));
    expect(api.urls[2]!.searchParams.get('q')).toHaveLength(50);
    expect(await fetchGifs('boom')).toEqual({ type: 'error', reason: 'gif_search_unavailable' });
  });

  it("CHT-07 GFT-01 a visitor's answer stops quietly (the client logs out), a network failure is an error", async () => {
    const api = fakeApi(() => ({ status: 403, body: { error: 'authentication_required' } }));
    expect(await fetchGifs('a')).toEqual({ type: 'stopped' });
    expect(await fetchGifts()).toEqual({ type: 'stopped' });
    expect(api.loggedOut()).toBe(1);
    setApiClient(
      createApiClient({
        baseUrl: 'http://site.test',
        onAuthenticationRequired: () => undefined,
        retry: { retries: 0 },
        fetch: async () => {
          throw new TypeError('offline');
        },
      }),
    );
    expect(await fetchGifs('a')).toEqual({ type: 'error', reason: 'network' });
  });

  it('GFT-01 fetchGifts reads the catalogue from /api/gifts.php', async () => {
    const api = fakeApi(() => ({ status: 200, body: { gifts: [{ id: 'rose', name: 'Roos', image: '/gifts/rose.svg' }], cost: 25 } }));
    expect(await fetchGifts()).toEqual({ type: 'ok', data: { gifts: [{ id: 'rose', name: 'Roos', image: '/gifts/rose.svg' }], cost: 25 } });
    expect(api.urls[0]!.pathname).toBe('/api/gifts.php');
  });

  it('CHT-07 a new search replaces, load more appends without repeats, older answers are dropped', () => {
    let s = gifReducer(initialGifState, { type: 'search', query: 'hart', request: 1 });
    expect(s).toMatchObject({ query: 'hart', status: 'loading', request: 1 });
    s = gifReducer(s, { type: 'loaded', request: 1, page: { items: [gif('a'), gif('b')], next: 2 }, append: false });
    expect(s).toMatchObject({ status: 'idle', next: 2 });
    s = gifReducer(s, { type: 'more', request: 2 });
    expect(s.status).toBe('loading_more');
    // 'more' while loading is ignored (double click).
    expect(gifReducer(s, { type: 'more', request: 3 })).toBe(s);
    s = gifReducer(s, { type: 'loaded', request: 2, page: { items: [gif('b'), gif('c')], next: null }, append: true });
    expect(s.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(s.next).toBeNull();
    expect(gifReducer(s, { type: 'more', request: 4 })).toBe(s);
    // Typing fast: the answer to search 5 arrives after search 6 started and is dropped.
    s = gifReducer(s, { type: 'search', query: 'ku', request: 5 });
    s = gifReducer(s, { type: 'search', query: 'kus', request: 6 });
    s = gifReducer(s, { type: 'loaded', request: 5, page: { items: [gif('old')], next: null }, append: false });
    expect(s.status).toBe('loading');
    expect(gifReducer(s, { type: 'failed', request: 5, reason: 'network' }).error).toBeNull();
    s = gifReducer(s, { type: 'failed', request: 6, reason: 'network' });
    expect(s).toMatchObject({ status: 'idle', error: 'network', query: 'kus' });
  });

  it('CHT-07 arrow keys move through the grid by row and column and stop at the edges', () => {
    // 7 buttons, 3 columns: 0 1 2 / 3 4 5 / 6
    expect(gridMove(0, 'ArrowRight', 7, 3)).toBe(1);
    expect(gridMove(6, 'ArrowRight', 7, 3)).toBe(6);
    expect(gridMove(0, 'ArrowLeft', 7, 3)).toBe(0);
    expect(gridMove(1, 'ArrowDown', 7, 3)).toBe(4);
    expect(gridMove(4, 'ArrowDown', 7, 3)).toBe(4);
    expect(gridMove(3, 'ArrowDown', 7, 3)).toBe(6);
    expect(gridMove(4, 'ArrowUp', 7, 3)).toBe(1);
    expect(gridMove(1, 'ArrowUp', 7, 3)).toBe(1);
    expect(gridMove(4, 'Home', 7, 3)).toBe(0);
    expect(gridMove(0, 'End', 7, 3)).toBe(6);
    expect(gridMove(0, 'Enter', 7, 3)).toBeNull();
    expect(gridMove(0, 'ArrowRight', 0, 3)).toBeNull();
  });

  it('CHT-07 Tab in the modal wraps around at both ends', () => {
    expect(trapTab(2, 3, false)).toBe(0);
    expect(trapTab(0, 3, true)).toBe(2);
    expect(trapTab(1, 3, false)).toBe(2);
    expect(trapTab(-1, 3, false)).toBe(0);
    expect(trapTab(-1, 3, true)).toBe(2);
    expect(trapTab(0, 0, false)).toBe(-1);
  });
});

describe('CHT-07 GFT-01 chat picker markup', () => {
  const messages = messagesFor('nl', ['chat', 'errors']);

  it('CHT-07 the gif picker has a labelled search field and a labelled results list', () => {
    const html = renderToStaticMarkup(createElement(GifPicker, { messages, onPick: () => undefined }));
    const input = /<input id="([^"]+)" type="search"[^>]*>/.exec(html);
    expect(input).not.toBeNull();
    expect(html).toContain(`<label for="${input![1]}" class="visually-hidden">Zoek een gif</label>`);
    expect(input![0]).toContain('maxLength="50"');
    expect(html).toContain('role="search"');
    expect(html).toContain('aria-label="Gevonden gifs"');
    expect(html).toContain('>Zoeken</button>');
  });

  it('GFT-01 the gift picker shows each gift as a button with its name and cost', () => {
    const catalogue = { gifts: listGifts('nl'), cost: 25 };
    const html = renderToStaticMarkup(createElement(GiftPicker, { messages, catalogue, onPick: () => undefined }));
    expect(html.match(/<button type="button" data-gift=/g)).toHaveLength(catalogue.gifts.length);
    expect(html).toContain('aria-label="Stuur Roos voor 25 credits"');
    expect(html).toContain('<img src="/gifts/rose.svg" alt="" width="56" height="56"/>');
    expect(html).toContain('>Roos</span>');
    expect(html).toContain('>25 credits</span>');
    expect(html).toContain('>Stuur een cadeautje</h2>');
    const disabled = renderToStaticMarkup(createElement(GiftPicker, { messages, catalogue, disabled: true, onPick: () => undefined }));
    expect(disabled.match(/disabled=""/g)).toHaveLength(catalogue.gifts.length);
  });

  it('CHT-07 the icebreaker sheet lists every line as a button in a labelled dialog with a close button', () => {
    const lines = icebreakers('nl');
    const html = renderToStaticMarkup(createElement(IcebreakerModal, { messages, lines, open: true, onPick: () => undefined, onClose: () => undefined }));
    expect(html).toMatch(/^<dialog class="sheet chat-sheet" aria-labelledby="[^"]+-title" aria-describedby="[^"]+-intro">/);
    expect(html.match(/data-icebreaker="true"/g)).toHaveLength(lines.length);
    expect(html).toContain(`>${lines[0]}</button>`);
    expect(html).toContain('<span class="visually-hidden">Sluiten</span>');
    expect(html).toContain('>IJsbrekers</h2>');
    // Closed, the lines are not rendered (the sheet's body waits until it opens).
    const closed = renderToStaticMarkup(createElement(IcebreakerModal, { messages, lines, open: false, onPick: () => undefined, onClose: () => undefined }));
    expect(closed).not.toContain('data-icebreaker');
  });
});
