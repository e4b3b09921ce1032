/** The marketing landers of LND-01 served by `/landers/{name}/{slug?}` (tinderswipe has its own route). */
export const LANDER_NAMES = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
] as const;

export type LanderName = (typeof LANDER_NAMES)[number];

export function isLanderName(value: unknown): value is LanderName {
  return typeof value === 'string' && (LANDER_NAMES as readonly string[]).includes(value);
}

/**
 * The optional slug segment of a lander route: one path segment (or none). More segments are not a
 * lander address at all and get the 404 page; anything in one segment renders (the slug only informs).
 */
export function slugSegment(rest: string | undefined): { ok: true; slug: string | null } | { ok: false } {
  if (!rest) return { ok: true, slug: null };
  if (rest.includes('/')) return { ok: false };
  return { ok: true, slug: rest };
}

/** A member id from the URL: a positive integer of sane size, or null. */
export function parseMemberId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,8}$/.test(value)) return null;
  return Number(value);
}

/** The four member landings of LND-03. */
export type MemberLandingVariant = 'landing' | 'signup' | 'landing2' | 'landing3';
