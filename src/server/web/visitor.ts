/** Facts about the visitor that pages decide on: country (entry warning); the tracking record is ../../shared/tracking.ts. */
import type { Settings } from '../../shared/settings';

/**
 * Country from the configured CDN header (e.g. CF-IPCountry), else the site's geoip setting. The header
 * is believed only when a trusted proxy sent the request (`trusted`): without one any client could pick
 * its own country and with it the entry-warning rule (SEC-10).
 */
export function visitorCountry(headers: Headers, headerName: string, settings: Pick<Settings, 'geoip_country'>, trusted: boolean): string {
  const value = trusted ? headers.get(headerName)?.trim().toUpperCase() : undefined;
  return value && /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : settings.geoip_country;
}

export type LayoutName = 'default' | 'chat' | 'lander' | 'empty';

/**
 * Whether the adult-content entry warning shows (LAY-01, LAY-02): never once accepted or when the site
 * turns it off; in the chat layout only for visitors from NL and DE; never in the lander and empty layouts,
 * which carry their own disclosure.
 */
export function entryWarningApplies(options: { layout: LayoutName; country: string; accepted: boolean; enabled: boolean }): boolean {
  if (options.accepted || !options.enabled) return false;
  if (options.layout === 'chat') return options.country === 'NL' || options.country === 'DE';
  return options.layout === 'default';
}
