/**
 * The logic behind GifPicker (CHT-07), kept free of React so it is tested without a DOM: fetching a page
 * of `/api/gifs.php` through the shared API client, the picker's state as a reducer (a new search
 * replaces, 'load more' appends, an answer to an older request is dropped), and arrow-key movement in a
 * grid of buttons.
 */
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../../client/api';
import type { components } from '../../shared/api-types';
import { GIF_QUERY_MAX } from '../../shared/api/limits';

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

/**
 * The index focus moves to in a grid of `count` buttons with `columns` per row for `key`
 * (arrows, Home, End), or null when the key is not a grid key. Stays at the edges.
 */
export function gridMove(index: number, key: string, count: number, columns: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
      return Math.min(index + 1, last);
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'ArrowDown':
      return index + columns <= last ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** The elements inside `root` that Tab can reach, in order (for the modal's focus trap). */
export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where Tab (or Shift+Tab) from `index` of `count` focusable elements goes, wrapping at the ends. */
export function trapTab(index: number, count: number, backwards: boolean): number {
  if (count === 0) return -1;
  if (index < 0) return backwards ? count - 1 : 0;
  return backwards ? (index - 1 + count) % count : (index + 1) % count;
}
