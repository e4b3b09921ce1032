import { afterEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { $interests, $regions, GEOCODE_TTL_MS, loadInterests, loadRegions, lookupGeocode, resetPlaces } from './places';

function fakeApi(body: (url: URL) => unknown) {
  const urls: URL[] = [];
  installTestApi(async (input) => {
    const url = new URL((input as Request).url);
    urls.push(url);
    return new Response(JSON.stringify(body(url)), { headers: { 'content-type': 'application/json' } });
  });
  return urls;
}

afterEach(() => {
  setApiClient(undefined);
  resetPlaces();
});

describe('places store', () => {
  it('MEM-07 regions and interests are fetched once per page however often they are asked for', async () => {
    const urls = fakeApi((url) => (url.pathname === '/api/regions.php' ? { countries: [{ code: 'NL', regions: [{ id: 1, code: 'UT', name: 'Utrecht' }] }] } : { interests: ['wine', 'music'] }));
    await Promise.all([loadRegions(), loadRegions(), loadInterests()]);
    await loadRegions();
    await loadInterests();
    expect(urls.map((u) => u.pathname).sort()).toEqual(['/api/interests.php', '/api/regions.php']);
    expect($regions.get()![0]!.regions[0]!.name).toBe('Utrecht');
    expect($interests.get()).toEqual(['wine', 'music']);
  });

  it('MEM-08 a geocode is asked once per spot and kept for an hour', async () => {
    const urls = fakeApi(() => ({ country: 'NL', region: { id: 3, country: 'NL', code: 'UT', name: 'Utrecht' }, distanceKm: 2 }));
    let now = 1_000_000;
    const clock = () => now;
    const first = await lookupGeocode(52.0907, 5.1214, clock);
    expect(first).toMatchObject({ type: 'ok', value: { country: 'NL', region: { name: 'Utrecht' } } });
    expect(urls[0]!.searchParams.get('lat')).toBe('52.0907');
    now += GEOCODE_TTL_MS - 1;
    await lookupGeocode(52.09071, 5.12141, clock);
    expect(urls).toHaveLength(1);
    now += 2;
    await lookupGeocode(52.0907, 5.1214, clock);
    expect(urls).toHaveLength(2);
  });
});
