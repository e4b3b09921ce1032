/**
 * The member search of the `/members` island (`$search`, MEM-01): the filters in the URL, the filters in
 * force (after the member's defaults), the cards loaded so far, the next cursor and the similar results.
 * Actions fetch `GET /api/members.php`, keep the URL in step (pushState for a new search, replaceState
 * with the number of pages for 'load more', UX-02) and restore a search from the URL on back and forward
 * (popstate).
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import type { components } from '../shared/api-types';
import { fromSearchParams, searchUrl, shownPages, withShownPages, type SearchQuery } from '../shared/search-query';

export type MemberCard = components['schemas']['MemberCard'];
export type MemberSearch = components['schemas']['MemberSearch'];
export type AppliedFilters = MemberSearch['filters'];

export interface SearchState {
  /** The filters as the URL names them (empty: the member's defaults apply). */
  query: SearchQuery;
  /** The filters in force, as the server applied them (what the form shows). */
  applied: AppliedFilters;
  cards: MemberCard[];
  next: string | null;
  similar: MemberSearch['similar'];
  status: 'idle' | 'loading' | 'loading_more';
  /** Why the last action failed (an API code such as `invalid_age_range`, or `network`), else null. */
  error: FailureReason | null;
  /** How many pages the cards are ('more members' pressed pages − 1 times); the URL says it as `pages` (UX-02). */
  pages: number;
}

export const $search = atom<SearchState | null>(null);

/** The part of `History` the store writes. */
export type HistoryLike = Pick<History, 'pushState'>;
/** The part of `History` 'load more' writes (UX-02). */
export type PagesHistory = Pick<History, 'replaceState' | 'state'>;

/** Numbers each fetch: an answer to an older one than the newest is dropped (fast clicks, back and forward). */
let sequence = 0;

/** Starts the store from what the server rendered (once per page life; later calls keep the store). */
export function initSearch(initial: Omit<SearchState, 'status'>): void {
  if ($search.get() === null) $search.set({ ...initial, status: 'idle' });
}

async function fetchPage(query: SearchQuery | AppliedFilters, cursor?: string | null, pages = 1) {
  const { data, error } = await api.GET('/api/members.php', {
    params: {
      query: {
        gender: query.gender.length > 0 ? (query.gender as Array<'male' | 'female'>) : undefined,
        country: query.country,
        region: query.region,
        minAge: query.minAge,
        maxAge: query.maxAge,
        cursor: cursor ?? undefined,
        pages: pages > 1 ? pages : undefined,
      },
    },
  });
  return { data, reason: data ? null : failureReason(error) };
}

export type SearchActionResult = { type: 'ok' } | { type: 'stale' } | { type: 'error'; reason: FailureReason };

/**
 * A new search with `query`: the first page replaces the cards (with `pages`, that many pages: back or
 * forward to a list that had more, UX-02). `history: 'push'` adds the search to the browser history (a
 * submitted form); `'none'` leaves it (back/forward already moved the URL).
 */
export async function search(query: SearchQuery, options: { history?: 'push' | 'none'; historyApi?: HistoryLike; pages?: number } = {}): Promise<SearchActionResult> {
  const current = $search.get();
  if (!current) return { type: 'stale' };
  const mine = ++sequence;
  const pages = options.pages ?? 1;
  if ((options.history ?? 'push') === 'push') (options.historyApi ?? globalThis.history).pushState({ search: true }, '', searchUrl(query));
  $search.set({ ...current, query, status: 'loading', error: null });
  try {
    const { data, reason } = await fetchPage(query, null, pages);
    if (mine !== sequence) return { type: 'stale' };
    const state = $search.get()!;
    if (!data) {
      $search.set({ ...state, cards: [], next: null, similar: null, status: 'idle', error: reason });
      return { type: 'error', reason: reason ?? 'unknown' };
    }
    $search.set({ query, applied: data.filters, cards: data.cards, next: data.next, similar: data.similar, status: 'idle', error: null, pages });
    return { type: 'ok' };
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    if (mine === sequence) $search.set({ ...$search.get()!, status: 'idle', error: 'network' });
    return { type: 'error', reason: 'network' };
  }
}

/**
 * 'Load more': the page after the last card, appended. The URL keeps the filters and counts the pages
 * (`pages`, replaced, not pushed): opening a profile and going back renders them all (UX-02).
 */
export async function loadMore(options: { historyApi?: PagesHistory; locationSearch?: string } = {}): Promise<SearchActionResult> {
  const current = $search.get();
  if (!current || current.next === null || current.status !== 'idle') return { type: 'stale' };
  const mine = ++sequence;
  $search.set({ ...current, status: 'loading_more', error: null });
  try {
    const { data, reason } = await fetchPage(current.applied, current.next);
    if (mine !== sequence) return { type: 'stale' };
    const state = $search.get()!;
    if (!data) {
      $search.set({ ...state, status: 'idle', error: reason });
      return { type: 'error', reason: reason ?? 'unknown' };
    }
    const seen = new Set(state.cards.map((c) => c.id));
    const pages = state.pages + 1;
    const history = options.historyApi ?? globalThis.history;
    if (history) history.replaceState(history.state ?? null, '', `${globalThis.location?.pathname ?? '/members'}${withShownPages(options.locationSearch ?? globalThis.location?.search ?? '', pages)}`);
    $search.set({ ...state, cards: [...state.cards, ...data.cards.filter((c) => !seen.has(c.id))], next: data.next, status: 'idle', error: null, pages });
    return { type: 'ok' };
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    if (mine === sequence) $search.set({ ...$search.get()!, status: 'idle', error: 'network' });
    return { type: 'error', reason: 'network' };
  }
}

/** Back or forward moved to `locationSearch` (`?gender=…`): search again with its filters (and pages), without a new history entry. */
export function restoreFromUrl(locationSearch: string): Promise<SearchActionResult> {
  const params = new URLSearchParams(locationSearch);
  return search(fromSearchParams(params), { history: 'none', pages: shownPages(params) });
}
