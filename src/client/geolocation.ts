/**
 * The browser's position for the search (MEM-08), behind the four states the island shows:
 * `unsupported` (no Geolocation API: no button), `unknown` (the browser has not been asked, or cannot
 * tell: the button asks), `granted` (the position may be read without a prompt) and `denied` (blocked:
 * say so, no button).
 */
export type LocationPermission = 'unsupported' | 'unknown' | 'granted' | 'denied';

/** The part of `Navigator` this module reads. */
export interface NavigatorLike {
  geolocation?: Pick<Geolocation, 'getCurrentPosition'>;
  permissions?: { query(descriptor: { name: 'geolocation' }): Promise<{ state: string }> };
}

export async function locationPermission(nav: NavigatorLike | undefined = globalThis.navigator): Promise<LocationPermission> {
  if (!nav?.geolocation) return 'unsupported';
  if (!nav.permissions?.query) return 'unknown';
  try {
    const { state } = await nav.permissions.query({ name: 'geolocation' });
    return state === 'granted' ? 'granted' : state === 'denied' ? 'denied' : 'unknown';
  } catch {
    return 'unknown';
  }
}

export type PositionResult = { type: 'ok'; lat: number; lon: number } | { type: 'denied' } | { type: 'unavailable' } | { type: 'unsupported' };

/** PERMISSION_DENIED of GeolocationPositionError. */
const PERMISSION_DENIED = 1;

/** Reads the position once (may prompt). A coarse position is enough for a region. */
export function currentPosition(nav: NavigatorLike | undefined = globalThis.navigator, timeoutMs = 10_000): Promise<PositionResult> {
  const geolocation = nav?.geolocation;
  if (!geolocation) return Promise.resolve({ type: 'unsupported' });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) => resolve({ type: 'ok', lat: position.coords.latitude, lon: position.coords.longitude }),
      (error) => resolve({ type: error.code === PERMISSION_DENIED ? 'denied' : 'unavailable' }),
      { enableHighAccuracy: false, maximumAge: 10 * 60 * 1000, timeout: timeoutMs },
    );
  });
}
