/**
 * The tracking record a visitor arrives with (CLI-04): the affiliate network, reference and sub ids from
 * the landing URL, kept in a cookie and stored with the account at signup.
 */
import { z } from 'zod';

export const TRACKING_COOKIE = 'tracking';
export const TRACKING_KEYS = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
const trackingValue = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w.:~@+-]+$/);

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
    // Most requests carry none: a missing key is skipped, not parsed (a failed parse builds its issues).
    const raw = params.get(key);
    if (raw === null) continue;
    const parsed = trackingValue.safeParse(raw);
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
