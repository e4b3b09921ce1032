/**
 * The site-wide settings (`/api/settings.php`, SITE-01, SITE-02) for browser code that needs them
 * after the page was rendered.
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import type { components } from '../shared/api-types';

export type Settings = components['schemas']['Settings'];

/** The site's settings once loaded, else null. */
export const $settings = atom<Settings | null>(null);

export type LoadSettingsResult = { type: 'ok'; settings: Settings } | { type: 'error'; reason: FailureReason };

/** The part of `Location` the settings call reads. */
export type SettingsLocation = Pick<Location, 'pathname' | 'host'>;

/**
 * Loads the settings with `GET /api/settings.php?route=<path>&domain=<host>`: the route the page is on
 * and the host it was loaded from as the forced domain (SPEC §7). On failure `$settings` keeps its value.
 */
export async function loadSettings(location: SettingsLocation = globalThis.location): Promise<LoadSettingsResult> {
  try {
    const { data, error } = await api.GET('/api/settings.php', {
      params: { query: { route: location.pathname, domain: location.host } },
    });
    if (data) {
      $settings.set(data);
      return { type: 'ok', settings: data };
    }
    return { type: 'error', reason: failureReason(error) };
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return { type: 'error', reason: 'network' };
  }
}
