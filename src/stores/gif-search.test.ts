/** The gif search and gift catalogue stores against a fake API (what moved out of GifPicker and GiftPicker). */
import { afterEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { $gifSearch, $giftCatalogue, moreGifs, openGifSearch, openGiftCatalogue, searchGifs, type GifItem } from './gif-search';

const gif = (id: string): GifItem => ({ id, title: id, url: `/g/${id}.webp`, previewUrl: `/g/${id}.webp`, width: 160, height: 160 });

/** A fake API whose answers the test releases one by one (to answer out of order). */
function fakeApi(answer: (url: URL) => { status: number; body: unknown }) {
  const urls: URL[] = [];
  const held: (() => void)[] = [];
  let holding = false;
  installTestApi(async (input) => {
    const url = new URL((input as Request).url);
    urls.push(url);
    if (holding) await new Promise<void>((release) => held.push(release));
    const { status, body } = answer(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return { urls, held, hold: (on: boolean) => (holding = on) };
}

afterEach(() => setApiClient(undefined));

describe('$gifSearch store', () => {
  it('CHT-07 opening shows the default selection; load more appends the next page', async () => {
    const api = fakeApi((url) =>
      url.searchParams.get('offset') ? { status: 200, body: { items: [gif('b'), gif('c')], next: null } } : { status: 200, body: { items: [gif('a'), gif('b')], next: 2 } },
    );
    await openGifSearch();
    expect(api.urls[0]!.search).toBe('');
    expect($gifSearch.get()).toMatchObject({ query: '', next: 2, status: 'idle' });
    await moreGifs();
    expect(api.urls[1]!.searchParams.get('offset')).toBe('2');
    expect($gifSearch.get().items.map((g) => g.id)).toEqual(['a', 'b', 'c']);
    await moreGifs();
    expect(api.urls).toHaveLength(2);
  });

  it('CHT-07 an answer to an older search never replaces a newer one', async () => {
    const api = fakeApi((url) => ({ status: 200, body: { items: [gif(url.searchParams.get('q') ?? 'default')], next: null } }));
    api.hold(true);
    const first = searchGifs('kat');
    const second = searchGifs('hond');
    await expect.poll(() => api.held.length).toBe(2);
    api.held[1]!();
    await second;
    api.held[0]!();
    await first;
    expect($gifSearch.get()).toMatchObject({ query: 'hond', items: [gif('hond')], status: 'idle' });
  });

  it('CHT-07 a failed search keeps its reason for the picker to say', async () => {
    fakeApi(() => ({ status: 503, body: { error: 'gif_search_unavailable' } }));
    await searchGifs('x');
    expect($gifSearch.get()).toMatchObject({ status: 'idle', error: 'gif_search_unavailable' });
  });

  it('GFT-01 the gift catalogue loads afresh each time the picker opens; a failure is kept', async () => {
    let up = true;
    fakeApi(() => (up ? { status: 200, body: { gifts: [{ id: 'rose', name: 'Roos', image: '/gifts/rose.svg' }], cost: 25 } } : { status: 500, body: { error: 'internal_error' } }));
    const opening = openGiftCatalogue();
    expect($giftCatalogue.get()).toEqual({ catalogue: null, failed: false });
    await opening;
    expect($giftCatalogue.get().catalogue?.cost).toBe(25);
    up = false;
    await openGiftCatalogue();
    expect($giftCatalogue.get()).toEqual({ catalogue: null, failed: true });
  });
});
