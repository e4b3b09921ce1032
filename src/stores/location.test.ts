/** 'Use my location' in the places store (what moved out of the MemberSearch island), with a fake browser and API. */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiClient } from '../client/api';
import type { NavigatorLike } from '../client/geolocation';
import { $location, checkLocationPermission, locateMe, resetPlaces } from './places';

function fakeNavigator(position: { lat: number; lon: number } | 'denied' | 'unavailable', state = 'prompt'): NavigatorLike {
  return {
    permissions: { query: async () => ({ state }) },
    geolocation: {
      getCurrentPosition: (ok, fail) => {
        if (position === 'denied' || position === 'unavailable') fail?.({ code: position === 'denied' ? 1 : 2 } as GeolocationPositionError);
        else ok({ coords: { latitude: position.lat, longitude: position.lon } } as GeolocationPosition);
      },
    },
  };
}

function fakeGeocode(body: unknown) {
  setApiClient(
    createApiClient({
      baseUrl: 'http://site.test',
      onAuthenticationRequired: () => undefined,
      retry: { retries: 0 },
      fetch: async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
    }),
  );
}

afterEach(() => {
  setApiClient(undefined);
  resetPlaces();
});

describe('$location', () => {
  it('MEM-08 the permission is asked of the browser without a prompt', async () => {
    expect(await checkLocationPermission(fakeNavigator('denied', 'granted'))).toBe('granted');
    expect($location.get().permission).toBe('granted');
    expect(await checkLocationPermission({})).toBe('unsupported');
  });

  it('MEM-08 the position found gives the country and region, which the store names', async () => {
    fakeGeocode({ country: 'NL', region: { id: 3, country: 'NL', code: 'UT', name: 'Utrecht' }, distanceKm: 2 });
    const found = await locateMe(fakeNavigator({ lat: 52.09, lon: 5.12 }));
    expect(found).toEqual({ country: 'NL', region: { id: 3, country: 'NL', code: 'UT', name: 'Utrecht' } });
    expect($location.get()).toEqual({ permission: 'granted', locate: { type: 'done', region: 'Utrecht' } });
  });

  it('MEM-08 denied, no position and no region there each say so', async () => {
    expect(await locateMe(fakeNavigator('denied'))).toBeNull();
    expect($location.get()).toEqual({ permission: 'denied', locate: { type: 'idle' } });
    expect(await locateMe(fakeNavigator('unavailable'))).toBeNull();
    expect($location.get().locate).toEqual({ type: 'failed' });
    fakeGeocode({ country: 'NL', region: null, distanceKm: null });
    expect(await locateMe(fakeNavigator({ lat: 1, lon: 1 }))).toBeNull();
    expect($location.get().locate).toEqual({ type: 'none' });
  });
});
