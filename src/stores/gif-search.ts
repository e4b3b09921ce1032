/**
 * The chat's gif search and gift catalogue (CHT-07, GFT-01), the stores behind GifPicker and GiftPicker:
 * a page of `/api/gifs.php` through the shared API client, the search's state as a reducer (a new search
 * replaces, 'load more' appends, an answer to an older request is dropped) kept in `$gifSearch` with its
 * actions, and the gift catalogue of `/api/gifts.php` in `$giftCatalogue`.
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import type { components } from '../shared/api-types';
import { GIF_QUERY_MAX } from '../shared/api/limits';

export type GifItem = components['schemas']['Gif'];
export type GifPage = components['schemas']['GifPage'];
export type GiftCatalogue = components['schemas']['GiftCatalogue'];
export type Gift = components['schemas']['Gift'];

export type FetchResult<T> = { type: 'ok'; data: T } | { type: 'error'; reason: FailureReason } | { type: 'stopped' };

/** One page of gifs for `q` from `offset`; `stopped` after authentication_required (the client logs out). */
export async function fetchGifs(q: string, offset = 0): Promise<FetchResult<GifPage>> {
  try {
    const query: { q?: string; offset?: number } = {};
    const trimmed = q.trim().slice(0, GIF_QUERY_MAX);
    if (trimmed) query.q = trimmed;
    if (offset > 0) query.offset = offset;
    const { data, error } = await api.GET('/api/gifs.php', { params: { query } });
    return data ? { type: 'ok', data } : { type: 'error', reason: failureReason(error) };
  } catch (err) {
    if (isAuthenticationRequired(err)) return { type: 'stopped' };
    return { type: 'error', reason: 'network' };
  }
}

/** The gift catalogue and its cost from `/api/gifts.php`. */
export async function fetchGifts(): Promise<FetchResult<GiftCatalogue>> {
  try {
    const { data, error } = await api.GET('/api/gifts.php');
    return data ? { type: 'ok', data } : { type: 'error', reason: failureReason(error) };
  } catch (err) {
    if (isAuthenticationRequired(err)) return { type: 'stopped' };
    return { type: 'error', reason: 'network' };
  }
}

export interface GifPickerState {
  /** The query the shown items answer. */
  query: string;
  items: GifItem[];
  next: number | null;
  status: 'idle' | 'loading' | 'loading_more';
  error: FailureReason | null;
  /** Number of the newest request (0: none yet); answers to older ones are dropped. */
  request: number;
}

export const initialGifState: GifPickerState = { query: '', items: [], next: null, status: 'idle', error: null, request: 0 };

export type GifAction =
  | { type: 'search'; query: string; request: number }
  | { type: 'more'; request: number }
  | { type: 'loaded'; request: number; page: GifPage; append: boolean }
  | { type: 'failed'; request: number; reason: FailureReason };

export function gifReducer(state: GifPickerState, action: GifAction): GifPickerState {
  switch (action.type) {
    case 'search':
      return { ...state, query: action.query, status: 'loading', error: null, request: action.request };
    case 'more':
      if (state.next === null || state.status !== 'idle') return state;
      return { ...state, status: 'loading_more', error: null, request: action.request };
    case 'loaded': {
      if (action.request !== state.request) return state;
      const items = action.append ? [...state.items, ...action.page.items.filter((i) => !state.items.some((s) => s.id === i.id))] : action.page.items;
      return { ...state, items, next: action.page.next, status: 'idle', error: null };
    }
    case 'failed':
      if (action.request !== state.request) return state;
      return { ...state, status: 'idle', error: action.reason };
  }
}

/** The open gif picker's search (one picker at a time: the chat's panel). */
export const $gifSearch = atom<GifPickerState>(initialGifState);

/** Numbers the searches; the reducer drops an answer to any but the newest. */
let sequence = 0;

async function run(query: string, offset: number, request: number): Promise<void> {
  const result = await fetchGifs(query, offset);
  if (result.type === 'ok') $gifSearch.set(gifReducer($gifSearch.get(), { type: 'loaded', request, page: result.data, append: offset > 0 }));
  else if (result.type === 'error') $gifSearch.set(gifReducer($gifSearch.get(), { type: 'failed', request, reason: result.reason }));
}

/** A new search for `query` (empty: the default selection); its first page replaces the shown gifs. */
export function searchGifs(query: string): Promise<void> {
  const request = ++sequence;
  $gifSearch.set(gifReducer($gifSearch.get(), { type: 'search', query, request }));
  return run(query, 0, request);
}

/** 'Load more': the next page of the current search, appended (nothing while one is loading or at the end). */
export function moreGifs(): Promise<void> {
  const state = $gifSearch.get();
  if (state.next === null || state.status !== 'idle') return Promise.resolve();
  const offset = state.next;
  const request = ++sequence;
  $gifSearch.set(gifReducer(state, { type: 'more', request }));
  return run(state.query, offset, request);
}

/** The picker opens: it starts empty and shows the default selection. */
export function openGifSearch(): Promise<void> {
  $gifSearch.set(initialGifState);
  return searchGifs('');
}

export interface GiftCatalogueState {
  catalogue: GiftCatalogue | null;
  /** The last load failed (the picker says so). */
  failed: boolean;
}

/** The gift catalogue and its cost, once loaded. */
export const $giftCatalogue = atom<GiftCatalogueState>({ catalogue: null, failed: false });

/** The picker opens without a catalogue: it loads `/api/gifts.php` afresh (showing 'loading' until then). */
export async function openGiftCatalogue(): Promise<void> {
  $giftCatalogue.set({ catalogue: null, failed: false });
  const result = await fetchGifts();
  if (result.type === 'ok') $giftCatalogue.set({ catalogue: result.data, failed: false });
  else if (result.type === 'error') $giftCatalogue.set({ ...$giftCatalogue.get(), failed: true });
}
