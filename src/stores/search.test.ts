import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { $search, initSearch, loadMore, restoreFromUrl, search, type MemberCard } from './search';

const card = (id: number): MemberCard => ({ id, name: `M${id}`, age: 30, country: 'NL', region: 'Utrecht', city: null, fictional: id % 2 === 0, verified: false, thumb: null, image: null });
const applied = { gender: ['female'], country: 'NL', minAge: 18, maxAge: 99 };

/** A fake /api/members.php: answers by cursor; records the URLs asked. */
function fakeApi(answer: (url: URL) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>) {
  const urls: URL[] = [];
  installTestApi(async (input) => {
    const url = new URL((input as Request).url);
    urls.push(url);
    const { status, body } = await answer(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return urls;
}

function fakeHistory() {
  const pushed: string[] = [];
  return { pushed, api: { pushState: (_d: unknown, _u: string, url?: string | URL | null) => void pushed.push(String(url)) } };
}

beforeEach(() => {
  $search.set(null);
  initSearch({ query: { gender: [] }, applied, cards: [card(1), card(2)], next: 'c1', similar: null, error: null, pages: 1 });
});
afterEach(() => setApiClient(undefined));

describe('$search store', () => {
  it('MEM-01 a new search asks members.php with the filters, replaces the cards and pushes the URL', async () => {
    const urls = fakeApi(() => ({ status: 200, body: { filters: { ...applied, gender: ['male', 'female'], region: 7 }, cards: [card(9)], next: null, similar: null } }));
    const history = fakeHistory();
    const result = await search({ gender: ['male', 'female'], country: 'NL', region: 7, minAge: 25 }, { historyApi: history.api });
    expect(result.type).toBe('ok');
    expect(urls[0]!.pathname).toBe('/api/members.php');
    expect(urls[0]!.searchParams.getAll('gender')).toEqual(['male', 'female']);
    expect(urls[0]!.searchParams.get('region')).toBe('7');
    expect(urls[0]!.searchParams.get('minAge')).toBe('25');
    expect(history.pushed).toEqual(['/members?gender=male&gender=female&country=NL&region=7&minAge=25']);
    const s = $search.get()!;
    expect(s.cards.map((c) => c.id)).toEqual([9]);
    expect(s.applied.region).toBe(7);
    expect(s.next).toBeNull();
    expect(s.status).toBe('idle');
  });

  it('MEM-01 load more sends the cursor with the filters in force and appends the next page', async () => {
    const urls = fakeApi(() => ({ status: 200, body: { filters: applied, cards: [card(2), card(3), card(4)], next: 'c2', similar: null } }));
    expect((await loadMore()).type).toBe('ok');
    expect(urls[0]!.searchParams.get('cursor')).toBe('c1');
    expect(urls[0]!.searchParams.get('country')).toBe('NL');
    expect(urls[0]!.searchParams.getAll('gender')).toEqual(['female']);
    expect($search.get()!.cards.map((c) => c.id)).toEqual([1, 2, 3, 4]);
    expect($search.get()!.next).toBe('c2');
  });

  it('UX-02 load more counts the pages in the address (replaced, all else kept); back to it asks for that many pages', async () => {
    const urls = fakeApi(() => ({ status: 200, body: { filters: applied, cards: [card(3), card(4)], next: 'c2', similar: null } }));
    const replaced: string[] = [];
    const historyApi = { state: { search: true }, replaceState: (_d: unknown, _u: string, url?: string | URL | null) => void replaced.push(String(url)) };
    expect((await loadMore({ historyApi, locationSearch: '?gender=female&minAge=30' })).type).toBe('ok');
    expect($search.get()!.pages).toBe(2);
    expect((await loadMore({ historyApi, locationSearch: '?gender=female&minAge=30&pages=2' })).type).toBe('ok');
    expect(replaced).toEqual(['/members?gender=female&minAge=30&pages=2', '/members?gender=female&minAge=30&pages=3']);
    expect($search.get()!.pages).toBe(3);
    // A new search starts again at one page; back/forward to a list of three asks for three.
    await search({ gender: ['female'] }, { historyApi: fakeHistory().api });
    expect($search.get()!.pages).toBe(1);
    expect(urls.at(-1)!.searchParams.get('pages')).toBeNull();
    await restoreFromUrl('?gender=female&minAge=30&pages=3');
    expect(urls.at(-1)!.searchParams.get('pages')).toBe('3');
    expect($search.get()!.pages).toBe(3);
  });

  it('MEM-01 a 400 keeps its code for the translated message and shows no stale cards', async () => {
    fakeApi(() => ({ status: 400, body: { error: 'invalid_age_range', message: 'x' } }));
    const result = await search({ gender: [], minAge: 50, maxAge: 20 }, { historyApi: fakeHistory().api });
    expect(result).toEqual({ type: 'error', reason: 'invalid_age_range' });
    expect($search.get()!.error).toBe('invalid_age_range');
    expect($search.get()!.cards).toEqual([]);
  });

  it('MEM-01 back/forward restores the search from the URL without a new history entry; an older answer never overwrites a newer one', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const urls = fakeApi(async (url) => {
      if (url.searchParams.get('minAge') === '40') await slow;
      return { status: 200, body: { filters: { ...applied, minAge: Number(url.searchParams.get('minAge')) }, cards: [card(Number(url.searchParams.get('minAge')))], next: null, similar: null } };
    });
    const history = fakeHistory();
    const first = search({ gender: [], minAge: 40 }, { historyApi: history.api });
    const second = restoreFromUrl('?gender=female&minAge=30');
    expect((await second).type).toBe('ok');
    release();
    expect((await first).type).toBe('stale');
    expect($search.get()!.cards.map((c) => c.id)).toEqual([30]);
    expect($search.get()!.query).toEqual({ gender: ['female'], minAge: 30 });
    expect(history.pushed).toHaveLength(1);
    expect(urls).toHaveLength(2);
  });
});
