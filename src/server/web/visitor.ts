/** Facts about the visitor that pages decide on: country (entry warning), tracking (CLI-04). */
import { z } from 'zod';
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

export const TRACKING_COOKIE = 'tracking';
export const TRACKING_KEYS = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
const trackingValue = z.string().trim().min(1).max(100).regex(/^[\w.:~@+-]+$/);

export const trackingSchema = z.object({
  network: trackingValue.optional(),
  ref: trackingValue.optional(),
  sub1: trackingValue.optional(),
  sub2: trackingValue.optional(),
  sub3: trackingValue.optional(),
});
export type Tracking = z.infer<typeof trackingSchema>;

/** The tracking record in a query string (CLI-04), or null when it carries none. Bad values are dropped. */
export function trackingFromQuery(params: URLSearchParams): Tracking | null {
  const out: Tracking = {};
  for (const key of TRACKING_KEYS) {
    const parsed = trackingValue.safeParse(params.get(key) ?? undefined);
    if (parsed.success) out[key] = parsed.data;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The stored tracking record from its cookie, or null. */
export function trackingFromCookie(value: string | undefined): Tracking | null {
  if (!value) return null;
  try {
    const parsed = trackingSchema.safeParse(JSON.parse(value));
    return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : null;
  } catch {
    return null;
  }
}
