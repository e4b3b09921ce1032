/**
 * Places for the search island (MEM-07, MEM-08): the regions per country (`/api/regions.php`) and the
 * interest keys (`/api/interests.php`), each fetched at most once per page life and kept in a store;
 * geocodes (`/api/geocode.php`) kept for an hour per position; and 'use my location' (`$location`: may
 * the browser's position be read, and where the last look-up found the member).
 */
import { atom, map } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import { currentPosition, locationPermission, type LocationPermission, type NavigatorLike } from '../client/geolocation';
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

/** Where 'use my location' stands: looking, found a region (its name), failed, or found no region. */
export type LocateStatus = { type: 'idle' } | { type: 'busy' } | { type: 'done'; region: string } | { type: 'failed' } | { type: 'none' };

export interface LocationState {
  /** Whether the browser's position may be read (src/client/geolocation.ts). */
  permission: LocationPermission;
  locate: LocateStatus;
}

export const $location = map<LocationState>({ permission: 'unsupported', locate: { type: 'idle' } });

/** Asks the browser whether the position may be read (no prompt). */
export async function checkLocationPermission(nav?: NavigatorLike): Promise<LocationPermission> {
  const permission = await locationPermission(nav);
  $location.setKey('permission', permission);
  return permission;
}

/**
 * 'Use my location' (MEM-08): reads the position (may prompt) and looks up its country and region.
 * Answers the place found, or null (denied, no position, no region there; `$location` says which).
 */
export async function locateMe(nav?: NavigatorLike): Promise<{ country: string; region: Region } | null> {
  $location.setKey('locate', { type: 'busy' });
  const position = await currentPosition(nav);
  if (position.type === 'denied') {
    $location.set({ permission: 'denied', locate: { type: 'idle' } });
    return null;
  }
  if (position.type !== 'ok') {
    $location.setKey('locate', { type: 'failed' });
    return null;
  }
  const found = await lookupGeocode(position.lat, position.lon);
  if (found.type !== 'ok') {
    $location.setKey('locate', { type: 'failed' });
    return null;
  }
  const { country, region } = found.value;
  if (!country || !region) {
    $location.setKey('locate', { type: 'none' });
    return null;
  }
  $location.set({ permission: 'granted', locate: { type: 'done', region: region.name } });
  return { country, region };
}

/** Forgets everything (tests; a new page starts empty anyway). */
export function resetPlaces(): void {
  $location.set({ permission: 'unsupported', locate: { type: 'idle' } });
  regions.reset();
  interests.reset();
  geocodes.clear();
  $regions.set(null);
  $interests.set(null);
}
