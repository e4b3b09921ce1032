/**
 * Places for the search island (MEM-07, MEM-08): the regions per country (`/api/regions.php`) and the
 * interest keys (`/api/interests.php`), each fetched at most once per page life and kept in a store; and
 * geocodes (`/api/geocode.php`) kept for an hour per position.
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import type { components, paths } from '../shared/api-types';

export type Region = components['schemas']['Region'];
export type RegionsByCountry = paths['/api/regions.php']['get']['responses']['200']['content']['application/json']['countries'];
export type Geocode = paths['/api/geocode.php']['get']['responses']['200']['content']['application/json'];

export const $regions = atom<RegionsByCountry | null>(null);
export const $interests = atom<string[] | null>(null);

export type LoadResult<T> = { type: 'ok'; value: T } | { type: 'error'; reason: FailureReason };

/** One fetch shared by every caller of the page; a failed one may be tried again later. */
function once<T>(fetchIt: () => Promise<LoadResult<T>>) {
  let pending: Promise<LoadResult<T>> | null = null;
  const load = (): Promise<LoadResult<T>> => {
    pending ??= fetchIt().then((result) => {
      if (result.type === 'error') pending = null;
      return result;
    });
    return pending;
  };
  return { load, reset: () => (pending = null) };
}

async function guarded<T>(call: () => Promise<LoadResult<T>>): Promise<LoadResult<T>> {
  try {
    return await call();
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return { type: 'error', reason: 'network' };
  }
}

const regions = once<RegionsByCountry>(() =>
  guarded(async () => {
    const { data, error } = await api.GET('/api/regions.php');
    if (!data) return { type: 'error', reason: failureReason(error) };
    $regions.set(data.countries);
    return { type: 'ok', value: data.countries };
  }),
);

const interests = once<string[]>(() =>
  guarded(async () => {
    const { data, error } = await api.GET('/api/interests.php');
    if (!data) return { type: 'error', reason: failureReason(error) };
    $interests.set(data.interests);
    return { type: 'ok', value: data.interests };
  }),
);

/** The regions per country, fetched on the first call of the page only. */
export const loadRegions = regions.load;
/** The interest keys, fetched on the first call of the page only. */
export const loadInterests = interests.load;

/** How long a geocode answer is kept (MEM-08). */
export const GEOCODE_TTL_MS = 60 * 60 * 1000;
const geocodes = new Map<string, { at: number; value: Geocode }>();

/**
 * The country and region near a position, from the cache when asked for the same spot (to ~100 m) within
 * the hour, else from `/api/geocode.php`.
 */
export async function lookupGeocode(lat: number, lon: number, now: () => number = Date.now): Promise<LoadResult<Geocode>> {
  const key = `${lat.toFixed(3)},${lon.toFixed(3)}`;
  const hit = geocodes.get(key);
  if (hit && now() - hit.at < GEOCODE_TTL_MS) return { type: 'ok', value: hit.value };
  return guarded(async () => {
    const { data, error } = await api.GET('/api/geocode.php', { params: { query: { lat: Number(lat.toFixed(5)), lon: Number(lon.toFixed(5)) } } });
    if (!data) return { type: 'error', reason: failureReason(error) };
    geocodes.set(key, { at: now(), value: data });
    return { type: 'ok', value: data };
  });
}

/** Forgets everything (tests; a new page starts empty anyway). */
export function resetPlaces(): void {
  regions.reset();
  interests.reset();
  geocodes.clear();
  $regions.set(null);
  $interests.set(null);
}
