import { describe, expect, it } from 'vitest';
import { currentPosition, locationPermission, type NavigatorLike } from './geolocation';

const geolocation = (outcome: { lat: number; lon: number } | { code: number }): NavigatorLike['geolocation'] => ({
  getCurrentPosition: (ok, fail) => {
    if ('lat' in outcome) ok({ coords: { latitude: outcome.lat, longitude: outcome.lon } } as GeolocationPosition);
    else fail?.({ code: outcome.code } as GeolocationPositionError);
  },
});

describe('geolocation', () => {
  it('MEM-08 permission states: unsupported, unknown, granted, denied', async () => {
    expect(await locationPermission({})).toBe('unsupported');
    expect(await locationPermission(undefined)).toBe('unsupported');
    const geo = geolocation({ lat: 1, lon: 2 });
    expect(await locationPermission({ geolocation: geo })).toBe('unknown');
    const query = (state: string) => ({ query: async () => ({ state }) });
    expect(await locationPermission({ geolocation: geo, permissions: query('prompt') })).toBe('unknown');
    expect(await locationPermission({ geolocation: geo, permissions: query('granted') })).toBe('granted');
    expect(await locationPermission({ geolocation: geo, permissions: query('denied') })).toBe('denied');
    expect(await locationPermission({ geolocation: geo, permissions: { query: () => Promise.reject(new TypeError('no')) } })).toBe('unknown');
  });

  it('MEM-08 the position, a refusal and a failure are told apart', async () => {
    expect(await currentPosition({ geolocation: geolocation({ lat: 52.1, lon: 5.1 }) })).toEqual({ type: 'ok', lat: 52.1, lon: 5.1 });
    expect(await currentPosition({ geolocation: geolocation({ code: 1 }) })).toEqual({ type: 'denied' });
    expect(await currentPosition({ geolocation: geolocation({ code: 3 }) })).toEqual({ type: 'unavailable' });
    expect(await currentPosition({})).toEqual({ type: 'unsupported' });
  });
});
